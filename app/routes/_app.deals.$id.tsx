import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData, useNavigate, type ShouldRevalidateFunction } from "@remix-run/react";
import { ArrowLeft, History, Pencil } from "lucide-react";
import { useRef, useState } from "react";
import { DeleteSection } from "~/components/DeleteSection";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatCents, formatCentsWhole, formatDateTime, formatDay } from "~/lib/format";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { termsFor } from "~/modules/commissions/plan.schema";
import { CommissionBreakdown } from "~/modules/commissions/components/CommissionBreakdown";
import { loadCommissionContext } from "~/modules/commissions/commissions.server";
import { DealDialog, type DealDialogHandle } from "~/modules/deals/components/DealDialog";
import { CoAgentsPanel } from "~/modules/deals/components/CoAgentsPanel";
import { coAgentsOf, removeShare, saveShare } from "~/modules/deals/shares.server";
import { moveDealFromForm, saveDealFromForm } from "~/modules/deals/deal-actions.server";
import { DEAL_MESSAGES, type DealMoveResult } from "~/modules/deals/deal.messages";
import { SIDE_LABELS } from "~/modules/deals/deal.schema";
import { ClosedDateField } from "~/modules/deals/components/ClosedDateField";
import { useAnnounceClosedMove } from "~/modules/deals/components/MoveUndo";
import { getDeal, stageHistory, trashDeal } from "~/modules/deals/deals.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { timeline } from "~/modules/activities/activities.server";
import { ActivityTimeline } from "~/modules/activities/components/ActivityTimeline";
import { TaskPanel } from "~/modules/tasks/components/TaskPanel";
import { localNow } from "~/modules/tasks/due";
import { tasksFor } from "~/modules/tasks/tasks.server";
import { readForm } from "~/lib/body.server";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { useAnnounceTrashed, type TrashedResult } from "~/modules/trash/components/TrashUndo";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.deal.title} — Porchlight` : "Deal — Porchlight" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const deal = await getDeal(context, user.id, params.id ?? "");
  // Someone else's deal and a deal that does not exist look the same.
  if (!deal) throw new Response("Not Found", { status: 404 });
  const [commissions, prefs, history, tasks, activity, sharing] = await Promise.all([
    loadCommissionContext(context, user.id),
    getDisplayPreferences(context, user.id),
    stageHistory(context, user.id, deal.id),
    tasksFor(context, user.id, { dealId: deal.id }),
    timeline(context, user.id, { dealId: deal.id }),
    coAgentsOf(context, user, deal.id),
  ]);
  const shares = sharing.coAgents.map((c) => c.sharePct);
  const { userId: _owner, position: _position, ...shown } = deal;
  const capDate =
    deal.closedDate ?? (deal.expectedCloseDate && deal.expectedCloseDate > commissions.today ? deal.expectedCloseDate : commissions.today);
  return {
    deal: shown,
    stages: commissions.stages,
    defaultRate: commissions.plan.defaultRate,
    breakdown: commissions.breakdownFor(deal),
    terms: termsFor(commissions.plan, { ...deal, coShares: shares }),
    // Co-agents are teammates: the panel shows on a team plan, or while shares made then remain.
    sharing:
      sharing.onTeam || sharing.coAgents.length > 0 ? { coAgents: sharing.coAgents, candidates: sharing.onTeam ? sharing.candidates : [] } : null,
    capLeftCents: commissions.capLeftOn(capDate),
    history: history.map((h) => ({
      id: h.id,
      at: h.occurredAt.toISOString(),
      from: String(h.meta?.fromName ?? ""),
      to: String(h.meta?.toName ?? ""),
      reason: h.meta?.lostReason ? String(h.meta.lostReason) : null,
    })),
    prefs,
    now: localNow(prefs.timezone),
    tasks,
    activity,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "delete") {
    // To the trash (ADR 0028). The page's script asks for the trash id to offer Undo; a plain form post is redirected.
    const trashId = await trashDeal(context, user.id, id);
    if (!trashId) throw new Response("Not Found", { status: 404 });
    if (form.get("reply") === "undo") return data({ ok: true, deleted: 1, trashIds: [trashId] });
    return redirectWithToast(context, "/pipeline", { title: DEAL_MESSAGES.deleted, variant: "success" });
  }
  if (intent === "update") return saveDealFromForm(context, user.id, form, id);
  if (intent === "share") {
    const saved = await saveShare(context, user, id, form);
    if (!saved.ok && saved.status === 404) throw new Response("Not Found", { status: 404 });
    return data(saved, { status: saved.ok ? 200 : saved.status });
  }
  if (intent === "unshare") {
    if (!(await removeShare(context, user.id, id, String(form.get("agent") ?? "")))) throw new Response("Not Found", { status: 404 });
    return data({ ok: true });
  }
  if (intent === "move") {
    form.set("id", id);
    return moveDealFromForm(context, user.id, form);
  }
  return data({ ok: false, error: "Unknown action." }, { status: 400 });
}

// After a delete from this page the deal is gone: its loader would answer 404 while the page leaves for the pipeline.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "delete" ? false : defaultShouldRevalidate;

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

export default function DealPage() {
  const { deal, stages, defaultRate, breakdown, terms, capLeftCents, history, prefs, now, tasks, activity, sharing } = useLoaderData<typeof loader>();
  const dialog = useRef<DealDialogHandle>(null);
  const stage = stages.find((s) => s.key === deal.stage);
  const closed = stage?.kind !== "open";
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
  // Deleting answers with the trash id: the pipeline then shows the toast with Undo.
  const remover = useFetcher<TrashedResult>();
  const announceTrashed = useAnnounceTrashed();
  const navigate = useNavigate();
  useFetcherResult(remover, (deleted) => {
    navigate("/pipeline");
    if (deleted.ok)
      announceTrashed(deleted, DEAL_MESSAGES.deleted, {
        title: "Undo failed",
        description: "The deal could not be restored. It is still in Settings → Trash.",
      });
    else toast({ title: "This deal was already deleted", variant: "destructive" });
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
    <>
      <Link to="/pipeline" className="mb-3 inline-flex min-h-11 items-center gap-2 font-medium underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-5 w-5" /> Back to pipeline
      </Link>
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{deal.title}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-stone-700 dark:text-stone-300">
            <span className="inline-flex items-center gap-1 rounded-full border border-stone-300 px-2 py-0.5 text-sm dark:border-stone-700">
              <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: stage?.color }} />
              {stage?.name ?? deal.stage}
            </span>
            {deal.contactId && deal.contactName ? (
              <Link to={`/contacts/${deal.contactId}`} className="underline underline-offset-4">
                {deal.contactName}
              </Link>
            ) : (
              <span className="text-sm">No contact linked</span>
            )}
          </p>
        </div>
        <Button type="button" variant="secondary" onClick={() => dialog.current?.open()}>
          <Pencil aria-hidden="true" className="h-5 w-5" /> Edit deal
        </Button>
      </header>
      {/* Keyed by the last save, so the form opens with what is stored now. */}
      <DealDialog key={String(deal.updatedAt)} ref={dialog} action={`/deals/${deal.id}`} stages={stages} defaultRate={defaultRate} deal={deal} />

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="deal-money" className={card}>
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

        <section aria-labelledby="deal-details" className={card}>
          <h2 id="deal-details" className="font-semibold">
            Details
          </h2>
          <dl className="mt-2 grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-stone-600 dark:text-stone-400">Side</dt>
            <dd>{deal.side ? SIDE_LABELS[deal.side] : "—"}</dd>
            <dt className="text-stone-600 dark:text-stone-400">Property</dt>
            <dd>{deal.propertyAddress ?? "—"}</dd>
            {dates.map(([label, day]) => (
              <DateRow key={label} label={label} day={day} prefs={prefs} />
            ))}
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

        <section aria-labelledby="deal-history" className={card}>
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

        {sharing ? <CoAgentsPanel dealId={deal.id} sharing={sharing} className={card} /> : null}

        <TaskPanel
          tasks={tasks}
          now={now}
          prefs={prefs}
          deal={{ id: deal.id, title: deal.title }}
          contact={deal.contactId && deal.contactName ? { id: deal.contactId, name: deal.contactName } : null}
        />
        <ActivityTimeline
          initial={activity}
          prefs={prefs}
          today={now.date}
          nowTime={now.time}
          deal={{ id: deal.id, title: deal.title }}
          contact={deal.contactId && deal.contactName ? { id: deal.contactId, name: deal.contactName } : null}
        />

        <DeleteSection
          id="deal-danger"
          title="Delete deal"
          question={`Delete ${deal.title}? It goes to the trash with its activities and stage history for 30 days: undo it from the message that follows, or restore it from Settings → Trash.`}
          className={card}
          busy={remover.state !== "idle"}
          onConfirm={() => remover.submit({ intent: "delete", reply: "undo" }, { method: "post", action: `/deals/${deal.id}` })}
        />
      </div>
    </>
  );
}

function DateRow({ label, day, prefs }: { label: string; day: string | null; prefs: Parameters<typeof formatDay>[1] }) {
  if (!day) return null;
  return (
    <>
      <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
      <dd>{formatDay(day, prefs)}</dd>
    </>
  );
}
