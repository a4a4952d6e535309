import type { DatabaseFigures, DatabaseTotals } from "../figures";

const cell = "px-3 py-2 tabular-nums";

/** One row: the figures of a database, or their totals. */
function Row({ name, figures, share, accepts }: { name: React.ReactNode; figures: DatabaseTotals; share?: string; accepts?: boolean }) {
  return (
    <tr>
      <th scope="row" className="whitespace-nowrap px-3 py-2 text-left">
        {name}
      </th>
      <td className={cell}>{figures.accounts.toLocaleString("en-US")}</td>
      <td className={cell}>{figures.agents.toLocaleString("en-US")}</td>
      <td className={cell}>{figures.listed.toLocaleString("en-US")}</td>
      <td className={cell}>{figures.sizeLabel}</td>
      <td className={cell}>{share}</td>
      <td className={cell}>{accepts === undefined ? null : accepts ? "Open" : "Closed"}</td>
    </tr>
  );
}

/** Operations Center → Databases: each account database's accounts, agents and size, and the totals over all of them. */
export function DatabasesPanel({ view }: { view: { databases: DatabaseFigures[]; totals: DatabaseTotals } }) {
  return (
    <section aria-labelledby="databases-heading" className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <h2 id="databases-heading" className="text-lg font-semibold">
        Databases
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        A team is one account, in one database. New accounts go to the open database with the most room.
      </p>
      <div role="group" aria-label="Databases" tabIndex={0} className="mt-3 overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800">
        <table className="w-full text-sm">
          <caption className="sr-only">Account databases, with their totals</caption>
          <thead className="bg-stone-100 text-left text-stone-700 dark:bg-stone-800 dark:text-stone-300">
            <tr>
              {["Database", "Accounts", "Agents", "Listed", "Size", "Of 10 GB", "New accounts"].map((h) => (
                <th key={h} scope="col" className="whitespace-nowrap px-3 py-2">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
            {view.databases.map((d) => (
              <Row
                key={d.shard}
                name={
                  <>
                    <code>{d.binding}</code>
                    {d.shard === 0 ? <span className="block text-xs font-normal text-stone-600 dark:text-stone-400">Home: the directory</span> : null}
                  </>
                }
                figures={d}
                share={d.limitShare}
                accepts={d.acceptsNewAccounts}
              />
            ))}
          </tbody>
          <tfoot className="border-t-2 border-stone-300 font-semibold dark:border-stone-700">
            <Row name="All databases" figures={view.totals} />
          </tfoot>
        </table>
      </div>
    </section>
  );
}
