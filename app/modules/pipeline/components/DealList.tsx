import { Form, Link, useSubmit } from "@remix-run/react";
import { ChevronDown, SlidersHorizontal } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import { ContactPicker } from "~/modules/deals/components/ContactPicker";
import { DEAL_SORTS, LIST_LIMIT, type DealSort } from "~/modules/deals/deal.schema";
import type { BoardCard } from "../board";

const SORT_LABELS: Record<DealSort, string> = { close: "Close date", value: "Value", title: "Title", newest: "Newest", probability: "Probability" };
/** The list's filters (the sort is not one): how many are set is what the phone's disclosure says. */
const FILTER_KEYS = ["stage", "month", "contactId", "min", "max"] as const;

/** A deal's close as the list shows it: the day a closed deal closed, else the day an open one is expected to. */
const closeText = (card: BoardCard, prefs: DisplayPreferences) =>
  card.closedDate ? `Closed ${formatDay(card.closedDate, prefs)}` : card.expectedCloseDate ? formatDay(card.expectedCloseDate, prefs) : null;

/**
 * The pipeline as a list: filters and sort, then the deals. On a phone the filters fold into a disclosure that says
 * how many are set, so the first deal is on the first screen, and the table keeps Deal, Value and Agent net (the stage
 * and close date go under the deal's title).
 */
export function DealList({
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
  const active = FILTER_KEYS.filter((key) => params.get(key)).length;
  const [open, setOpen] = useState(false);
  const formId = useId();
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((was) => !was)}
        className="mb-2 flex min-h-12 w-full items-center gap-2 rounded-xl border border-stone-300 bg-white px-3 text-left font-medium md:hidden dark:border-stone-700 dark:bg-stone-900"
      >
        <SlidersHorizontal aria-hidden="true" className="h-5 w-5 shrink-0" />
        <span className="flex-1">
          Filters and sort{" "}
          <span className="font-normal text-stone-600 dark:text-stone-400">
            ({active === 0 ? "no filter on" : `${active} ${active === 1 ? "filter" : "filters"} on`})
          </span>
        </span>
        <ChevronDown aria-hidden="true" className={`h-5 w-5 shrink-0 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <Form
        ref={formRef}
        id={formId}
        method="get"
        role="search"
        aria-label="Filter deals"
        className={`${open ? "grid" : "hidden"} mb-4 grid-cols-2 gap-2 rounded-2xl border border-stone-200 bg-white p-3 sm:grid-cols-3 md:grid lg:grid-cols-6 dark:border-stone-800 dark:bg-stone-900`}
        onChange={(event) => {
          const form = event.currentTarget;
          if (event.target instanceof HTMLElement && event.target.getAttribute("role") === "combobox") return; // the picker reports its choice itself
          clearTimeout(timer.current);
          timer.current = setTimeout(
            () => submit(form, { replace: true, preventScrollReset: true }),
            event.target instanceof HTMLInputElement ? 400 : 0,
          );
        }}
      >
        <input type="hidden" name="view" value="list" />
        <SelectField
          label="Stage"
          name="stage"
          options={stages.map((s) => [s.key, s.name] as const)}
          defaultValue={params.get("stage") ?? ""}
          placeholder={{ label: "Any" }}
        />
        <Field label="Closes in" name="month" type="month" defaultValue={params.get("month") ?? ""} />
        <div className="col-span-2">
          <ContactPicker
            key={contact?.id ?? ""}
            name="contactId"
            initial={contact}
            onPick={() => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true })}
          />
        </div>
        <Field label="Value from" name="min" inputMode="decimal" defaultValue={params.get("min") ?? ""} />
        <Field label="Value to" name="max" inputMode="decimal" defaultValue={params.get("max") ?? ""} />
        <SelectField
          label="Sort by"
          name="sort"
          options={DEAL_SORTS.map((s) => [s, SORT_LABELS[s]] as const)}
          defaultValue={params.get("sort") ?? "close"}
        />
      </Form>
      <p className="mb-2 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
        {total === 0
          ? "No deals match."
          : total > cards.length
            ? `Showing the first ${LIST_LIMIT} of ${total} deals. Narrow the filters to see the rest.`
            : `${total} ${total === 1 ? "deal" : "deals"}`}
      </p>
      {cards.length > 0 ? (
        <div className="relative overflow-x-auto rounded-2xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
          <table className="w-full text-left text-sm">
            <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Deal
                </th>
                <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                  Stage
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Value
                </th>
                <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                  Close
                </th>
                <th scope="col" className="hidden px-3 py-2 text-right md:table-cell">
                  Probability
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Agent net
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
              {cards.map((card) => {
                const stage = stageOf(card.stage);
                const close = closeText(card, prefs);
                const stageBadge = (
                  <span className="inline-flex items-center gap-1">
                    <span aria-hidden="true" className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ backgroundColor: stage?.color }} />
                    {stage?.name ?? card.stage}
                  </span>
                );
                return (
                  <tr key={card.id}>
                    <td className="px-3 py-2">
                      <Link to={`/deals/${card.id}`} className="font-medium underline-offset-4 hover:underline">
                        {card.title}
                      </Link>
                      {card.contactName ? <div className="text-xs text-stone-600 dark:text-stone-400">{card.contactName}</div> : null}
                      {/* On a phone the stage and close columns are hidden: their facts go here. */}
                      <div className="mt-1 flex flex-wrap gap-x-2 text-xs text-stone-600 sm:hidden dark:text-stone-400">
                        {stageBadge}
                        {close ? <span>{close}</span> : null}
                      </div>
                    </td>
                    <td className="hidden px-3 py-2 sm:table-cell">{stageBadge}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCentsWhole(card.dealValueCents, prefs)}</td>
                    <td className="hidden px-3 py-2 sm:table-cell">{close ?? "—"}</td>
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
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
