import { and, asc, desc, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { AuditWhere } from "~/modules/audit/audit.server";
import type { BatchItem } from "drizzle-orm/batch";
import { contacts, crmActivities, crmTasks, deals, type NewTask, type Task } from "~/db/schema";
import type { ActivityType } from "~/db/enums";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { ownedBy, ownedByKeys } from "~/lib/tenancy.server";
import { guardedBatch, requireInBatch, type OnBehalf } from "~/db/write-guard.server";
import type { UserId } from "~/modules/auth/session.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { localNow, nextOccurrence, type LocalNow } from "./due";
import {
  ACTIVITY_FOR_TASK,
  MONTH_CELL_TITLES,
  TASK_MESSAGES,
  TASK_PAGE_SIZE,
  type Closing,
  type DayCell,
  type TaskInput,
  type TaskItem,
  type TaskList,
} from "./task.schema";
import { moveToTrash, restoreFromTrash } from "~/modules/trash/trash.server";

export type TaskResult = { ok: true; task: Task } | { ok: false; status: 400 | 404; error: string; fieldErrors: Record<string, string> };
const fail = (fieldErrors: Record<string, string>, status: 400 | 404 = 400): TaskResult => ({
  ok: false,
  status,
  error: Object.values(fieldErrors)[0] ?? TASK_MESSAGES.saveFailed,
  fieldErrors,
});

/** The user's own day and time, from their display preferences' timezone. */
export async function userNow(context: RequestContext, userId: UserId, at = new Date()): Promise<LocalNow> {
  return localNow((await getDisplayPreferences(context, userId)).timezone, at);
}

/** Tasks with their contact's name and deal's title; each join repeats the owner test. */
export function tasksWithLinks(context: RequestContext, userId: UserId) {
  return (
    context.db
      // deal_title is aliased: D1 batches return rows keyed by column name, where deals.title would overwrite the task's.
      .select({ task: crmTasks, contactName: contacts.name, dealTitle: sql<string | null>`${deals.title}`.as("deal_title") })
      .from(crmTasks)
      .leftJoin(contacts, and(eq(contacts.id, crmTasks.contactId), eq(contacts.userId, userId)))
      .leftJoin(deals, and(eq(deals.id, crmTasks.dealId), eq(deals.userId, userId)))
  );
}

export function toTaskItem(row: { task: Task; contactName: string | null; dealTitle: string | null }): TaskItem {
  const { task } = row;
  return {
    id: task.id,
    title: task.title,
    notes: task.notes,
    type: task.type,
    priority: task.priority,
    status: task.status,
    dueDate: task.dueDate,
    dueTime: task.dueTime,
    repeat: task.repeat,
    contactId: row.contactName === null ? null : task.contactId,
    contactName: row.contactName,
    dealId: row.dealTitle === null ? null : task.dealId,
    dealTitle: row.dealTitle,
    completedAt: task.completedAt?.getTime() ?? null,
  };
}

/** All-day tasks first within a day, then by time; the id keeps the order stable. */
const dueOrder = [asc(crmTasks.dueDate), asc(sql`coalesce(${crmTasks.dueTime}, '')`), asc(crmTasks.id)];
const open = eq(crmTasks.status, "open");

/** The conditions of each list, relative to the user's own day and time (see due.ts). */
function listWhere(list: TaskList, now: LocalNow): SQL {
  const overdue = or(lt(crmTasks.dueDate, now.date), and(eq(crmTasks.dueDate, now.date), lt(crmTasks.dueTime, now.time)))!;
  switch (list) {
    case "overdue":
      return and(open, overdue)!;
    case "today":
      return and(open, eq(crmTasks.dueDate, now.date), or(isNull(crmTasks.dueTime), gte(crmTasks.dueTime, now.time)))!;
    case "upcoming":
      return and(open, gt(crmTasks.dueDate, now.date))!;
    case "completed":
      return eq(crmTasks.status, "completed");
  }
}

export interface TaskListPage {
  tasks: TaskItem[];
  hasMore: boolean;
  counts: Record<Exclude<TaskList, "completed">, number>;
}

/** One list and the open-list counts (for the tabs), in one round trip. */
export async function listTasks(
  context: RequestContext,
  userId: UserId,
  list: TaskList,
  now: LocalNow,
  limit = TASK_PAGE_SIZE,
): Promise<TaskListPage> {
  const order = list === "completed" ? [desc(crmTasks.completedAt), desc(crmTasks.id)] : dueOrder;
  const [rows, [counts]] = await context.db.batch([
    tasksWithLinks(context, userId)
      .where(ownedBy(crmTasks, userId, listWhere(list, now)))
      .orderBy(...order)
      .limit(limit + 1),
    countsQuery(context, userId, now),
  ]);
  return {
    tasks: rows.slice(0, limit).map(toTaskItem),
    hasMore: rows.length > limit,
    counts: toCounts(counts),
  };
}

/** How many open tasks each list holds, for the tabs. */
function countsQuery(context: RequestContext, userId: UserId, now: LocalNow) {
  return context.db
    .select({
      overdue: sql<number>`coalesce(sum(${listWhere("overdue", now)}), 0)`,
      today: sql<number>`coalesce(sum(${listWhere("today", now)}), 0)`,
      upcoming: sql<number>`coalesce(sum(${listWhere("upcoming", now)}), 0)`,
    })
    .from(crmTasks)
    .where(ownedBy(crmTasks, userId, open));
}
const toCounts = (row: { overdue: number; today: number; upcoming: number } | undefined): TaskListPage["counts"] => ({
  overdue: Number(row?.overdue ?? 0),
  today: Number(row?.today ?? 0),
  upcoming: Number(row?.upcoming ?? 0),
});

/** Tasks due in [from, to] (both "YYYY-MM-DD"), the deals closing then, and the list counts, for the calendar. */
export async function calendarRange(
  context: RequestContext,
  userId: UserId,
  from: string,
  to: string,
  now: LocalNow,
): Promise<{ tasks: TaskItem[]; closings: Closing[]; counts: TaskListPage["counts"] }> {
  const [taskRows, dealRows, [counts]] = await context.db.batch([
    tasksWithLinks(context, userId)
      .where(ownedBy(crmTasks, userId, gte(crmTasks.dueDate, from), lte(crmTasks.dueDate, to)))
      .orderBy(...dueOrder)
      .limit(2_000),
    closingsQuery(context, userId, from, to),
    countsQuery(context, userId, now),
  ]);
  return { tasks: taskRows.map(toTaskItem), closings: dealRows.map(toClosing), counts: toCounts(counts) };
}

/**
 * The month view: what each day's cell shows (open count, whether any is overdue, the first two open titles)
 * counted in SQL, and the full tasks of the chosen day only. Sending every task of the six weeks cost 361 KiB
 * of loader data on a large account for a grid that shows two titles a day.
 */
export async function calendarMonth(
  context: RequestContext,
  userId: UserId,
  from: string,
  to: string,
  day: string,
  now: LocalNow,
): Promise<{ cells: Record<string, DayCell>; tasks: TaskItem[]; closings: Closing[]; counts: TaskListPage["counts"] }> {
  const openInRange = ownedBy(crmTasks, userId, open, gte(crmTasks.dueDate, from), lte(crmTasks.dueDate, to));
  const ranked = context.db
    .select({
      id: crmTasks.id,
      title: crmTasks.title,
      dueDate: crmTasks.dueDate,
      dueTime: crmTasks.dueTime,
      rank: sql<number>`row_number() over (partition by ${crmTasks.dueDate} order by coalesce(${crmTasks.dueTime}, ''), ${crmTasks.id})`.as("rank"),
    })
    .from(crmTasks)
    .where(openInRange)
    .as("ranked");
  const [perDay, firsts, dayRows, dealRows, [counts]] = await context.db.batch([
    context.db
      .select({ dueDate: crmTasks.dueDate, open: sql<number>`count(*)`, overdue: sql<number | null>`max(${listWhere("overdue", now)})` })
      .from(crmTasks)
      .where(openInRange)
      .groupBy(crmTasks.dueDate),
    context.db
      .select({ id: ranked.id, title: ranked.title, dueDate: ranked.dueDate, dueTime: ranked.dueTime })
      .from(ranked)
      .where(lte(ranked.rank, MONTH_CELL_TITLES))
      .orderBy(asc(ranked.dueDate), asc(ranked.rank)),
    tasksWithLinks(context, userId)
      .where(ownedBy(crmTasks, userId, eq(crmTasks.dueDate, day)))
      .orderBy(...dueOrder)
      .limit(500),
    closingsQuery(context, userId, from, to),
    countsQuery(context, userId, now),
  ]);
  const cells: Record<string, DayCell> = {};
  for (const row of perDay) cells[row.dueDate] = { open: Number(row.open), overdue: Boolean(row.overdue), first: [] };
  for (const row of firsts) cells[row.dueDate]?.first.push({ id: row.id, title: row.title, dueTime: row.dueTime });
  return { cells, tasks: dayRows.map(toTaskItem), closings: dealRows.map(toClosing), counts: toCounts(counts) };
}

/** Deals with a closing date (or, without one, an expected close date) in the range, lost deals left out. */
export function closingsQuery(context: RequestContext, userId: UserId, from: string | null, to: string | null) {
  const day = sql<string>`coalesce(${deals.closingDate}, ${deals.expectedCloseDate})`;
  return context.db
    .select({ id: deals.id, title: deals.title, closingDate: deals.closingDate, expectedCloseDate: deals.expectedCloseDate, stage: deals.stage })
    .from(deals)
    .where(
      ownedBy(
        deals,
        userId,
        sql`${day} is not null`,
        from ? gte(day, from) : undefined,
        to ? lte(day, to) : undefined,
        // Only a deal in a lost stage has a lost reason (deals.server keeps it so).
        sql`${deals.lostReason} is null`,
      ),
    )
    .orderBy(asc(day))
    .limit(2_000);
}
export function toClosing(row: { id: string; title: string; closingDate: string | null; expectedCloseDate: string | null; stage: string }): Closing {
  return {
    dealId: row.id,
    title: row.title,
    date: (row.closingDate ?? row.expectedCloseDate)!,
    kind: row.closingDate ? "closing" : "expected",
    stage: row.stage,
  };
}

/** A contact's or deal's tasks: open ones by due date, then the 10 most recently completed. */
export async function tasksFor(context: RequestContext, userId: UserId, link: { contactId: string } | { dealId: string }): Promise<TaskItem[]> {
  const on = "contactId" in link ? eq(crmTasks.contactId, link.contactId) : eq(crmTasks.dealId, link.dealId);
  // Found through the contact's or deal's index (ownedByKeys): by the owner's indexes these read every open or every
  // completed task the agent has (3,336 and 5,000 rows on the bench's large account, for a contact with a few).
  const [openRows, doneRows] = await context.db.batch([
    tasksWithLinks(context, userId)
      .where(ownedByKeys(crmTasks, userId, and(on, open)!))
      .orderBy(...dueOrder)
      .limit(100),
    tasksWithLinks(context, userId)
      .where(ownedByKeys(crmTasks, userId, and(on, eq(crmTasks.status, "completed"))!))
      .orderBy(desc(crmTasks.completedAt))
      .limit(10),
  ]);
  return [...openRows, ...doneRows].map(toTaskItem);
}

export async function getTask(context: RequestContext, userId: UserId, id: string): Promise<Task | null> {
  return (
    (await context.db
      .select()
      .from(crmTasks)
      .where(ownedBy(crmTasks, userId, eq(crmTasks.id, id)))
      .get()) ?? null
  );
}

/** Whether the contact and the deal a task points at (each optional) are the user's own. */
async function linksOwned(context: RequestContext, userId: UserId, input: { contactId: string | null; dealId: string | null }) {
  const [contact, deal] = await Promise.all([
    input.contactId
      ? context.db
          .select({ id: contacts.id })
          .from(contacts)
          .where(ownedBy(contacts, userId, eq(contacts.id, input.contactId)))
          .get()
      : true,
    input.dealId
      ? context.db
          .select({ id: deals.id })
          .from(deals)
          .where(ownedBy(deals, userId, eq(deals.id, input.dealId)))
          .get()
      : true,
  ]);
  return { contact: Boolean(contact), deal: Boolean(deal) };
}

async function checkLinks(
  context: RequestContext,
  userId: UserId,
  input: { contactId: string | null; dealId: string | null },
): Promise<Record<string, string> | null> {
  const owned = await linksOwned(context, userId, input);
  if (!owned.contact) return { contactId: TASK_MESSAGES.contactUnknown };
  if (!owned.deal) return { dealId: TASK_MESSAGES.dealUnknown };
  return null;
}

/** `onBehalf`: a teammate adds it to the agent's list, re-checked in the same batch (a stale relationship: 404). */
export async function createTask(context: RequestContext, userId: UserId, input: TaskInput, id = newId(), onBehalf?: OnBehalf): Promise<TaskResult> {
  const refused = await checkLinks(context, userId, input);
  if (refused) return fail(refused);
  const insert = context.db
    .insert(crmTasks)
    .values({ ...input, id, userId })
    .returning();
  if (!onBehalf) return { ok: true, task: (await insert.get())! };
  const written = await guardedBatch(() => context.db.batch([requireInBatch(context.db, onBehalf.requires), insert]));
  return written.ok ? { ok: true, task: written.results[1][0]! } : fail({ contactId: TASK_MESSAGES.contactUnknown }, 404);
}

export async function updateTask(context: RequestContext, userId: UserId, id: string, input: TaskInput): Promise<TaskResult> {
  const refused = await checkLinks(context, userId, input);
  if (refused) return fail(refused);
  const task = await context.db
    .update(crmTasks)
    .set({ ...input, updatedAt: new Date() })
    .where(ownedBy(crmTasks, userId, eq(crmTasks.id, id)))
    .returning()
    .get();
  return task ? { ok: true, task } : fail({ id: TASK_MESSAGES.notFound }, 404);
}

/** Links a task to one of the user's contacts, or unlinks it (null): quick add's "Link to …" and "Unlink". */
export async function setTaskContact(
  context: RequestContext,
  userId: UserId,
  id: string,
  contactId: string | null,
): Promise<{ ok: true; task: Task; contactName: string | null } | { ok: false; status: 404; error: string }> {
  let contactName: string | null = null;
  if (contactId) {
    const contact = await context.db
      .select({ name: contacts.name })
      .from(contacts)
      .where(ownedBy(contacts, userId, eq(contacts.id, contactId)))
      .get();
    if (!contact) return { ok: false, status: 404, error: TASK_MESSAGES.contactUnknown };
    contactName = contact.name;
  }
  const task = await context.db
    .update(crmTasks)
    .set({ contactId, updatedAt: new Date() })
    .where(ownedBy(crmTasks, userId, eq(crmTasks.id, id)))
    .returning()
    .get();
  return task ? { ok: true, task, contactName } : { ok: false, status: 404, error: TASK_MESSAGES.notFound };
}

export interface CompleteOptions {
  /** Also log an activity for the contact/deal: its type (default by the task's type), outcome and notes. */
  log?: { type?: ActivityType; outcome: string | null; notes: string | null } | null;
  at?: Date;
  /** A teammate completes it in the agent's account: re-checked in the same batch. */
  onBehalf?: OnBehalf;
}
export type CompleteResult =
  | { ok: true; task: Task; nextTaskId: string | null; activityId: string | null }
  | { ok: false; status: 404; error: string };

/**
 * Completes an open task in one batch: marks it done, creates the next occurrence of a repeating task, and
 * (if asked) logs the activity. The ids come back so an undo can take all of it back.
 */
export async function completeTask(context: RequestContext, userId: UserId, id: string, options: CompleteOptions = {}): Promise<CompleteResult> {
  const task = await getTask(context, userId, id);
  if (!task || task.status !== "open") return { ok: false, status: 404, error: TASK_MESSAGES.notFound };
  const at = options.at ?? new Date();
  const now = await userNow(context, userId, at);
  const nextTaskId = task.repeat ? newId() : null;
  const activityId = options.log && (task.contactId || task.dealId) ? newId() : null;
  const statements: BatchItem<"sqlite">[] = [];
  statements.push(
    context.db
      .update(crmTasks)
      .set({ status: "completed", completedAt: at, updatedAt: at })
      .where(ownedBy(crmTasks, userId, eq(crmTasks.id, id), open)),
  );
  if (task.repeat && nextTaskId) {
    const next: NewTask = {
      id: nextTaskId,
      userId,
      contactId: task.contactId,
      dealId: task.dealId,
      title: task.title,
      notes: task.notes,
      type: task.type,
      priority: task.priority,
      dueDate: nextOccurrence(task.dueDate, task.repeat, now.date),
      dueTime: task.dueTime,
      repeat: task.repeat,
      repeatOf: task.id,
    };
    statements.push(context.db.insert(crmTasks).values(next));
  }
  if (activityId && options.log) {
    statements.push(
      context.db.insert(crmActivities).values({
        id: activityId,
        userId,
        contactId: task.contactId,
        dealId: task.dealId,
        taskId: task.id,
        type: options.log.type ?? ACTIVITY_FOR_TASK[task.type],
        occurredAt: at,
        outcome: options.log.outcome,
        notes: options.log.notes ?? task.title,
      }),
    );
  }
  if (options.onBehalf) statements.unshift(requireInBatch(context.db, options.onBehalf.requires));
  const written = await guardedBatch(() => context.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]));
  if (!written.ok) return { ok: false, status: 404, error: TASK_MESSAGES.notFound };
  return { ok: true, task: { ...task, status: "completed", completedAt: at }, nextTaskId, activityId };
}

