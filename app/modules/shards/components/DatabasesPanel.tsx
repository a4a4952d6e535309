import type { DatabaseFigures, DatabaseTotals } from "../figures";

/** 1,234,567 → "1.2 MB": decimal units, as D1 states its 10 GB limit. */
function formatSize(bytes: number): string {
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toLocaleString("en-US", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

const share = (bytes: number, limit: number) => `${((bytes / limit) * 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;
const number = (n: number) => n.toLocaleString("en-US");

/** Operations Center → Databases: each account database's accounts, agents and size, and the totals over all of them. */
export function DatabasesPanel({ view }: { view: { databases: DatabaseFigures[]; totals: DatabaseTotals; limitBytes: number } }) {
  const headers = ["Database", "Accounts", "Agents", "In the directory", "Size", "Of the 10 GB limit", "New accounts"];
  return (
    <section aria-labelledby="databases-heading" className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <h2 id="databases-heading" className="text-lg font-semibold">
        Databases
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Each account lives in one database; a team is one account, its members together. The directory in the home database (DB) says which. A new
        account goes to the database with the most room among those taking new accounts.
      </p>
      <div
        role="group"
        aria-label="Databases"
        tabIndex={0}
        className="relative mt-3 overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">Account databases, with their totals</caption>
          <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
            <tr>
              {headers.map((h) => (
                <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 text-left font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
            {view.databases.map((d) => (
              <tr key={d.shard}>
                <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-medium">
                  <code>{d.binding}</code>
                  {d.shard === 0 ? <span className="block text-xs font-normal text-stone-600 dark:text-stone-400">Home: the directory</span> : null}
                </th>
                <td className="px-3 py-2 tabular-nums">{number(d.accounts)}</td>
                <td className="px-3 py-2 tabular-nums">{number(d.agents)}</td>
                <td className="px-3 py-2 tabular-nums">{number(d.listed)}</td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">{formatSize(d.bytes)}</td>
                <td className="px-3 py-2 tabular-nums">{share(d.bytes, view.limitBytes)}</td>
                <td className="px-3 py-2">{d.acceptsNewAccounts ? "Open" : "Closed"}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t-2 border-stone-300 font-semibold dark:border-stone-700">
            <tr>
              <th scope="row" className="px-3 py-2 text-left">
                All databases
              </th>
              <td className="px-3 py-2 tabular-nums">{number(view.totals.accounts)}</td>
              <td className="px-3 py-2 tabular-nums">{number(view.totals.agents)}</td>
              <td className="px-3 py-2 tabular-nums">{number(view.totals.listed)}</td>
              <td className="whitespace-nowrap px-3 py-2 tabular-nums">{formatSize(view.totals.bytes)}</td>
              <td className="px-3 py-2" />
              <td className="px-3 py-2" />
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
