import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { auditWhere } from "~/modules/audit/audit.server";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { CalendarDays, CalendarRange, CircleCheckBig, Plus } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { OpenFromParam } from "~/modules/palette/components/OpenFromParam";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { monthGrid, weekDays, weekStartFor } from "~/modules/tasks/calendar";
import { QuickAdd } from "~/modules/tasks/components/QuickAdd";
import { TaskCalendar } from "~/modules/tasks/components/TaskCalendar";
import { TaskList } from "~/modules/tasks/components/TaskList";
import { localNow, openTaskList } from "~/modules/tasks/due";
import {
  completeTaskFromForm,
  createTaskFromForm,
  deleteTaskFromForm,
  linkTaskContact,
  quickAddTask,
  reopenTaskFromForm,
  restoreTaskFromForm,
  updateTaskFromForm,
} from "~/modules/tasks/task-actions.server";
import {
  isRealDay,
  TASK_LIST_LABELS,
  TASK_PAGE_SIZE,
  TASK_LISTS,
  TASK_VIEWS,
  type TaskList as TaskListName,
  type TaskView,
} from "~/modules/tasks/task.schema";
import { calendarMonth, calendarRange, listTasks } from "~/modules/tasks/tasks.server";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Tasks — Porchlight" }];
export const headers = serverTimingHeaders;

