import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Calculator, KanbanSquare, Plus, Settings2 } from "lucide-react";
import { useRef } from "react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { parseMoneyToCents } from "~/lib/schema-fields";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { DealDialog, type DealDialogHandle } from "~/modules/deals/components/DealDialog";
import { moveDealFromForm, saveDealFromForm } from "~/modules/deals/deal-actions.server";
import { DEAL_SORTS, type DealSort } from "~/modules/deals/deal.schema";
import { listDeals } from "~/modules/deals/deals.server";
import { loadBoard, sharedCards, toBoardCard } from "~/modules/pipeline/board.server";
import { getContact } from "~/modules/contacts/contacts.server";
import { PIPELINE_ACTION } from "~/modules/pipeline/board";
import { DealList } from "~/modules/pipeline/components/DealList";
import { KanbanBoard } from "~/modules/pipeline/components/KanbanBoard";
import { SharedDeals } from "~/modules/pipeline/components/SharedDeals";
import { ViewSwitch, type PipelineView } from "~/modules/pipeline/components/ViewSwitch";
import { useOpenFromParam } from "~/modules/palette/components/OpenFromParam";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Pipeline — Porchlight" }];
export const handle = { wide: true };
export const headers = serverTimingHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const started = Date.now();
  const params = new URL(request.url).searchParams;
  const view: PipelineView = params.get("view") === "list" ? "list" : "board";
  const expand = params.get("expand");
  const { commissions, prefs, totals, cards, empty, today } = await loadBoard(context, user.id, { cards: view === "board", expand });
  const base = {
    view,
    stages: commissions.stages,
    totals,
    prefs,
    today,
    defaultRate: commissions.plan.defaultRate,
    empty,
    shared: sharedCards(commissions),
  };
  if (view === "list") {
    const sort = (DEAL_SORTS as readonly string[]).includes(params.get("sort") ?? "") ? (params.get("sort") as DealSort) : "close";
    const money = (key: string) => (params.get(key) ? (parseMoneyToCents(params.get(key)!) ?? undefined) : undefined);
    const month = /^\d{4}-\d{2}$/.test(params.get("month") ?? "") ? params.get("month")! : undefined;
    const contactId = params.get("contactId") || undefined;
    const [{ deals, total }, contact] = await Promise.all([
      listDeals(
        context,
        user.id,
        { stage: params.get("stage") || undefined, month, contactId, minCents: money("min"), maxCents: money("max") },
        sort,
      ),
      contactId ? getContact(context, user.id, contactId) : Promise.resolve(null),
    ]);
    return data(
      {
        ...base,
        cards: deals.map((deal) => toBoardCard(commissions, deal)),
        total,
        contact: contact ? { id: contact.id, name: contact.name } : null,
      },
      { headers: serverTiming("pipeline", started) },
    );
  }
  return data(
    { ...base, cards, total: cards.length, contact: null as { id: string; name: string } | null },
    { headers: serverTiming("pipeline", started) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, {
    create: () => saveDealFromForm(context, user.id, form, null),
    move: () => moveDealFromForm(context, user.id, form),
  });
}

export default function PipelinePage() {
  const loaded = useLoaderData<typeof loader>();
  const dialog = useRef<DealDialogHandle>(null);
  const [params] = useSearchParams();
  // /pipeline?new=deal (the command palette's "New deal") opens the create dialog.
  useOpenFromParam("deal", () => dialog.current?.open());
  const listHref = (view: "board" | "list") => (view === "list" ? "?view=list" : "?");
  return (
    <>
      <PageHeader title="Pipeline" description="Your deals by stage, with what each one pays you." actions={<GuideButton page="pipeline" />} />
      <div data-tour="new-deal" className="mb-4 flex flex-wrap items-center gap-2">
        <Button type="button" onClick={() => dialog.current?.open()}>
          <Plus aria-hidden="true" className="h-5 w-5" /> New deal
        </Button>
        <ViewSwitch view={loaded.view} href={listHref} />
        <Link to="/pipeline/commissions" className={buttonClass("secondary")}>
          <Calculator aria-hidden="true" className="h-5 w-5" /> Forecast and commissions
        </Link>
        <Link to="/pipeline/stages" className={buttonClass("ghost")}>
          <Settings2 aria-hidden="true" className="h-5 w-5" /> Stage settings
        </Link>
      </div>
      <DealDialog ref={dialog} action={PIPELINE_ACTION} stages={loaded.stages} defaultRate={loaded.defaultRate} />
      {loaded.empty && loaded.shared.length > 0 ? (
        <p className="rounded-xl border border-stone-200 bg-white p-3 text-sm dark:border-stone-800 dark:bg-stone-900">
          You have no deals of your own yet. Select <strong>New deal</strong> to add one; the deals teammates share with you are below.
        </p>
      ) : loaded.empty ? (
        <EmptyState icon={KanbanSquare} title="No deals yet">
          <p>Create your first deal: pick the contact, the stage and the price, and Porchlight works out what it pays you after splits and fees.</p>
          <p className="mt-2">
            <Link to="/guides/pipeline-setup" className="underline underline-offset-4">
              How the pipeline works
            </Link>
          </p>
        </EmptyState>
      ) : loaded.view === "board" ? (
        <KanbanBoard stages={loaded.stages} cards={loaded.cards} totals={loaded.totals} prefs={loaded.prefs} today={loaded.today} />
      ) : (
        <DealList cards={loaded.cards} total={loaded.total} stages={loaded.stages} prefs={loaded.prefs} params={params} contact={loaded.contact} />
      )}
      <SharedDeals cards={loaded.shared} prefs={loaded.prefs} />
    </>
  );
}
