import { addDays, DAY_MS } from "~/lib/dates";
import { and, asc, desc, eq, gt, gte, inArray, lte, or, sql } from "drizzle-orm";
import * as z from "zod";
import { contacts, crmActivities, crmTasks, deals, syncLog, syncMarks, type Contact } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy, ownedByKeys } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { loadCommissionContext } from "~/modules/commissions/commissions.server";

import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { localNow } from "~/modules/tasks/due";
import { tasksWithLinks } from "~/modules/tasks/tasks.server";
import { FIELD_COPY_LIMITS as LIMITS, type FieldActivity, type FieldContact, type FieldDeal, type FieldSync, type FieldTask } from "./field-copy";

// The field copy's sync (ADR 0031). The cursor names the last change-log entry the phone has seen, the
// agent's day then, and a digest of the open deals it holds. The next sync sends the contacts and tasks changed
// since (from sync_log, kept by triggers), the open deals again only when their digest changed, and everything
// when the day changed (the task window and "touched in the last 30 days" move with it), the cursor is older than
// the pruned log, or more rows changed than a full copy would send.

const CURSOR_VERSION = 1;
const CursorSchema = z.object({
  v: z.literal(CURSOR_VERSION),
  s: z.number().int().min(0),
  d: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  h: z.string().max(64),
});
type Cursor = z.infer<typeof CursorSchema>;

/** The change log is kept this long; a phone that last synced before that gets a full copy. */
const SYNC_LOG_DAYS = 30;
/** Past this many changed rows a delta is no smaller than the copy: send the copy. */
const MAX_DELTA_ROWS = 3_000;

export function encodeCursor(cursor: Omit<Cursor, "v">): string {
  return btoa(JSON.stringify({ v: CURSOR_VERSION, ...cursor }))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The cursor a phone sent, or null when there is none or it cannot be read (the phone then gets a full copy). */
export function decodeCursor(raw: string | null | undefined): Cursor | null {
  if (!raw || raw.length > 400) return null;
  try {
    const parsed = CursorSchema.safeParse(JSON.parse(atob(raw.replace(/-/g, "+").replace(/_/g, "/"))));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Ids as one JSON parameter (D1 allows 100 bound parameters; a copy may name hundreds of rows). */
const inJson = (column: Parameters<typeof sql>[1], ids: readonly string[]) => sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;

function toFieldContact(row: Contact, activities: FieldActivity[]): FieldContact {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    status: row.status,
    budgetMin: row.budgetMin,
    budgetMax: row.budgetMax,
    propertyType: row.propertyType,
    location: row.location,
    notes: row.notes,
    tags: row.tags,
    leadScore: row.leadScore,
    lastActivity: row.lastActivity.getTime(),
    activities,
  };
}

/** The last activities of each contact, newest first, in one query. */
async function activitiesOf(context: RequestContext, userId: UserId, contactIds: readonly string[]): Promise<Map<string, FieldActivity[]>> {
  const byContact = new Map<string, FieldActivity[]>(contactIds.map((id) => [id, []]));
  if (contactIds.length === 0) return byContact;
  const ranked = context.db
    .select({
      id: crmActivities.id,
      contactId: crmActivities.contactId,
      type: crmActivities.type,
      occurredAt: crmActivities.occurredAt,
      outcome: crmActivities.outcome,
      notes: crmActivities.notes,
      dealId: crmActivities.dealId,
      rank: sql<number>`row_number() over (partition by ${crmActivities.contactId} order by ${crmActivities.occurredAt} desc, ${crmActivities.id} desc)`.as(
        "rank",
      ),
    })
    .from(crmActivities)
    .where(ownedByKeys(crmActivities, userId, inJson(crmActivities.contactId, contactIds)))
    .as("ranked");
  const rows = await context.db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, LIMITS.activitiesPerContact))
    .orderBy(asc(ranked.contactId), asc(ranked.rank));
  for (const row of rows) {
    byContact
      .get(row.contactId!)
      ?.push({ id: row.id, type: row.type, occurredAt: row.occurredAt.getTime(), outcome: row.outcome, notes: row.notes, dealId: row.dealId });
  }
  return byContact;
}

/** Whether a contact belongs in the copy: hot or warm, or touched in the last 30 days. */
const inContactScope = (row: Pick<Contact, "status" | "lastActivity">, touchedSince: number) =>
  row.status === "hot" || row.status === "warm" || row.lastActivity.getTime() >= touchedSince;

