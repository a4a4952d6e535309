import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { auditWhere } from "~/modules/audit/audit.server";
import { data } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData, useNavigate, type ShouldRevalidateFunction } from "@remix-run/react";
import { ArrowLeft, Pencil } from "lucide-react";
import { useRef } from "react";
import { DeleteSection } from "~/components/DeleteSection";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { ActivityTimeline } from "~/modules/activities/components/ActivityTimeline";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { CoAgentsPanel } from "~/modules/deals/components/CoAgentsPanel";
import { DealDialog, type DealDialogHandle } from "~/modules/deals/components/DealDialog";
import { DealDetailsSection, DealMoneySection, StageHistorySection } from "~/modules/deals/components/DealPageSections";
import { moveDealFromForm, saveDealFromForm } from "~/modules/deals/deal-actions.server";
import { DEAL_MESSAGES } from "~/modules/deals/deal.messages";
import { loadDealPage } from "~/modules/deals/deal-page.server";
import { trashDeal } from "~/modules/deals/deals.server";
import { removeShare, saveShare } from "~/modules/deals/shares.server";
import { TaskPanel } from "~/modules/tasks/components/TaskPanel";
import { useAnnounceTrashed, type TrashedResult } from "~/modules/trash/components/TrashUndo";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.deal.title} — Porchlight` : "Deal — Porchlight" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const page = await loadDealPage(context, user, params.id ?? "");
  // Someone else's deal and a deal that does not exist look the same.
  if (!page) throw new Response("Not Found", { status: 404 });
  return page;
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const form = await readForm(request);
  return dispatchIntent(form, {
    delete: async () => {
      // To the trash (ADR 0028). The page's script asks for the trash id to offer Undo; a plain form post is redirected.
      const trashId = await trashDeal(context, user.id, id, auditWhere(request));
      if (!trashId) throw new Response("Not Found", { status: 404 });
      if (form.get("reply") === "undo") return data({ ok: true, deleted: 1, trashIds: [trashId] });
      return redirectWithToast(context, "/pipeline", { title: DEAL_MESSAGES.deleted, variant: "success" });
    },
    update: () => saveDealFromForm(context, user.id, form, id),
    share: async () => {
      const saved = await saveShare(context, user, id, form);
      if (!saved.ok && saved.status === 404) throw new Response("Not Found", { status: 404 });
      return data(saved, { status: saved.ok ? 200 : saved.status });
    },
    unshare: async () => {
      if (!(await removeShare(context, user.id, id, String(form.get("agent") ?? "")))) throw new Response("Not Found", { status: 404 });
      return data({ ok: true });
    },
    move: () => {
      form.set("id", id);
      return moveDealFromForm(context, user.id, form);
    },
  });
}

// After a delete from this page the deal is gone: its loader would answer 404 while the page leaves for the pipeline.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "delete" ? false : defaultShouldRevalidate;

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

export default function DealPage() {
  const page = useLoaderData<typeof loader>();
  const { deal, stages, defaultRate, prefs, now, tasks, activity, sharing } = page;
  const dialog = useRef<DealDialogHandle>(null);
  const stage = stages.find((s) => s.key === deal.stage);
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
        <DealMoneySection page={page} className={card} />
        <DealDetailsSection page={page} className={card} />
        <StageHistorySection page={page} className={card} />

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
