import { ActivityInputSchema, type ActivityInput } from "~/modules/activities/activity.schema";
import { TaskInputSchema, type TaskInput } from "~/modules/tasks/task.schema";
import { dayFromToday } from "./dates";

/** A valid task form, as the browser would post it (due tomorrow in New York), with `fields` on top. */
export function taskInput(fields: Record<string, unknown> = {}): TaskInput {
  return TaskInputSchema.parse({
    title: "Call the lender",
    type: "call",
    priority: "medium",
    dueDate: dayFromToday(1),
    dueTime: "",
    repeat: "",
    ...fields,
  });
}

/** A valid log-activity form (three days ago in New York). */
export function activityInput(fields: Record<string, unknown> = {}): ActivityInput {
  return ActivityInputSchema.parse({ type: "call", date: dayFromToday(-3), time: "10:00", outcome: "Connected", notes: "", ...fields });
}