const toFieldTask = ({ task, contactName }: { task: typeof crmTasks.$inferSelect; contactName: string | null }): FieldTask => ({
  id: task.id,
  title: task.title,
  notes: task.notes,
  type: task.type,
  priority: task.priority,
  dueDate: task.dueDate,
  dueTime: task.dueTime,
  contactId: contactName === null ? null : task.contactId,
  contactName,
});

/** Every open deal with its net, and a digest of them and the stages (a plan or stage change alters it too). */
async function openDeals(context: RequestContext, userId: UserId) {
  const commissions = await loadCommissionContext(context, userId);
  const openKeys = commissions.stages.filter((s) => s.kind === "open").map((s) => s.key);
  const rows = await context.db
    .select({ deal: deals, contactName: contacts.name })
    .from(deals)
    .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
    .where(ownedBy(deals, userId, inArray(deals.stage, openKeys)))
    .orderBy(sql`${deals.expectedCloseDate} is null`, asc(deals.expectedCloseDate), asc(deals.id))
    .limit(LIMITS.deals + 1);
  const all: FieldDeal[] = rows.slice(0, LIMITS.deals).map(({ deal, contactName }) => ({
    id: deal.id,
    title: deal.title,
    stage: deal.stage,
    contactId: contactName === null ? null : deal.contactId,
    contactName,
    dealValueCents: deal.dealValueCents,
    expectedCloseDate: deal.expectedCloseDate,
    netCents: commissions.breakdownFor(deal).netCents,
  }));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify([all, commissions.stages]))));
  const hash = btoa(String.fromCharCode(...digest.slice(0, 18)));
  return { all, stages: commissions.stages, hash, truncated: rows.length > LIMITS.deals };
}

/** The newest mark taken SYNC_LOG_DAYS or more before `now`: the log is pruned up to it. */
function pruneMark(context: Pick<RequestContext, "db">, now: number) {
  return context.db
    .select({ at: syncMarks.at, seq: syncMarks.seq })
    .from(syncMarks)
    .where(lte(syncMarks.at, now - SYNC_LOG_DAYS * DAY_MS))
    .orderBy(desc(syncMarks.at))
    .limit(1)
    .get();
}

/** The oldest cursor the pruned log can still answer. */
async function logFloor(context: RequestContext, now: number): Promise<number> {
  return (await pruneMark(context, now))?.seq ?? 0;
}

/**
 * The agent's field copy: all of it (no cursor, a cursor that cannot be used) or what changed since the cursor.
 * Every read is owner-scoped; the log is read up to the seq taken first, so a change made while this runs is sent
 * next time rather than lost.
 */
