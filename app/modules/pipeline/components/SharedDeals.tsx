import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import type { SharedCard } from "../board";

/** "Shared with you": the deals teammates share with the agent, with their share and what it pays them. */
export function SharedDeals({ cards, prefs }: { cards: SharedCard[]; prefs: DisplayPreferences }) {
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby="shared-deals" className="mt-6">
      <h2 id="shared-deals" className="mb-1 text-lg font-semibold">
        Shared with you
      </h2>
      <p className="mb-3 text-sm text-stone-600 dark:text-stone-400">
        Deals a teammate shares with you. Your net is your share of the side, through your own plan and cap.
      </p>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card) => (
          <li key={card.id} className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
            <p className="font-medium">{card.title}</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {card.ownerName}'s deal · {card.stageName}
            </p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-stone-600 dark:text-stone-400">Value</dt>
              <dd className="text-right tabular-nums">{formatCentsWhole(card.dealValueCents, prefs)}</dd>
              <dt className="text-stone-600 dark:text-stone-400">Your share</dt>
              <dd className="text-right tabular-nums">{card.sharePct}% of the side</dd>
              <dt className="text-stone-600 dark:text-stone-400">{card.kind === "open" ? "Closes" : "Closed"}</dt>
              <dd className="text-right">
                {card.kind === "open"
                  ? card.expectedCloseDate
                    ? formatDay(card.expectedCloseDate, prefs)
                    : "—"
                  : card.closedDate
                    ? formatDay(card.closedDate, prefs)
                    : "—"}
              </dd>
              <dt className="text-stone-600 dark:text-stone-400">Your net</dt>
              <dd className="text-right font-medium tabular-nums">
                {card.netCents === null ? "None, the deal was lost" : formatCents(card.netCents, prefs)}
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
