import { Link } from "@remix-run/react";
import { Check, Pencil, Repeat, Trash2 } from "lucide-react";
import { useEffect, useRef } from "react";
import type { DisplayPreferences } from "~/lib/format";
import type { LocalNow } from "../due";
import { dueLabel } from "../due-label";
import { TASK_PRIORITY_LABELS, TASK_REPEAT_LABELS, TASK_TYPE_LABELS, type TaskItem } from "../task.schema";
import { useTaskActions } from "./TaskActions";

const PRIORITY_CLASS = {
  high: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  medium: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  low: "bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300",
} as const;

const iconButton =
  "inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800";

/** One task: complete (or reopen), its due time in the user's terms, links, edit and delete. */
export function TaskRow({
  task,
  now,
  prefs,
  onEdit,
  onCompleteAndLog,
  hideContact = false,
  hideDeal = false,
  highlight = false,
}: {
  task: TaskItem;
  now: LocalNow;
  prefs: DisplayPreferences;
  onEdit(task: TaskItem): void;
  onCompleteAndLog?(task: TaskItem): void;
  hideContact?: boolean;
  hideDeal?: boolean;
  /** Just added: marked, and scrolled into view once. */
  highlight?: boolean;
}) {
  const { submit, pending } = useTaskActions();
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlight) row.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [highlight]);
  const busy = pending.has(task.id);
  const done = task.status === "completed" ? !busy : busy;
  const due = dueLabel(task, now, prefs);
  const linked = Boolean(task.contactId || task.dealId);
  return (
    <li
      ref={row}
      data-added={highlight ? "" : undefined}
      className={`flex items-start gap-2 py-3 ${highlight ? "-mx-2 rounded-xl bg-brand-50 px-2 ring-2 ring-brand-600 dark:bg-stone-800 dark:ring-brand-400" : ""}`}
    >
      {highlight ? <span className="sr-only">Just added: </span> : null}
      <button
        type="button"
        onClick={() => submit(task.status === "open" ? { intent: "complete", id: task.id, log: "" } : { intent: "reopen", id: task.id })}
        disabled={busy}
        aria-pressed={task.status === "completed"}
        aria-label={task.status === "open" ? `Complete task: ${task.title}` : `Reopen task: ${task.title}`}
        className={`${iconButton} ${done ? "text-emerald-700 dark:text-emerald-400" : ""}`}
      >
        <span
          aria-hidden="true"
          className={`flex h-6 w-6 items-center justify-center rounded-full border-2 ${done ? "border-emerald-600 bg-emerald-600 text-white" : "border-stone-400 dark:border-stone-500"}`}
        >
          {done ? <Check className="h-4 w-4" /> : null}
        </span>
      </button>
      <div className="min-w-0 flex-1 pt-2">
        <p className={`font-medium break-words ${done ? "text-stone-500 line-through dark:text-stone-400" : ""}`}>{task.title}</p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600 dark:text-stone-400">
          <span>
            {TASK_TYPE_LABELS[task.type]} ·{" "}
            <span className={due.overdue && task.status === "open" ? "font-semibold text-red-700 dark:text-red-400" : ""}>
              {due.overdue && task.status === "open" ? "Overdue: " : "Due "}
              {due.text}
            </span>
          </span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${PRIORITY_CLASS[task.priority]}`}>
            {TASK_PRIORITY_LABELS[task.priority]}
          </span>
          {task.repeat ? (
            <span className="inline-flex items-center gap-1">
              <Repeat aria-hidden="true" className="h-3.5 w-3.5" />
              {TASK_REPEAT_LABELS[task.repeat]}
            </span>
          ) : null}
        </p>
        {(task.contactName && !hideContact) || (task.dealTitle && !hideDeal) ? (
          <p className="mt-1 flex flex-wrap gap-x-3 text-sm">
            {task.contactName && task.contactId && !hideContact ? (
              <Link
                to={`/contacts/${encodeURIComponent(task.contactId)}`}
                className="inline-flex min-h-6 items-center text-brand-700 underline underline-offset-2 dark:text-brand-400"
              >
                {task.contactName}
              </Link>
            ) : null}
            {task.dealTitle && task.dealId && !hideDeal ? (
              <Link
                to={`/deals/${encodeURIComponent(task.dealId)}`}
                className="inline-flex min-h-6 items-center text-brand-700 underline underline-offset-2 dark:text-brand-400"
              >
                {task.dealTitle}
              </Link>
            ) : null}
          </p>
        ) : null}
        {task.status === "open" && linked && onCompleteAndLog ? (
          <button
            type="button"
            onClick={() => onCompleteAndLog(task)}
            className="mt-1 min-h-11 text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-400"
          >
            Complete and log activity…
          </button>
        ) : null}
      </div>
      <button type="button" className={iconButton} onClick={() => onEdit(task)} aria-label={`Edit task: ${task.title}`}>
        <Pencil aria-hidden="true" className="h-5 w-5" />
      </button>
      <button
        type="button"
        className={iconButton}
        onClick={() => submit({ intent: "delete", id: task.id })}
        disabled={busy}
        aria-label={`Delete task: ${task.title}`}
      >
        <Trash2 aria-hidden="true" className="h-5 w-5" />
      </button>
    </li>
  );
}