const LIST_DESCRIPTIONS: Record<TaskListName, string> = {
  today: "Open tasks due later today or any time today.",
  overdue: "Open tasks whose due day, or due time today, has passed (your timezone).",
  upcoming: "Open tasks due after today.",
  completed: "The most recently completed tasks first.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const user = await requireSubscriber(request, context);
  const params = new URL(request.url).searchParams;
  const view = (TASK_VIEWS as readonly string[]).includes(params.get("view") ?? "") ? (params.get("view") as TaskView) : "today";
  const prefs = await getDisplayPreferences(context, user.id);
  const now = localNow(prefs.timezone);
  if (view === "month" || view === "week") {
    const requested = params.get("date") ?? "";
    const day = isRealDay(requested) ? requested : now.date;
    const weekStartsOn = weekStartFor(prefs.dateFormat);
    if (view === "month") {
      const days = monthGrid(day, weekStartsOn).flat();
      const month = await calendarMonth(context, user.id, days[0]!, days.at(-1)!, day, now);
      return data({ view, prefs, now, day, ...month, list: null }, { headers: serverTiming("tasks", started) });
    }
    const days = weekDays(day, weekStartsOn);
    const range = await calendarRange(context, user.id, days[0]!, days.at(-1)!, now);
    return data({ view, prefs, now, day, ...range, cells: null, list: null }, { headers: serverTiming("tasks", started) });
  }
  const limit = Math.min(Math.max(Number(params.get("limit")) || TASK_PAGE_SIZE, TASK_PAGE_SIZE), 10 * TASK_PAGE_SIZE);
  const list = await listTasks(context, user.id, view, now, limit);
  return data(
    { view, prefs, now, day: now.date, tasks: list.tasks, counts: list.counts, closings: [], cells: null, list: { hasMore: list.hasMore, limit } },
    { headers: serverTiming("tasks", started) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, {
    create: () => createTaskFromForm(context, user.id, form),
    update: () => updateTaskFromForm(context, user.id, form),
    "quick-add": () => quickAddTask(context, user.id, form),
    "link-contact": () => linkTaskContact(context, user.id, form),
    complete: () => completeTaskFromForm(context, user.id, form),
    reopen: () => reopenTaskFromForm(context, user.id, form),
    delete: () => deleteTaskFromForm(context, user.id, form, auditWhere(request)),
    restore: () => restoreTaskFromForm(context, user.id, form, auditWhere(request)),
  });
}

const tabClass = (current: boolean) =>
  `inline-flex min-h-12 shrink-0 items-center gap-2 rounded-full px-4 text-sm font-medium ${
    current
      ? "bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950"
      : "bg-stone-100 text-stone-800 hover:bg-stone-200 dark:bg-stone-800 dark:text-stone-100 dark:hover:bg-stone-700"
  }`;

export default function TasksPage() {
  const loaded = useLoaderData<typeof loader>();
  const { view, prefs, now, counts } = loaded;
  const calendar = view === "month" || view === "week";
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const added = params.get("added");
  // A task added for another day would vanish from Today: go to the view that holds it and mark it there.
  const showAdded = (task: { id: string; dueDate: string; dueTime: string | null }) => {
    if (calendar) {
      navigate(`/tasks?view=${view}&date=${task.dueDate}&added=${encodeURIComponent(task.id)}`, { preventScrollReset: true });
      return undefined;
    }
    const list = openTaskList(task, now);
    navigate(`/tasks?view=${list}&added=${encodeURIComponent(task.id)}`, { preventScrollReset: true });
    return `It is in ${TASK_LIST_LABELS[list]}.`;
  };
  return (
    <>
      <PageHeader title="Tasks" description="Follow-ups, showings and deadlines" actions={<GuideButton page="tasks" />} />
      <div data-tour="quick-add" className="mb-4">
        <QuickAdd now={now} prefs={prefs} onAdded={showAdded} />
      </div>
      <nav aria-label="Task views" className="relative -mx-4 mb-4 flex gap-2 overflow-x-auto px-4 pb-1">
        {TASK_LISTS.map((list) => (
          <Link key={list} to={`/tasks?view=${list}`} aria-current={view === list ? "page" : undefined} className={tabClass(view === list)}>
            {TASK_LIST_LABELS[list]}
            {list !== "completed" ? (
              <span
                className={`rounded-full px-2 text-xs ${list === "overdue" && counts.overdue ? "bg-red-600 text-white" : "bg-black/10 dark:bg-white/15"}`}
              >
                {counts[list]}
              </span>
            ) : null}
          </Link>
        ))}
        <Link to="/tasks?view=month" aria-current={view === "month" ? "page" : undefined} className={tabClass(view === "month")}>
          <CalendarDays aria-hidden="true" className="h-4 w-4" />
          Month
        </Link>
        <Link to="/tasks?view=week" aria-current={view === "week" ? "page" : undefined} className={tabClass(view === "week")}>
          <CalendarRange aria-hidden="true" className="h-4 w-4" />
          Week
        </Link>
      </nav>
      {calendar ? (
        <TaskCalendar
          key={`${view}-${loaded.day}`}
          view={view}
          day={loaded.day}
          tasks={loaded.tasks}
          cells={loaded.cells ?? {}}
          closings={loaded.closings}
          now={now}
          prefs={prefs}
        />
      ) : (
        <section
          aria-labelledby="list-heading"
          className="rounded-2xl border border-stone-200 bg-white px-4 pb-2 pt-4 dark:border-stone-800 dark:bg-stone-900"
        >
          <TaskList
            tasks={loaded.tasks}
            highlightId={added}
            now={now}
            prefs={prefs}
            label={`${TASK_LIST_LABELS[view as TaskListName]} tasks`}
            header={({ addTask }) => (
              <div className="mb-1 flex flex-wrap items-start justify-between gap-2">
                <div>
                  <h2 id="list-heading" className="text-lg font-semibold">
                    {TASK_LIST_LABELS[view as TaskListName]}
                  </h2>
                  <p className="text-sm text-stone-600 dark:text-stone-400">{LIST_DESCRIPTIONS[view as TaskListName]}</p>
                </div>
                <Button type="button" variant="secondary" onClick={() => addTask()}>
                  <Plus aria-hidden="true" className="h-5 w-5" />
                  New task
                </Button>
                {/* /tasks?new=task (the command palette's "New task") opens the add dialog. */}
                <OpenFromParam value="task" open={() => addTask()} />
              </div>
            )}
            empty={
              <div className="flex flex-col items-center gap-2 py-8 text-center text-stone-600 dark:text-stone-400">
                <CircleCheckBig aria-hidden="true" className="h-8 w-8" />
                <p>
                  {view === "completed"
                    ? "No completed tasks yet."
                    : view === "overdue"
                      ? "Nothing overdue. Well done."
                      : `No tasks ${view === "today" ? "left for today" : "coming up"}.`}
                </p>
              </div>
            }
          />
          {loaded.list?.hasMore ? (
            loaded.list.limit < 10 * TASK_PAGE_SIZE ? (
              <Link
                to={`/tasks?view=${view}&limit=${loaded.list.limit + TASK_PAGE_SIZE}`}
                preventScrollReset
                className="my-2 inline-flex min-h-12 items-center rounded-lg px-3 font-medium text-brand-700 hover:underline dark:text-brand-400"
              >
                Show more
              </Link>
            ) : (
              <p className="py-3 text-sm text-stone-600 dark:text-stone-400">
                Showing the first {loaded.list.limit}. The calendar shows every task by day.
              </p>
            )
          ) : null}
        </section>
      )}
    </>
  );
}
