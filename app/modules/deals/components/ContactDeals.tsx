import { Link } from "@remix-run/react";
import { Handshake, Plus } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/Button";
import type { DealStage } from "~/db/schema";
import { formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import { PIPELINE_ACTION } from "~/modules/pipeline/board";
import { DealDialog, type DealDialogHandle } from "./DealDialog";

interface ContactDeal {
  id: string;
  title: string;
  stage: string;
  dealValueCents: number;
  expectedCloseDate: string | null;
  closedDate: string | null;
}

/** A contact's deals on their page: each with its stage, value and closing date, and New deal for this contact. */
export function ContactDeals({
  deals,
  stages,
  prefs,
  defaultRate,
  contact,
  className,
}: {
  deals: ContactDeal[];
  stages: DealStage[];
  prefs: DisplayPreferences;
  defaultRate: number;
  contact: { id: string; name: string };
  className: string;
}) {
  const dealDialog = useRef<DealDialogHandle>(null);
  return (
    <section aria-labelledby="contact-deals" className={className}>
      <div className="flex items-center justify-between gap-2">
        <h2 id="contact-deals" className="flex items-center gap-2 font-semibold">
          <Handshake aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
          Deals
        </h2>
        <Button type="button" variant="secondary" onClick={() => dealDialog.current?.open()}>
          <Plus aria-hidden="true" className="h-5 w-5" /> New deal
        </Button>
      </div>
      {deals.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No deals with {contact.name} yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
          {deals.map((deal) => {
            const stage = stages.find((s) => s.key === deal.stage);
            return (
              <li key={deal.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link to={`/deals/${deal.id}`} className="font-medium underline-offset-4 hover:underline">
                  {deal.title}
                </Link>
                <span className="flex items-center gap-2 text-sm text-stone-700 dark:text-stone-300">
                  <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: stage?.color }} />
                  {stage?.name ?? deal.stage} · {formatCentsWhole(deal.dealValueCents, prefs)}
                  {deal.closedDate
                    ? ` · closed ${formatDay(deal.closedDate, prefs)}`
                    : deal.expectedCloseDate
                      ? ` · closes ${formatDay(deal.expectedCloseDate, prefs)}`
                      : ""}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <DealDialog
        ref={dealDialog}
        action={PIPELINE_ACTION}
        stages={stages}
        defaultRate={defaultRate}
        contact={{ id: contact.id, name: contact.name }}
      />
    </section>
  );
}
