import { useFetcher } from "@remix-run/react";
import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { choices, SELECT_CLASS, SelectField } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import { TASK_PRIORITIES, TASK_REPEATS, TASK_TYPES } from "~/db/enums";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { SubmissionKey } from "~/modules/sync/components/SubmissionKey";
import { ContactPicker } from "~/modules/deals/components/ContactPicker";
import { TASK_PRIORITY_LABELS, TASK_REPEAT_LABELS, TASK_TYPE_LABELS, TASKS_ACTION, type TaskActionResult, type TaskItem } from "../task.schema";

export interface TaskDialogHandle {
  /** Opens for a new task (with preset links or date) or to edit `task`. */
  open(options?: {
    task?: TaskItem;
    contact?: { id: string; name: string } | null;
    deal?: { id: string; title: string } | null;
    dueDate?: string;
  }): void;
}

/** Add or edit a task: title, type, priority, due date and time, repeat, contact, deal (kept from where it was opened), notes. */
export const TaskDialog = forwardRef<TaskDialogHandle, { today: string }>(function TaskDialog({ today }, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  const save = useFetcher<TaskActionResult>();
  const [state, setState] = useState<{
    key: number;
    task?: TaskItem;
    contact?: { id: string; name: string } | null;
    deal?: { id: string; title: string } | null;
    dueDate?: string;
  }>({ key: 0 });
  useImperativeHandle(ref, () => ({
    open(options = {}) {
      setState((s) => ({ key: s.key + 1, ...options }));
      // Open after React has rendered the fresh form.
      requestAnimationFrame(() => dialog.current?.showModal());
    },
  }));
  const errors = save.data && !save.data.ok ? (save.data.fieldErrors ?? {}) : {};
  const task = state.task;
  useFetcherResult(save, (result) => {
    if (result.ok) {
      dialog.current?.close();
      toast({ title: result.message, variant: "success" });
    } else {
      toast({ title: "Please check the task", description: result.error, variant: "destructive" });
    }
  });
  const deal = task?.dealId && task.dealTitle ? { id: task.dealId, title: task.dealTitle } : (state.deal ?? null);
  const contact = task?.contactId && task.contactName ? { id: task.contactId, name: task.contactName } : (state.contact ?? null);
  return (
    <Modal ref={dialog} id="task-dialog" title={task ? "Edit task" : "Add task"} wide>
      <save.Form key={state.key} method="post" action={TASKS_ACTION} noValidate className="grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value={task ? "update" : "create"} />
        {task ? <input type="hidden" name="id" value={task.id} /> : <SubmissionKey name="add-task" answer={save.data} />}
        <div className="sm:col-span-2">
          <Field
            label="Title"
            name="title"
            defaultValue={task?.title}
            placeholder="e.g. Call Dana about the inspection"
            required
            error={errors.title}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- focus moves into the dialog the agent just opened
            autoFocus
            maxLength={200}
          />
        </div>
        <SelectField
          label="Type"
          name="type"
          options={choices(TASK_TYPES, TASK_TYPE_LABELS)}
          defaultValue={task?.type ?? "follow_up"}
          error={errors.type}
        />
        <SelectField
          label="Priority"
          name="priority"
          options={choices(TASK_PRIORITIES, TASK_PRIORITY_LABELS)}
          defaultValue={task?.priority ?? "medium"}
          error={errors.priority}
        />
        <Field label="Due date" name="dueDate" type="date" defaultValue={task?.dueDate ?? state.dueDate ?? today} required error={errors.dueDate} />
        <Field
          label="Time (optional)"
          name="dueTime"
          type="time"
          defaultValue={task?.dueTime ?? ""}
          error={errors.dueTime}
          hint="Leave empty for any time that day."
        />
        <SelectField
          label="Repeat"
          name="repeat"
          options={choices(TASK_REPEATS, TASK_REPEAT_LABELS)}
          placeholder={{ label: "Does not repeat" }}
          defaultValue={task?.repeat ?? ""}
          error={errors.repeat}
        />
        <div>
          <ContactPicker name="contactId" initial={contact} error={errors.contactId} />
        </div>
        {deal ? (
          <div className="sm:col-span-2">
            <input type="hidden" name="dealId" value={deal.id} />
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Deal: <span className="font-medium">{deal.title}</span>
            </p>
            {errors.dealId ? <p className="text-sm text-red-700 dark:text-red-400">{errors.dealId}</p> : null}
          </div>
        ) : null}
        <div className="sm:col-span-2">
          <FieldShell id="task-notes" label="Notes (optional)" error={errors.notes}>
            <textarea id="task-notes" name="notes" rows={3} defaultValue={task?.notes ?? ""} maxLength={5000} className={`${SELECT_CLASS} py-2`} />
          </FieldShell>
        </div>
        <ModalActions className="sm:col-span-2" submitLabel={task ? "Save task" : "Add task"} busy={save.state !== "idle"} busyLabel="Saving…" />
      </save.Form>
    </Modal>
  );
});
