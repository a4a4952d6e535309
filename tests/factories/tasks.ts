import { ActivityInputSchema, type ActivityInput } from "~/modules/activities/activity.schema";
import { TaskInputSchema, type TaskInput } from "~/modules/tasks/task.schema";

/** A valid task form, as the browser would post it, with `fields` on top. */
export function taskInput(fields: Record<string, unknown> = {}): TaskInput {
  return TaskInputSchema.parse({ title: "Call the lender", type: "call", priority: "medium", dueDate: "2026-11-23", dueTime: "", repeat: "", ...fields });
}

/** A valid log-activity form. */
export function activityInput(fields: Record<string, unknown> = {}): ActivityInput {
  return ActivityInputSchema.parse({ type: "call", date: "2026-11-20", time: "10:00", outcome: "Connected", notes: "", ...fields });
}
