import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import { Calculator, KanbanSquare, Plus, Settings2 } from "lucide-react";
import { useRef } from "react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import { parseMoneyToCents } from "~/lib/schema-fields";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { ContactPicker } from "~/modules/deals/components/ContactPicker";
import { DealDialog, type DealDialogHandle } from "~/modules/deals/components/DealDialog";
import { moveDealFromForm, saveDealFromForm } from "~/modules/deals/deal-actions.server";
import { DEAL_SORTS, LIST_LIMIT, type DealSort } from "~/modules/deals/deal.schema";
import { listDeals } from "~/modules/deals/deals.server";
import { loadBoard, sharedCards, toBoardCard } from "~/modules/pipeline/board.server";
import { getContact } from "~/modules/contacts/contacts.server";
import { PIPELINE_ACTION, type BoardCard } from "~/modules/pipeline/board";
import { KanbanBoard } from "~/modules/pipeline/components/KanbanBoard";
import { SharedDeals } from "~/modules/pipeline/components/SharedDeals";
import { ViewSwitch, type PipelineView } from "~/modules/pipeline/components/ViewSwitch";
import { useOpenFromParam } from "~/modules/palette/components/OpenFromParam";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { readForm } from "~/lib/body.server";

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
  const base = { view, stages: commissions.stages, totals, prefs, today, defaultRate: commissions.plan.defaultRate, empty, shared: sharedCards(commissions) };
  if (view === "list") {
    const sort = (DEAL_SORTS as readonly string[]).includes(params.get("sort") ?? "") ? (params.get("sort") as DealSort) : "close";
    const money = (key: string) => (params.get(key) ? (parseMoneyToCents(params.get(key)!) ?? undefined) : undefined);
    const month = /^\d{4}-\d{2}$/.test(params.get("month") ?? "") ? params.get("month")! : undefined;
    const contactId = params.get("contactId") || undefined;
    const [{ deals, total }, contact] = await Promise.all([
      listDeals(context, user.id, { stage: params.get("stage") || undefined, month, contactId, minCents: money("min"), maxCents: money("max") }, sort),
      contactId ? getContact(context, user.id, contactId) : Promise.resolve(null),
    ]);
    return data({ ...base, cards: deals.map((deal) => toBoardCard(commissions, deal)), total, contact: contact ? { id: contact.id, name: contact.name } : null }, { headers: serverTiming("pipeline", started) });
  }
  return data({ ...base, cards, total: cards.length, contact: null as { id: string; name: string } | null }, { headers: serverTiming("pipeline", started) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "create") return saveDealFromForm(context, user.id, form, null);
  if (intent === "move") return moveDealFromForm(context, user.id, form);
  return data({ ok: false, error: "Unknown action." }, { status: 400 });
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

const SORT_LABELS: Record<DealSort, string> = { close: "Close date", value: "Value", title: "Title", newest: "Newest", probability: "Probability" };

function DealList({
  cards,
  total,
  stages,
  prefs,
  params,
  contact,
}: {
  cards: BoardCard[];
  total: number;
  stages: { key: string; name: string; color: string }[];
  prefs: DisplayPreferences;
  params: URLSearchParams;
  contact: { id: string; name: string } | null;
}) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const stageOf = (key: string) => stages.find((s) => s.key === key);
  return (
    <>
      <Form
        ref={formRef}
        method="get"
        role="search"
        aria-label="Filter deals"
        className="mb-4 grid grid-cols-2 gap-2 rounded-2xl border border-stone-200 bg-white p-3 sm:grid-cols-3 lg:grid-cols-6 dark:border-stone-800 dark:bg-stone-900"
        onChange={(event) => {
          const form = event.currentTarget;
          if (event.target instanceof HTMLElement && event.target.getAttribute("role") === "combobox") return; // the picker reports its choice itself
          clearTimeout(timer.current);
          timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), event.target instanceof HTMLInputElement ? 400 : 0);
        }}
      >
        <input type="hidden" name="view" value="list" />
        <SelectField label="Stage" name="stage" options={stages.map((s) => [s.key, s.name] as const)} defaultValue={params.get("stage") ?? ""} placeholder={{ label: "Any" }} />
        <Field label="Closes in" name="month" type="month" defaultValue={params.get("month") ?? ""} />
        <div className="col-span-2">
          <ContactPicker key={contact?.id ?? ""} name="contactId" initial={contact} onPick={() => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true })} />
        </div>
        <Field label="Value from" name="min" inputMode="decimal" defaultValue={params.get("min") ?? ""} />
        <Field label="Value to" name="max" inputMode="decimal" defaultValue={params.get("max") ?? ""} />
        <SelectField label="Sort by" name="sort" options={DEAL_SORTS.map((s) => [s, SORT_LABELS[s]] as const)} defaultValue={params.get("sort") ?? "close"} />
      </Form>
      <p className="mb-2 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
        {total === 0 ? "No deals match." : total > cards.length ? `Showing the first ${LIST_LIMIT} of ${total} deals. Narrow the filters to see the rest.` : `${total} ${total === 1 ? "deal" : "deals"}`}
      </p>
      {cards.length > 0 ? (
        <div className="relative overflow-x-auto rounded-2xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
          <table className="w-full text-left text-sm">
            <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
              <tr>
                <th scope="col" className="px-3 py-2">Deal</th>
                <th scope="col" className="px-3 py-2">Stage</th>
                <th scope="col" className="px-3 py-2 text-right">Value</th>
                <th scope="col" className="hidden px-3 py-2 sm:table-cell">Close</th>
                <th scope="col" className="hidden px-3 py-2 text-right md:table-cell">Probability</th>
                <th scope="col" className="px-3 py-2 text-right">Agent net</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
              {cards.map((card) => (
                <tr key={card.id}>
                  <td className="px-3 py-2">
                    <Link to={`/deals/${card.id}`} className="font-medium underline-offset-4 hover:underline">
                      {card.title}
                    </Link>
                    {card.contactName ? <div className="text-xs text-stone-600 dark:text-stone-400">{card.contactName}</div> : null}
                  </td>
                  <td className="px-3 py-2">
                    <span className="inline-flex items-center gap-1">
                      <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: stageOf(card.stage)?.color }} />
                      {stageOf(card.stage)?.name ?? card.stage}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatCentsWhole(card.dealValueCents, prefs)}</td>
                  <td className="hidden px-3 py-2 sm:table-cell">{card.closedDate ? `Closed ${formatDay(card.closedDate, prefs)}` : card.expectedCloseDate ? formatDay(card.expectedCloseDate, prefs) : "—"}</td>
                  <td className="hidden px-3 py-2 text-right md:table-cell">{card.probability}%</td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {card.netCents === null ? (
                      <>
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">None, the deal was lost</span>
                      </>
                    ) : (
                      formatCents(card.netCents, prefs)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