/**
 * Undo of a completion: reopens the task and removes what completing it created, but only the next
 * occurrence that is still open and untouched, and only the activity that this task logged.
 */
export async function reopenTask(
  context: RequestContext,
  userId: UserId,
  id: string,
  created: { nextTaskId?: string | null; activityId?: string | null } = {},
): Promise<TaskResult> {
  const statements: BatchItem<"sqlite">[] = [];
  if (created.nextTaskId) {
    statements.push(
      context.db.delete(crmTasks).where(ownedBy(crmTasks, userId, eq(crmTasks.id, created.nextTaskId), eq(crmTasks.repeatOf, id), open)),
    );
  }
  if (created.activityId) {
    statements.push(
      context.db.delete(crmActivities).where(ownedBy(crmActivities, userId, eq(crmActivities.id, created.activityId), eq(crmActivities.taskId, id))),
    );
  }
  const reopen = context.db
    .update(crmTasks)
    .set({ status: "open", completedAt: null, updatedAt: new Date() })
    .where(ownedBy(crmTasks, userId, eq(crmTasks.id, id), eq(crmTasks.status, "completed")))
    .returning();
  const results = await context.db.batch([reopen, ...statements]);
  const task = (results[0] as Task[])[0];
  return task ? { ok: true, task } : fail({ id: TASK_MESSAGES.notFound }, 404);
}

/** Deletes the user's task: it moves to the trash for 30 days (ADR 0028). Returns the trash id for an undo, or null. */
export async function deleteTask(context: RequestContext, userId: UserId, id: string, where: AuditWhere): Promise<string | null> {
  return (await moveToTrash(context.cloudflare.env.DB, userId, "task", [id], Date.now(), where)).trashIds[0] ?? null;
}

/** Undo of a delete: the task comes back from the trash with its id; links to what is gone since come back empty. */
export async function restoreTask(context: RequestContext, userId: UserId, trashId: string, where: AuditWhere): Promise<TaskResult> {
  const { items } = await restoreFromTrash(context.cloudflare.env.DB, userId, [trashId], "task", where);
  const task = items[0] ? await getTask(context, userId, items[0]) : null;
  return task ? { ok: true, task } : fail({ id: TASK_MESSAGES.notFound }, 404);
}
