import { and, eq, gte, or } from "drizzle-orm";
import ical from "ical-generator";
import { calendarFeeds, crmTasks, userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { DEFAULT_DISPLAY_PREFERENCES } from "~/lib/format";
import { sha256 } from "~/lib/crypto";
import { newKeyOn, requestShard, routeRequestByKey, shardOfKey } from "~/lib/shards.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { localNow, instantOf } from "./due";
import { TASK_PRIORITY_LABELS, TASK_TYPE_LABELS, type TaskItem } from "./task.schema";
import { closingsQuery, toClosing, toTaskItem, tasksWithLinks } from "./tasks.server";

// The private calendar feed: /api/calendar/<secret>.ics, read by Google, Apple or Outlook calendar. The URL's
// secret is the only key, so it is 256 random bits and only its SHA-256 is stored: the URL is shown once,
// when it is made, and resetting or turning the feed off makes the old URL answer 404 at once. The secret of an
// account on shard n begins "s<n>_" (ADR 0060), so a calendar app's request reads that database only; the prefix is
// part of what is hashed, so a secret with its prefix changed opens nothing anywhere.

const SECRET_BYTES = 32;

const PAST_DAYS = 90;
const TIMED_TASK_MINUTES = 30;
/** Calendars that honour it poll hourly; Google decides for itself. */
const REFRESH_SECONDS = 3600;

export function calendarFeedPath(token: string) {
  return `/api/calendar/${token}.ics`;
}

export async function getCalendarFeed(context: RequestContext, userId: UserId): Promise<{ createdAt: Date } | null> {
  return (await context.db.select({ createdAt: calendarFeeds.createdAt }).from(calendarFeeds).where(ownedBy(calendarFeeds, userId)).get()) ?? null;
}

/** Makes a new feed URL, replacing (and so revoking) any earlier one. Returns the secret, shown once. */
export async function createCalendarFeed(context: RequestContext, userId: UserId): Promise<string> {
  const token = newKeyOn(requestShard(context.cloudflare.env), SECRET_BYTES);
  const tokenHash = await sha256(token);
  await context.db
    .insert(calendarFeeds)
    .values({ userId, tokenHash })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: new Date() } });
  return token;
}

export async function revokeCalendarFeed(context: RequestContext, userId: UserId): Promise<boolean> {
  return Boolean(await context.db.delete(calendarFeeds).where(ownedBy(calendarFeeds, userId)).returning({ userId: calendarFeeds.userId }).get());
}

function describe(task: TaskItem) {
  return [
    `${TASK_TYPE_LABELS[task.type]} · ${TASK_PRIORITY_LABELS[task.priority]} priority`,
    task.contactName ? `Contact: ${task.contactName}` : null,
    task.dealTitle ? `Deal: ${task.dealTitle}` : null,
    task.notes,
  ]
    .filter(Boolean)
    .join("\n");
}

/** An all-day event's date: ical-generator writes all-day dates from the UTC fields. */
const allDay = (day: string) => new Date(`${day}T00:00:00Z`);

export interface FeedOwner {
  userId: UserId;
  timezone: string;
}

/** Whose feed the secret `token` opens, or null if none does; the request is routed to the secret's database first. */
export async function findCalendarFeed(context: RequestContext, token: string): Promise<FeedOwner | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  if (!routeRequestByKey(context.cloudflare.env, shardOfKey(token, SECRET_BYTES))) return null;
  const feed = await context.db
    .select({ userId: calendarFeeds.userId, timezone: userPreferences.timezone })
    .from(calendarFeeds)
    .leftJoin(userPreferences, eq(userPreferences.userId, calendarFeeds.userId))
    .where(eq(calendarFeeds.tokenHash, await sha256(token)))
    .get();
  return feed ? { userId: feed.userId as UserId, timezone: feed.timezone ?? DEFAULT_DISPLAY_PREFERENCES.timezone } : null;
}

/**
 * The iCalendar text of a feed: open tasks from the last 90 days on, tasks completed in that time (marked ✓),
 * and the closing dates of deals not lost. Timed tasks are 30-minute events at their time in the user's
 * timezone (written in UTC); the rest are all-day events.
 */
export async function renderCalendarFeed(context: RequestContext, feed: FeedOwner, origin: string): Promise<string> {
  const { userId } = feed;
  const timezone = feed.timezone;
  const today = localNow(timezone).date;
  const from = new Date(`${today}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - PAST_DAYS);
  const since = from.toISOString().slice(0, 10);

  const [taskRows, dealRows] = await context.db.batch([
    tasksWithLinks(context, userId)
      .where(
        ownedBy(
          crmTasks,
          userId,
          or(and(eq(crmTasks.status, "open"), gte(crmTasks.dueDate, since)), and(eq(crmTasks.status, "completed"), gte(crmTasks.completedAt, from))),
        ),
      )
      .orderBy(crmTasks.dueDate)
      .limit(5_000),
    closingsQuery(context, userId, since, null),
  ]);

  const calendar = ical({
    name: "Porchlight tasks and closings",
    prodId: { company: "Porchlight", product: "CRM", language: "EN" },
    ttl: REFRESH_SECONDS,
  });
  for (const task of taskRows.map(toTaskItem)) {
    const done = task.status === "completed";
    const summary = `${done ? "✓ " : ""}${task.title}`;
    const common = {
      id: `task-${task.id}@porchlight`,
      summary,
      description: describe(task),
      url: `${origin}/tasks?view=${done ? "completed" : "upcoming"}`,
    };
    if (task.dueTime) {
      const start = instantOf(task.dueDate, task.dueTime, timezone);
      calendar.createEvent({ ...common, start, end: new Date(start.getTime() + TIMED_TASK_MINUTES * 60_000) });
    } else {
      calendar.createEvent({ ...common, start: allDay(task.dueDate), allDay: true });
    }
  }
  for (const closing of dealRows.map(toClosing)) {
    calendar.createEvent({
      id: `deal-${closing.dealId}-close@porchlight`,
      summary: `${closing.kind === "closing" ? "Closing" : "Expected close"}: ${closing.title}`,
      start: allDay(closing.date),
      allDay: true,
      url: `${origin}/deals/${closing.dealId}`,
    });
  }
  return calendar.toString();
}
