import { forwardRef, useId, useImperativeHandle, useRef, useState } from "react";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { choices, SELECT_CLASS, SelectField } from "~/components/ui/SelectField";
import { ACTIVITY_OUTCOME_SUGGESTIONS, ACTIVITY_TYPE_LABELS, LOGGABLE_ACTIVITY_TYPES } from "~/modules/activities/activity.schema";
import { ACTIVITY_FOR_TASK, type TaskItem } from "../task.schema";
import { useTaskActions } from "./TaskActions";

export interface CompleteLogHandle {
  open(task: TaskItem): void;
}

/** Completes a task and logs what happened on its contact's and deal's timelines. */
export const CompleteLogDialog = forwardRef<CompleteLogHandle>(function CompleteLogDialog(_props, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { submit } = useTaskActions();
  const [task, setTask] = useState<TaskItem | null>(null);
  // Each opening is a fresh form: its Activity starts from the task's kind as it is now (an e-mail task logs an
  // e-mail), not from what was picked the last time the dialog was open, or from the kind before an edit.
  const [opening, setOpening] = useState(0);
  const listId = useId();
  useImperativeHandle(ref, () => ({
    open(next) {
      setTask(next);
      setOpening((count) => count + 1);
      requestAnimationFrame(() => dialog.current?.showModal());
    },
  }));
  return (
    <Modal ref={dialog} id="complete-log" title="Complete and log activity">
      {task ? (
        <form
          key={`${task.id}:${opening}`}
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            submit({
              intent: "complete",
              id: task.id,
              log: "1",
              activityType: String(data.get("activityType")),
              outcome: String(data.get("outcome") ?? ""),
              notes: String(data.get("notes") ?? ""),
            });
            dialog.current?.close();
          }}
        >
          <p className="text-sm text-stone-700 dark:text-stone-300">
            <span className="font-medium">{task.title}</span>
            {task.contactName ? ` · ${task.contactName}` : ""}
            {task.dealTitle ? ` · ${task.dealTitle}` : ""}
          </p>
          <SelectField
            label="Activity"
            name="activityType"
            options={choices(LOGGABLE_ACTIVITY_TYPES, ACTIVITY_TYPE_LABELS)}
            defaultValue={ACTIVITY_FOR_TASK[task.type]}
          />
          <Field label="Outcome (optional)" name="outcome" list={listId} maxLength={200} placeholder="e.g. Left voicemail" />
          <datalist id={listId}>
            {ACTIVITY_OUTCOME_SUGGESTIONS.map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
          <FieldShell id="complete-log-notes" label="Notes (optional)">
            <textarea id="complete-log-notes" name="notes" rows={3} maxLength={5000} placeholder={task.title} className={`${SELECT_CLASS} py-2`} />
          </FieldShell>
          <ModalActions submitLabel="Complete and log" />
        </form>
      ) : null}
    </Modal>
  );
});
