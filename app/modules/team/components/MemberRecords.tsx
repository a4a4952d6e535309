import { Form, Link, useNavigation } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import type { DisplayPreferences } from "~/lib/format";
import { dueLabel } from "~/modules/tasks/due-label";
import { ACTIVITY_TYPE_LABELS, LOGGABLE_ACTIVITY_TYPES, type ActivityItem } from "~/modules/activities/activity.schema";
import { ActivityEntry } from "~/modules/activities/components/ActivityTimeline";
import { FormAlert } from "./MemberRecordsSetting";
import type { LocalNow } from "~/modules/tasks/due";
import { TASK_TYPE_LABELS, type TaskItem } from "~/modules/tasks/task.schema";

// The pieces of a member's contact as their manager sees it (ADR 0075): tasks, the timeline, and, when the team lets
// managers edit, a note and a task of their own. Plain forms posting to the page, so they work before hydration.

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const TEXTAREA =
  "min-h-24 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export function MemberTasks({
  tasks,
  prefs,
  now,
  canEdit,
  agentName,
}: {
  tasks: TaskItem[];
  prefs: DisplayPreferences;
  /** The agent's own today and time: "Today", "Tomorrow" and overdue read as on their list. */
  now: LocalNow;
  canEdit: boolean;
  agentName: string;
}) {
  const open = tasks.filter((t) => t.status === "open");
  return (
    <section aria-labelledby="member-tasks" className={card}>
      <h2 id="member-tasks" className="mb-2 text-lg font-semibold">
        Open tasks
      </h2>
      {open.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">{agentName} has no open tasks for this contact.</p>
      ) : (
        <ul className="divide-y divide-stone-200 dark:divide-stone-800">
          {open.map((task) => (
            <li key={task.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="min-w-0">
                <span className="block font-medium">{task.title}</span>
                <span className="block text-sm text-stone-600 dark:text-stone-400">
                  {`${TASK_TYPE_LABELS[task.type]} · due ${dueLabel(task, now, prefs).text}${dueLabel(task, now, prefs).overdue ? " (overdue)" : ""}`}
                </span>
              </span>
              {canEdit ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="complete" />
                  <input type="hidden" name="taskId" value={task.id} />
                  <button type="submit" className={buttonClass("secondary")} aria-label={`Mark done: ${task.title}`}>
                    Mark done
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function MemberTimeline({ activities, prefs, moreHref }: { activities: ActivityItem[]; prefs: DisplayPreferences; moreHref: string | null }) {
  return (
    <section aria-labelledby="member-timeline" className={card}>
      <h2 id="member-timeline" className="mb-2 text-lg font-semibold">
        Activity
      </h2>
      {activities.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">No activity yet.</p>
      ) : (
        <ol aria-label="Activity timeline" className="divide-y divide-stone-200 dark:divide-stone-800">
          {activities.map((activity) => (
            // A teammate's deal pages stay the agent's: no links out of the timeline.
            <ActivityEntry key={activity.id} activity={activity} prefs={prefs} hideContact hideDeal />
          ))}
        </ol>
      )}
      {moreHref ? (
        <Link to={moreHref} className={buttonClass("ghost", "mt-2")}>
          Older activity
        </Link>
      ) : null}
    </section>
  );
}

/** Log a call, text, note… on the agent's timeline, in the manager's name. */
export function MemberLogForm({ now, error }: { now: LocalNow; error?: string }) {
  const busy = useBusy("log");
  return (
    <section aria-labelledby="member-log" className={card}>
      <h2 id="member-log" className="mb-2 text-lg font-semibold">
        Log an activity
      </h2>
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="intent" value="log" />
        <input type="hidden" name="date" value={now.date} />
        <input type="hidden" name="time" value={now.time} />
        <SelectField
          label="What happened"
          name="type"
          defaultValue="note"
          options={LOGGABLE_ACTIVITY_TYPES.map((t) => [t, ACTIVITY_TYPE_LABELS[t]] as const)}
        />
        <label className="grid gap-1 text-sm font-medium">
          Notes
          <textarea name="notes" maxLength={5000} className={TEXTAREA} />
        </label>
        <FormAlert message={error} />
        <Button type="submit" busy={busy}>
          Log it
        </Button>
      </Form>
    </section>
  );
}

/** Add a task to the agent's list for this contact. */
export function MemberTaskForm({ now, agentName, error }: { now: LocalNow; agentName: string; error?: string }) {
  const busy = useBusy("task");
  return (
    <section aria-labelledby="member-task" className={card}>
      <h2 id="member-task" className="mb-2 text-lg font-semibold">
        Add a task for {agentName}
      </h2>
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="intent" value="task" />
        <Field label="Task" name="title" required maxLength={200} />
        <Field label="Due" name="dueDate" type="date" required defaultValue={now.date} />
        <FormAlert message={error} />
        <Button type="submit" busy={busy}>
          Add task
        </Button>
      </Form>
    </section>
  );
}
