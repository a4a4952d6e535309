import { Link, useFetcher } from "@remix-run/react";
import { History } from "lucide-react";
import { Fragment, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatCents, formatCentsWhole, formatDateTime, formatDay } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { CommissionBreakdown } from "~/modules/commissions/components/CommissionBreakdown";
import type { DealPage } from "../deal-page.server";
import type { DealMoveResult } from "../deal.messages";
import { SIDE_LABELS } from "../deal.schema";
import { ClosedDateField } from "./ClosedDateField";
import { useAnnounceClosedMove } from "./MoveUndo";

// The deal page's cards: what the deal pays, its details with the stage move, and its stage history.

/** What the deal pays (or paid, or would have paid): the rate, probability, cap left and the commission breakdown. */
export function DealMoneySection({ page, className }: { page: DealPage; className: string }) {
  const { deal, stages, breakdown, terms, capLeftCents, prefs } = page;
  const stage = stages.find((s) => s.key === deal.stage);
  const closed = stage?.kind !== "open";
  return (
    <section aria-labelledby="deal-money" className={className}>
      <h2 id="deal-money" className="font-semibold">
        {stage?.kind === "lost" ? "What it would have paid you" : closed ? "What it paid you" : "What it pays you"}
      </h2>
      {stage?.kind === "lost" ? <p className="mt-1 font-medium">The deal was lost, so it paid you nothing.</p> : null}
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {formatCentsWhole(deal.dealValueCents, prefs)} at {deal.commissionRate}%, probability {deal.probability}%
        {deal.probabilitySet ? " (set by you)" : " (the stage's)"}.
        {capLeftCents !== null && !closed ? ` Cap left this cap year after your closed deals: ${formatCents(capLeftCents, prefs)}.` : ""}
        {!closed ? ` Weighted net: ${formatCents(Math.round((breakdown.netCents * deal.probability) / 100), prefs)}.` : ""}
      </p>
      <div className="mt-3">
        <CommissionBreakdown
          breakdown={breakdown}
          terms={terms}
          prefs={prefs}
          capLeftCents={capLeftCents}
          caption={`Commission breakdown for ${deal.title}`}
        />
      </div>
      <p className="mt-2 text-sm">
        <Link to="/pipeline/commissions" className="underline underline-offset-4">
          Your commission plan and forecast
        </Link>
      </p>
    </section>
  );
}

/** The deal's side, property, dates and notes, and the form that moves it to another stage (a closed stage asks the day). */
export function DealDetailsSection({ page, className }: { page: DealPage; className: string }) {
  const { deal, stages, prefs, now } = page;
  const mover = useFetcher<DealMoveResult>();
  const closingTo = useRef<string | null>(null);
  const announceClosed = useAnnounceClosedMove();
  // A move into a closed stage: the toast says the day it closed and offers Undo.
  useFetcherResult(mover, (result) => {
    if (!result.ok || !result.from || !result.closedDate) return;
    const name = (key: string) => stages.find((s) => s.key === key)?.name ?? key;
    const to = closingTo.current;
    if (!to) return;
    announceClosed({
      dealId: deal.id,
      title: deal.title,
      toStage: to,
      toName: name(to),
      closedDate: result.closedDate,
      from: result.from,
      fromName: name(result.from.stage),
      action: `/deals/${deal.id}`,
      prefs,
    });
  });
  const [stageChoice, setStageChoice] = useState(deal.stage);
  const chosenStage = stages.find((s) => s.key === stageChoice);
  const dates: [string, string | null][] = [
    ["Expected close", deal.expectedCloseDate],
    ["Inspection", deal.inspectionDate],
    ["Appraisal", deal.appraisalDate],
    ["Financing", deal.financingDate],
    ["Closing", deal.closingDate],
    ["Closed", deal.closedDate],
  ];
  return (
    <section aria-labelledby="deal-details" className={className}>
      <h2 id="deal-details" className="font-semibold">
        Details
      </h2>
      <dl className="mt-2 grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-stone-600 dark:text-stone-400">Side</dt>
        <dd>{deal.side ? SIDE_LABELS[deal.side] : "—"}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Property</dt>
        <dd>{deal.propertyAddress ?? "—"}</dd>
        {dates.map(([label, day]) =>
          day ? (
            <Fragment key={label}>
              <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
              <dd>{formatDay(day, prefs)}</dd>
            </Fragment>
          ) : null,
        )}
        {deal.lostReason ? (
          <>
            <dt className="text-stone-600 dark:text-stone-400">Lost because</dt>
            <dd>{deal.lostReason}</dd>
          </>
        ) : null}
      </dl>
      {deal.notes ? <p className="mt-3 whitespace-pre-line text-sm">{deal.notes}</p> : null}

      <mover.Form
        method="post"
        className="mt-4 flex flex-wrap items-end gap-2"
        onSubmit={() => (closingTo.current = chosenStage && chosenStage.kind !== "open" ? chosenStage.key : null)}
      >
        <input type="hidden" name="intent" value="move" />
        <div className="min-w-44 flex-1">
          <SelectField
            label="Move to stage"
            name="stage"
            options={stages.map((s) => [s.key, s.name] as const)}
            value={stageChoice}
            onChange={(event) => setStageChoice(event.target.value)}
          />
        </div>
        {chosenStage && chosenStage.kind !== "open" && deal.stage !== stageChoice ? (
          <div className="w-full">
            <ClosedDateField today={now.date} />
          </div>
        ) : null}
        {chosenStage?.kind === "lost" && deal.stage !== stageChoice ? (
          <div className="w-full">
            <Field label="Why was it lost?" name="lostReason" required />
          </div>
        ) : null}
        <Button type="submit" variant="secondary" busy={mover.state !== "idle"} disabled={stageChoice === deal.stage}>
          Move
        </Button>
        {mover.data && !mover.data.ok ? (
          <p role="alert" className="w-full text-sm font-medium text-red-700 dark:text-red-400">
            {mover.data.error}
          </p>
        ) : null}
      </mover.Form>
    </section>
  );
}

/** Each stage move with its day and, for a lost deal, the reason. */
export function StageHistorySection({ page, className }: { page: DealPage; className: string }) {
  const { history, prefs } = page;
  return (
    <section aria-labelledby="deal-history" className={className}>
      <h2 id="deal-history" className="flex items-center gap-2 font-semibold">
        <History aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" /> Stage history
      </h2>
      {history.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No stage changes yet. Each move is recorded here.</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-2 text-sm">
          {history.map((h) => (
            <li key={h.id}>
              <span className="font-medium">
                {h.from} → {h.to}
              </span>{" "}
              <span className="text-stone-600 dark:text-stone-400">{formatDateTime(h.at, prefs)}</span>
              {h.reason ? <span className="block text-stone-700 dark:text-stone-300">Reason: {h.reason}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
