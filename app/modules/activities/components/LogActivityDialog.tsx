import { useFetcher } from "@remix-run/react";
import { forwardRef, useId, useImperativeHandle, useRef, useState } from "react";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { choices, SELECT_CLASS, SelectField } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import type { ActionResult } from "~/lib/action-result";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { SubmissionKey } from "~/modules/sync/components/SubmissionKey";
import { ContactPicker } from "~/modules/deals/components/ContactPicker";
import { localNow } from "~/modules/tasks/due";
import { ACTIVITIES_ACTION, ACTIVITY_OUTCOME_SUGGESTIONS, ACTIVITY_TYPE_LABELS, LOGGABLE_ACTIVITY_TYPES } from "../activity.schema";

export interface LogActivityHandle {
  open(): void;
}

/** Log a call, e-mail, showing, meeting… on a contact and/or deal, at a date and time in the user's timezone. */
export const LogActivityDialog = forwardRef<
  LogActivityHandle,
  { contact: { id: string; name: string } | null; deal: { id: string; title: string } | null; today: string; nowTime: string; timezone: string }
>(function LogActivityDialog({ contact, deal, today, nowTime, timezone }, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  const save = useFetcher<ActionResult>();
  const [key, setKey] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const listId = useId();
  useImperativeHandle(ref, () => ({
    open: () => {
      // It opens at now in the agent's timezone, not at the minute the page loaded (the rest of an unsaved entry stays).
      const now = localNow(timezone);
      const fields = form.current?.elements;
      const date = fields?.namedItem("date");
      const time = fields?.namedItem("time");
      if (date instanceof HTMLInputElement) date.value = now.date;
      if (time instanceof HTMLInputElement) time.value = now.time;
      dialog.current?.showModal();
    },
  }));
  const errors = save.data && !save.data.ok ? (save.data.fieldErrors ?? {}) : {};
  useFetcherResult(save, (result) => {
    if (result.ok) {
      dialog.current?.close();
      setKey((k) => k + 1);
      toast({ title: "Activity logged", variant: "success" });
    } else toast({ title: "Please check the activity", description: result.error, variant: "destructive" });
  });
  return (
    <Modal ref={dialog} id="log-activity" title="Log activity">
      <save.Form ref={form} key={key} method="post" action={ACTIVITIES_ACTION} noValidate className="grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="log" />
        {/* The date and time fill in when the dialog opens: the same activity sent again after a reload is the same one. */}
        <SubmissionKey name="log-activity" answer={save.data} ignore={["date", "time"]} />
        {deal ? <input type="hidden" name="dealId" value={deal.id} /> : null}
        <div className="sm:col-span-2">
          <SelectField
            label="What happened"
            name="type"
            options={choices(LOGGABLE_ACTIVITY_TYPES, ACTIVITY_TYPE_LABELS)}
            defaultValue="call"
            error={errors.type}
          />
        </div>
        {deal ? (
          <p className="text-sm sm:col-span-2">
            Deal: <span className="font-medium">{deal.title}</span>
            {contact ? ` · ${contact.name}` : ""}
          </p>
        ) : (
          <div className="sm:col-span-2">
            <ContactPicker name="contactId" initial={contact} error={errors.contactId} />
          </div>
        )}
        <Field label="Date" name="date" type="date" defaultValue={today} required error={errors.date} />
        <Field label="Time" name="time" type="time" defaultValue={nowTime} error={errors.time} />
        <div className="sm:col-span-2">
          <Field label="Outcome (optional)" name="outcome" list={listId} maxLength={200} placeholder="e.g. Left voicemail" error={errors.outcome} />
          <datalist id={listId}>
            {ACTIVITY_OUTCOME_SUGGESTIONS.map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
        </div>
        <div className="sm:col-span-2">
          <FieldShell id="log-activity-notes" label="Notes (optional)" error={errors.notes}>
            <textarea id="log-activity-notes" name="notes" rows={3} maxLength={5000} className={`${SELECT_CLASS} py-2`} />
          </FieldShell>
        </div>
        <ModalActions className="sm:col-span-2" submitLabel="Log activity" busy={save.state !== "idle"} busyLabel="Saving…" />
      </save.Form>
    </Modal>
  );
});