export async function fieldSync(context: RequestContext, userId: UserId, rawCursor: string | null, now = Date.now()): Promise<FieldSync> {
  const [prefs, top] = await Promise.all([
    getDisplayPreferences(context, userId),
    context.db
      .select({ seq: sql<number | null>`max(${syncLog.seq})` })
      .from(syncLog)
      .get(),
  ]);
  const maxSeq = top?.seq ?? 0;
  const today = localNow(prefs.timezone, new Date(now)).date;
  const horizon = addDays(today, LIMITS.taskDays);
  const touchedSince = now - LIMITS.touchedDays * DAY_MS;
  const cursor = decodeCursor(rawCursor);
  const dealsNow = await openDeals(context, userId);
  const base = {
    savedAt: now,
    today,
    timezone: prefs.timezone,
    currency: prefs.currency,
    dateFormat: prefs.dateFormat,
    timeFormat: prefs.timeFormat,
  };
  const next = (h: string) => encodeCursor({ s: maxSeq, d: today, h });

  let changed: { kind: string; rowId: string; contactId: string | null }[] | null = null;
  if (cursor && cursor.d === today && cursor.s <= maxSeq && cursor.s >= (await logFloor(context, now))) {
    changed = await context.db
      .select({ kind: syncLog.kind, rowId: syncLog.rowId, contactId: syncLog.contactId })
      .from(syncLog)
      .where(and(eq(syncLog.userId, userId), gt(syncLog.seq, cursor.s), lte(syncLog.seq, maxSeq)))
      .limit(MAX_DELTA_ROWS + 1);
    if (changed.length > MAX_DELTA_ROWS) changed = null;
  }

  if (changed === null) {
    const contactRows = await context.db
      .select()
      .from(contacts)
      .where(ownedBy(contacts, userId, or(inArray(contacts.status, ["hot", "warm"]), gte(contacts.lastActivity, new Date(touchedSince)))))
      .orderBy(desc(contacts.lastActivity), asc(contacts.id))
      .limit(LIMITS.contacts + 1);
    const kept = contactRows.slice(0, LIMITS.contacts);
    const [activities, tasks] = await Promise.all([
      activitiesOf(
        context,
        userId,
        kept.map((c) => c.id),
      ),
      tasksWithLinks(context, userId)
        .where(ownedBy(crmTasks, userId, eq(crmTasks.status, "open"), lte(crmTasks.dueDate, horizon)))
        .orderBy(asc(crmTasks.dueDate), asc(sql`coalesce(${crmTasks.dueTime}, '')`), asc(crmTasks.id))
        .limit(LIMITS.tasks + 1),
    ]);
    return {
      ...base,
      cursor: next(dealsNow.hash),
      full: true,
      contacts: { upsert: kept.map((c) => toFieldContact(c, activities.get(c.id) ?? [])), remove: [] },
      tasks: { upsert: tasks.slice(0, LIMITS.tasks).map(toFieldTask), remove: [] },
      deals: { all: dealsNow.all, stages: dealsNow.stages },
      truncated: { contacts: contactRows.length > LIMITS.contacts, tasks: tasks.length > LIMITS.tasks, deals: dealsNow.truncated },
    };
  }

  // The delta: contacts changed, or whose activities changed (their list is sent again whole), and tasks changed.
  const contactIds = [
    ...new Set(changed.flatMap((c) => (c.kind === "contact" ? [c.rowId] : c.kind === "activity" && c.contactId ? [c.contactId] : []))),
  ];
  const taskIds = [...new Set(changed.filter((c) => c.kind === "task").map((c) => c.rowId))];
  const [contactRows, taskList] = await Promise.all([
    contactIds.length
      ? context.db
          .select()
          .from(contacts)
          .where(ownedByKeys(contacts, userId, inJson(contacts.id, contactIds)))
      : Promise.resolve([]),
    taskIds.length ? tasksWithLinks(context, userId).where(ownedByKeys(crmTasks, userId, inJson(crmTasks.id, taskIds))) : Promise.resolve([]),
  ]);
  const inScope = contactRows.filter((c) => inContactScope(c, touchedSince));
  const activities = await activitiesOf(
    context,
    userId,
    inScope.map((c) => c.id),
  );
  const keptContacts = new Set(inScope.map((c) => c.id));
  const keptTasks = taskList.filter(({ task }) => task.status === "open" && task.dueDate <= horizon);
  const keptTaskIds = new Set(keptTasks.map(({ task }) => task.id));
  return {
    ...base,
    cursor: next(dealsNow.hash),
    full: false,
    contacts: { upsert: inScope.map((c) => toFieldContact(c, activities.get(c.id) ?? [])), remove: contactIds.filter((id) => !keptContacts.has(id)) },
    tasks: { upsert: keptTasks.map(toFieldTask), remove: taskIds.filter((id) => !keptTaskIds.has(id)) },
    deals: dealsNow.hash === cursor!.h ? null : { all: dealsNow.all, stages: dealsNow.stages },
    truncated: { contacts: false, tasks: false, deals: dealsNow.truncated },
  };
}

/** The cron notes the log's high-water mark at most this often. */
const MARK_EVERY_MS = 3_600_000;

/**
 * The cron's upkeep of the log: notes its high-water mark (hourly), and deletes the entries up to the mark taken
 * SYNC_LOG_DAYS ago (a phone that has not synced since gets a full copy), and the marks older than that one.
 */
export async function pruneSyncLog(context: Pick<RequestContext, "db">, now = Date.now()): Promise<number> {
  const db = context.db;
  const [top, latest] = await Promise.all([
    db
      .select({ seq: sql<number | null>`max(${syncLog.seq})` })
      .from(syncLog)
      .get(),
    db
      .select({ at: sql<number | null>`max(${syncMarks.at})` })
      .from(syncMarks)
      .get(),
  ]);
  if (latest?.at == null || now - latest.at >= MARK_EVERY_MS)
    await db
      .insert(syncMarks)
      .values({ at: now, seq: top?.seq ?? 0 })
      .onConflictDoNothing();
  const floor = await pruneMark(context, now);
  if (!floor) return 0;
  const [removed] = await db.batch([
    db.delete(syncLog).where(lte(syncLog.seq, floor.seq)),
    db.delete(syncMarks).where(sql`${syncMarks.at} < ${floor.at}`),
  ]);
  return removed.meta.changes ?? 0;
}
