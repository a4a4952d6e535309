import { formatCents, type DisplayPreferences } from "~/lib/format";
import type { CommissionBreakdown as Breakdown, CommissionTerms } from "../commission";

const pct = (n: number) => `${Number(n.toFixed(3))}%`;

/** Each line from sale price to agent net, in the order they apply (decisions.md "Commissions"). */
export function CommissionBreakdown({
  breakdown: b,
  terms,
  prefs,
  capLeftCents,
  caption = "Commission breakdown",
}: {
  breakdown: Breakdown;
  terms: CommissionTerms;
  prefs: Pick<DisplayPreferences, "currency">;
  capLeftCents?: number | null;
  caption?: string;
}) {
  const money = (cents: number) => formatCents(cents, prefs);
  const rows: { label: string; how: string; amount: number; total?: boolean }[] = [
    { label: "Gross commission", how: `${money(b.priceCents)} × ${pct(terms.rate)}`, amount: b.grossCents },
    // A shared deal: the side is split first; the lines below are this agent's share.
    ...(b.sharePct < 100 ? [{ label: "Co-agents' shares", how: `you keep ${pct(b.sharePct)} of the side`, amount: -b.othersCents }] : []),
    { label: "Referral fee", how: `${pct(terms.referralFeePct)} of ${b.sharePct < 100 ? "your share" : "gross"}`, amount: -b.referralCents },
    {
      label: "Brokerage split",
      how: b.capLimited
        ? `${pct(terms.brokerageSplitPct)} would be ${money(b.brokerageFullCents)}; only ${money(b.brokerageCents)} left to your cap`
        : `${pct(terms.brokerageSplitPct)} of what remains${capLeftCents === 0 ? " (capped: no split)" : ""}`,
      amount: -b.brokerageCents,
    },
    { label: "Team split", how: `${pct(terms.teamSplitPct)} of what remains`, amount: -b.teamCents },
    { label: "Transaction fee", how: "flat", amount: -b.transactionFeeCents },
    { label: "E&O fee", how: "flat", amount: -b.eoFeeCents },
    { label: "Franchise fee", how: `${pct(terms.franchiseFeePct)} of ${b.sharePct < 100 ? "your share" : "gross"}`, amount: -b.franchiseCents },
  ];
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-stone-600 dark:text-stone-400">
          <tr>
            <th scope="col" className="py-2 pr-2 font-medium">
              Line
            </th>
            <th scope="col" className="hidden py-2 pr-2 font-medium sm:table-cell">
              How
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="py-2 pr-2 font-normal">
                {row.label}
                <span className="block text-xs text-stone-600 sm:hidden dark:text-stone-400">{row.how}</span>
              </th>
              <td className="hidden py-2 pr-2 text-stone-600 sm:table-cell dark:text-stone-400">{row.how}</td>
              <td className="py-2 text-right tabular-nums">
                {row.amount === 0 ? money(0) : row.amount < 0 ? `−${money(-row.amount)}` : money(row.amount)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t-2 border-stone-300 dark:border-stone-600">
            <th scope="row" className="py-2 pr-2 text-base font-semibold">
              Agent net
            </th>
            <td className="hidden sm:table-cell" />
            <td className={`py-2 text-right text-base font-semibold tabular-nums ${b.netCents < 0 ? "text-red-700 dark:text-red-400" : ""}`}>
              {b.netCents < 0 ? `−${money(-b.netCents)}` : money(b.netCents)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
