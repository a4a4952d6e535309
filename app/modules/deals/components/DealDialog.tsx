import { useFetcher } from "@remix-run/react";
import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { Modal } from "~/components/ui/Modal";
import { SELECT_CLASS, SelectField } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { SubmissionKey } from "~/modules/sync/components/SubmissionKey";
import { DEAL_SIDES } from "~/db/enums";
import type { Deal, DealStage } from "~/db/schema";
import { DEAL_MESSAGES } from "../deal.messages";
import { centsToInput, SIDE_LABELS, type DealSaveResult } from "../deal.schema";
import { ContactPicker } from "./ContactPicker";

export interface DealDialogHandle {
  open(): void;
}

export type EditableDeal = Omit<Deal, "userId" | "position" | "createdAt" | "updatedAt" | "stageChangedAt"> & { contactName: string | null };

/** Create deal (no `deal`) or edit deal. Every field of a deal; blank rate/probability/overrides mean the plan's and the stage's. */
export const DealDialog = forwardRef<
  DealDialogHandle,
  { action: string; stages: DealStage[]; defaultRate: number; deal?: EditableDeal; contact?: { id: string; name: string }; initialStage?: string }
>(function DealDialog({ action, stages, defaultRate, deal, contact, initialStage }, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  const save = useFetcher<DealSaveResult>();
  const [formKey, setFormKey] = useState(0);
  const [stageKey, setStageKey] = useState(deal?.stage ?? initialStage ?? stages[0]?.key ?? "");
  const [required, setRequired] = useState({ title: deal?.title ?? "", value: deal ? centsToInput(deal.dealValueCents) : "" });
  useImperativeHandle(ref, () => ({ open: () => dialog.current?.showModal() }), []);
  const stage = stages.find((s) => s.key === stageKey);
  const saving = save.state !== "idle";
  const errors = save.data && !save.data.ok ? save.data.fieldErrors : {};
  const editing = Boolean(deal);

  useFetcherResult(save, (result) => {
    if (result.ok) {
      dialog.current?.close();
      if (!editing) {
        setFormKey((k) => k + 1);
        setRequired({ title: "", value: "" });
      }
      toast({
        title: editing ? DEAL_MESSAGES.updated : DEAL_MESSAGES.created,
        description: result.deal.title,
        variant: "success",
        actions: editing ? undefined : [{ label: "View deal", altText: "Open the new deal", href: `/deals/${encodeURIComponent(result.deal.id)}` }],
      });
    } else {
      toast({ title: DEAL_MESSAGES.validationTitle, description: result.error, variant: "destructive" });
    }
  });

  const d = deal;
  const id = deal ? `deal-${deal.id}` : "new-deal";
  return (
    <Modal ref={dialog} id={id} title={editing ? "Edit deal" : "Create deal"} wide>
      <save.Form
        key={formKey}
        method="post"
        action={action}
        noValidate
        className="grid gap-4 sm:grid-cols-2"
        onChange={(event) => {
          const data = new FormData(event.currentTarget);
          setRequired({ title: String(data.get("title") ?? ""), value: String(data.get("dealValueCents") ?? "") });
        }}
      >
        <input type="hidden" name="intent" value={editing ? "update" : "create"} />
        {editing ? null : <SubmissionKey name="create-deal" answer={save.data} />}
        <div className="sm:col-span-2">
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- focus moves into the dialog the agent just opened */}
          <Field label="Title" name="title" defaultValue={d?.title} placeholder="e.g. 12 Oak St purchase" required error={errors.title} autoFocus />
        </div>
        <div className="sm:col-span-2">
          <ContactPicker
            name="contactId"
            initial={d?.contactId && d.contactName ? { id: d.contactId, name: d.contactName } : (contact ?? null)}
            error={errors.contactId}
          />
        </div>
        <SelectField
          label="Stage"
          name="stage"
          options={stages.map((s) => [s.key, s.name] as const)}
          value={stageKey}
          onChange={(event) => setStageKey(event.target.value)}
          error={errors.stage}
        />
        <Field
          label="Deal value (sale price)"
          name="dealValueCents"
          inputMode="decimal"
          defaultValue={d ? centsToInput(d.dealValueCents) : ""}
          placeholder="650,000"
          required
          error={errors.dealValueCents}
        />
        <Field
          label="Commission rate (%)"
          name="commissionRate"
          inputMode="decimal"
          defaultValue={d ? String(d.commissionRate) : ""}
          placeholder={`Your plan: ${defaultRate}`}
          error={errors.commissionRate}
        />
        <Field
          label="Probability (%)"
          name="probability"
          inputMode="numeric"
          defaultValue={d?.probabilitySet ? String(d.probability) : ""}
          placeholder={stage ? `Stage default: ${stage.probability}` : ""}
          hint="Leave blank to follow the stage."
          error={errors.probability}
        />
        <Field
          label="Expected close date"
          name="expectedCloseDate"
          type="date"
          defaultValue={d?.expectedCloseDate ?? ""}
          error={errors.expectedCloseDate}
        />
        {stage && stage.kind !== "open" ? (
          <Field
            label="Closed date"
            name="closedDate"
            type="date"
            defaultValue={d?.closedDate ?? ""}
            hint="Blank: today."
            error={errors.closedDate}
          />
        ) : null}
        {stage?.kind === "lost" ? (
          <div className="sm:col-span-2">
            <Field label="Why was it lost?" name="lostReason" defaultValue={d?.lostReason ?? ""} required error={errors.lostReason} />
          </div>
        ) : null}

        <details
          className="rounded-xl border border-stone-200 p-3 sm:col-span-2 dark:border-stone-800"
          open={editing && Boolean(d?.side || d?.propertyAddress || d?.closingDate)}
        >
          <summary className="min-h-10 cursor-pointer content-center font-medium">Property and key dates</summary>
          <div className="grid gap-4 pt-3 sm:grid-cols-2">
            <SelectField
              label="Side"
              name="side"
              options={DEAL_SIDES.map((s) => [s, SIDE_LABELS[s]] as const)}
              defaultValue={d?.side ?? ""}
              placeholder={{ label: "Not set" }}
              error={errors.side}
            />
            <Field
              label="Property address"
              name="propertyAddress"
              defaultValue={d?.propertyAddress ?? ""}
              autoComplete="street-address"
              error={errors.propertyAddress}
            />
            <Field label="Inspection" name="inspectionDate" type="date" defaultValue={d?.inspectionDate ?? ""} error={errors.inspectionDate} />
            <Field label="Appraisal" name="appraisalDate" type="date" defaultValue={d?.appraisalDate ?? ""} error={errors.appraisalDate} />
            <Field label="Financing" name="financingDate" type="date" defaultValue={d?.financingDate ?? ""} error={errors.financingDate} />
            <Field label="Closing" name="closingDate" type="date" defaultValue={d?.closingDate ?? ""} error={errors.closingDate} />
          </div>
        </details>

        <details
          className="rounded-xl border border-stone-200 p-3 sm:col-span-2 dark:border-stone-800"
          open={
            editing &&
            [d?.referralFeePct, d?.brokerageSplitPct, d?.teamSplitPct, d?.transactionFeeCents, d?.eoFeeCents, d?.franchiseFeePct].some(
              (v) => v !== null && v !== undefined,
            )
          }
        >
          <summary className="min-h-10 cursor-pointer content-center font-medium">Commission overrides for this deal</summary>
          <p className="pt-2 text-sm text-stone-600 dark:text-stone-400">Blank fields use your commission plan.</p>
          <div className="grid gap-4 pt-3 sm:grid-cols-2">
            <Field
              label="Referral fee (%)"
              name="referralFeePct"
              inputMode="decimal"
              defaultValue={d?.referralFeePct ?? ""}
              error={errors.referralFeePct}
            />
            <Field
              label="Brokerage split (%)"
              name="brokerageSplitPct"
              inputMode="decimal"
              defaultValue={d?.brokerageSplitPct ?? ""}
              error={errors.brokerageSplitPct}
            />
            <Field label="Team split (%)" name="teamSplitPct" inputMode="decimal" defaultValue={d?.teamSplitPct ?? ""} error={errors.teamSplitPct} />
            <Field
              label="Transaction fee"
              name="transactionFeeCents"
              inputMode="decimal"
              defaultValue={centsToInput(d?.transactionFeeCents)}
              error={errors.transactionFeeCents}
            />
            <Field label="E&O fee" name="eoFeeCents" inputMode="decimal" defaultValue={centsToInput(d?.eoFeeCents)} error={errors.eoFeeCents} />
            <Field
              label="Franchise fee (%)"
              name="franchiseFeePct"
              inputMode="decimal"
              defaultValue={d?.franchiseFeePct ?? ""}
              error={errors.franchiseFeePct}
            />
          </div>
        </details>

        <div className="sm:col-span-2">
          <FieldShell id={`${id}-notes`} label="Notes" error={errors.notes}>
            <textarea name="notes" rows={3} defaultValue={d?.notes ?? ""} className={`${SELECT_CLASS} py-2`} />
          </FieldShell>
        </div>
        <div className="flex flex-wrap justify-end gap-3 sm:col-span-2">
          <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button type="submit" busy={saving} busyLabel="Saving…" disabled={!required.title.trim() || !required.value.trim()}>
            {editing ? "Save deal" : "Create deal"}
          </Button>
        </div>
      </save.Form>
    </Modal>
  );
});
