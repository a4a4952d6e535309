import * as z from "zod";
import { TASK_PRIORITIES, TASK_REPEATS, TASK_TYPES, type LoggableActivityType, type TaskPriority, type TaskRepeat, type TaskType } from "~/db/enums";
import type { ActionResult } from "~/lib/action-result";
import { optionalText } from "~/lib/schema-fields";
import type { ContactLinkOffer } from "./contact-match";

export const TASK_MESSAGES = {
  titleRequired: "Enter a task title.",
  dueDateRequired: "Choose a due date.",
  dueDateInvalid: "Enter the due date as a real date.",
  dueTimeInvalid: "Enter the time as hours and minutes, e.g. 15:30.",
  contactUnknown: "That contact was not found. Pick one from the list.",
  dealUnknown: "That deal was not found.",
  notFound: "That task was not found.",
  saveFailed: "The task could not be saved. Please try again.",
  quickAddEmpty: "Type a task, e.g. “Call Jane tomorrow 3pm”.",
  created: "Task added",
  updated: "Task saved",
  completed: "Task completed",
  reopened: "Task reopened",
  deleted: "Task deleted",
  restored: "Task restored",
  unlinked: "Contact unlinked",
} as const;

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  call: "Call",
  email: "E-mail",
  showing: "Showing",
  follow_up: "Follow-up",
  paperwork: "Paperwork",
  other: "Other",
};
export const TASK_PRIORITY_LABELS: Record<TaskPriority, string> = { low: "Low", medium: "Medium", high: "High" };
export const TASK_REPEAT_LABELS: Record<TaskRepeat, string> = { daily: "Every day", weekly: "Every week", monthly: "Every month" };

/** The lists of /tasks; the calendar has month and week views. */
export const TASK_LISTS = ["today", "overdue", "upcoming", "completed"] as const;
export type TaskList = (typeof TASK_LISTS)[number];
export const TASK_VIEWS = [...TASK_LISTS, "month", "week"] as const;
export type TaskView = (typeof TASK_VIEWS)[number];
export const TASK_LIST_LABELS: Record<TaskList, string> = { today: "Today", overdue: "Overdue", upcoming: "Upcoming", completed: "Completed" };
/** How many tasks a list shows before "Show more". */
export const TASK_PAGE_SIZE = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export function isRealDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y!, m! - 1, d!));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d && y! >= 1900 && y! <= 2200;
}

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);
const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : (v ?? null));

export const dueDateField = z.preprocess(
  trimmed,
  z.string({ error: TASK_MESSAGES.dueDateRequired }).min(1, TASK_MESSAGES.dueDateRequired).refine(isRealDay, TASK_MESSAGES.dueDateInvalid),
);
export const dueTimeField = z.preprocess((v) => {
  const value = blankToNull(v);
  // Browsers may send seconds ("15:30:00").
  return typeof value === "string" ? value.trim().slice(0, 5) : value;
}, z.string().regex(TIME, TASK_MESSAGES.dueTimeInvalid).nullable());

/** The task form (create and edit), on the browser and the server. */
export const TaskInputSchema = z.object({
  title: z.preprocess(
    trimmed,
    z.string({ error: TASK_MESSAGES.titleRequired }).min(1, TASK_MESSAGES.titleRequired).max(200, "The title must be at most 200 characters."),
  ),
  notes: optionalText(5_000, "Notes"),
  type: z.enum(TASK_TYPES, { error: "Choose a task type." }).default("follow_up"),
  priority: z.enum(TASK_PRIORITIES, { error: "Choose low, medium or high priority." }).default("medium"),
  dueDate: dueDateField,
  dueTime: dueTimeField,
  repeat: z.preprocess(blankToNull, z.enum(TASK_REPEATS, { error: "Choose how often the task repeats." }).nullable()),
  contactId: optionalText(64, "Contact"),
  dealId: optionalText(64, "Deal"),
});
export type TaskInput = z.infer<typeof TaskInputSchema>;

/** A task as lists and calendars show it. */
export interface TaskItem {
  id: string;
  title: string;
  notes: string | null;
  type: TaskType;
  priority: TaskPriority;
  status: "open" | "completed";
  dueDate: string;
  dueTime: string | null;
  repeat: TaskRepeat | null;
  contactId: string | null;
  contactName: string | null;
  dealId: string | null;
  dealTitle: string | null;
  completedAt: number | null;
}

/** Open task titles a month cell shows (wider screens; phones show the count). */
export const MONTH_CELL_TITLES = 2;

/** A day in the month grid: its open tasks counted, whether any is overdue, and the first few titles. */
export interface DayCell {
  open: number;
  overdue: boolean;
  first: { id: string; title: string; dueTime: string | null }[];
}

/** A deal's closing on the calendar and in the feed. */
export interface Closing {
  dealId: string;
  title: string;
  date: string;
  /** "closing" is the scheduled closing date, "expected" the expected close date of a deal without one. */
  kind: "closing" | "expected";
  stage: string;
}

/** The answer of every task action, for fetchers (toasts, undo). */
export type TaskActionResult = ActionResult<{
  message: string;
  taskId?: string;
  nextTaskId?: string | null;
  activityId?: string | null;
  undo?: Record<string, string>;
  /** Quick add: when the task is due (so the page can show where it went) and what it did about contacts. */
  due?: { dueDate: string; dueTime: string | null };
  contactLink?: ContactLinkOffer;
}>;

/** The activity a completed task records by default, by the task's type. */
export const ACTIVITY_FOR_TASK: Record<TaskType, LoggableActivityType> = {
  call: "call",
  email: "email_sent",
  showing: "showing",
  follow_up: "note",
  paperwork: "contract",
  other: "note",
};

/** Where every task form posts. */
export const TASKS_ACTION = "/tasks";

/** The answer of Settings → Calendar feed (the address is in it once, when made). */
export type CalendarFeedResult = ActionResult<{ intent: "create"; url: string } | { intent: "revoke" }>;
