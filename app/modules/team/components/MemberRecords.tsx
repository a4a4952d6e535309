import { Form, Link, useNavigation } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import type { MemberRecordAccess } from "~/db/enums";
import { ACTIVITY_TYPE_LABELS, LOGGABLE_ACTIVITY_TYPES, type ActivityItem } from "~/modules/activities/activity.schema";
import { ActivityEntry } from "~/modules/activities/components/ActivityTimeline";
import type { LocalNow } from "~/modules/tasks/due";
import { TASK_TYPE_LABELS, type TaskItem } from "~/modules/tasks/task.schema";

// The pieces of a member's contact as their manager sees it (ADR 0075): tasks, the timeline, and, when the team lets
// managers edit, a note and a task of their own. Plain forms posting to the page, so they work before hydration.

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const TEXTAREA =
  "min-h-24 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

function FormAlert({ message }: { message?: string }) {
  return message ? (
    <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
      {message}
    </p>
  ) : null;
}

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export function MemberTasks({
  tasks,
  prefs,
  canEdit,
  agentName,
}: {
  tasks: TaskItem[];
  prefs: DisplayPreferences;
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
                  {TASK_TYPE_LABELS[task.type]} · due {formatDate(task.dueDate, prefs)}
                  {task.dueTime ? ` at ${task.dueTime}` : ""}
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

const CHOICE_TEXT: Record<MemberRecordAccess, { label: string; hint: string }> = {
  shared: { label: "Only what is shared", hint: "Admins see the team's deals, leads and standings, and each member's contacts stay theirs." },
  view: { label: "See every member's contacts", hint: "The owner and admins can open members' contacts, timelines and tasks." },
  edit: { label: "See and edit them", hint: "They can also edit details, log activities, add and complete tasks." },
};

/** The owner's choice of what the owner and admins may do with members' records; others read what it is. */
export function MemberRecordsSetting({ value, owner, error }: { value: MemberRecordAccess; owner: boolean; error?: string }) {
  const busy = useBusy("member-records");
  return (
    <section
      aria-labelledby="member-records-heading"
      className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="member-records-heading" className="text-lg font-semibold">
        Members' contacts
      </h2>
      {owner ? (
        <Form method="post" className="mt-3 grid gap-3">
          <input type="hidden" name="intent" value="member-records" />
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm text-stone-600 dark:text-stone-400">
              What the owner and admins may do with every member's contacts, timelines and tasks.
            </legend>
            {(Object.keys(CHOICE_TEXT) as MemberRecordAccess[]).map((choice) => (
              <label key={choice} className="flex min-h-12 items-start gap-3 rounded-lg border border-stone-200 p-3 dark:border-stone-700">
                <input type="radio" name="memberRecords" value={choice} defaultChecked={value === choice} className="mt-1 h-5 w-5" />
                <span>
                  <span className="block font-medium">{CHOICE_TEXT[choice].label}</span>
                  <span className="block text-sm text-stone-600 dark:text-stone-400">{CHOICE_TEXT[choice].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <FormAlert message={error} />
          <Button type="submit" busy={busy} className="justify-self-start">
            Save
          </Button>
        </Form>
      ) : (
        <p className="mt-2 text-sm">
          {value === "shared"
            ? "Your contacts, timelines and tasks are yours: the owner and admins see only what you share."
            : value === "view"
              ? "The team's owner and admins can see your contacts, timelines and tasks."
              : "The team's owner and admins can see and edit your contacts, timelines and tasks. What they log shows their name."}
        </p>
      )}
    </section>
  );
}
