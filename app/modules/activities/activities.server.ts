import { and, desc, eq, inArray, lt, notInArray, or, type SQL } from "drizzle-orm";
import { SYSTEM_ACTIVITY_TYPES, type ActivityType } from "~/db/enums";
import { contacts, crmActivities, deals, type Activity } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { ownedBy } from "~/lib/tenancy.server";
import { guardedBatch, requireInBatch, type OnBehalf } from "~/db/write-guard.server";
import type { UserId } from "~/modules/auth/session.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { instantOf } from "~/modules/tasks/due";
import { fieldErrors } from "~/lib/schema-fields";
import { SUBMISSION_KEY_FIELD } from "~/modules/sync/submission-key";
import { once, readSubmissionKey } from "~/modules/sync/submissions.server";
import { ACTIVITY_MESSAGES, ActivityInputSchema, TIMELINE_PAGE_SIZE, type ActivityInput, type ActivityItem } from "./activity.schema";

// crm_activities: logging by hand, stage changes written by the pipeline, the timelines and the feed.
// contacts.last_activity follows the latest activity through triggers (migration 0008).

export interface StageChange {
  dealId: string;
  contactId: string | null;
  from: { key: string; name: string };
  to: { key: string; name: string };
  lostReason?: string | null;
  /** A teammate who moved the deal for its agent (the team pipeline), by name. */
  by?: string | null;
}

/** The insert for a stage change, to run in the same batch as the move itself. */
export function stageChangeInsert(context: RequestContext, userId: UserId, change: StageChange, at = new Date()) {
  return context.db.insert(crmActivities).values({
    id: newId(),
    userId,
    dealId: change.dealId,
    contactId: change.contactId,
    type: "stage_change",
    occurredAt: at,
    notes: change.lostReason ?? null,
    meta: {
      from: change.from.key,
      fromName: change.from.name,
      to: change.to.key,
      toName: change.to.name,
      lostReason: change.lostReason ?? null,
      ...(change.by ? { by: change.by } : {}),
    },
  });
}

/** Activities with their contact's name and deal's title; each join repeats the owner test. */
function activitiesWithLinks(context: RequestContext, userId: UserId) {
  return context.db
    .select({ activity: crmActivities, contactName: contacts.name, dealTitle: deals.title })
    .from(crmActivities)
    .leftJoin(contacts, and(eq(contacts.id, crmActivities.contactId), eq(contacts.userId, userId)))
    .leftJoin(deals, and(eq(deals.id, crmActivities.dealId), eq(deals.userId, userId)));
}

function toActivityItem(row: { activity: Activity; contactName: string | null; dealTitle: string | null }): ActivityItem {
  const { activity } = row;
  return {
    id: activity.id,
    type: activity.type,
    occurredAt: activity.occurredAt.getTime(),
    outcome: activity.outcome,
    notes: activity.notes,
    contactId: row.contactName === null ? null : activity.contactId,
    contactName: row.contactName,
    dealId: row.dealTitle === null ? null : activity.dealId,
    dealTitle: row.dealTitle,
    taskId: activity.taskId,
    meta: activity.meta ?? null,
  };
}

export type ActivityResult = { ok: true; activity: Activity } | { ok: false; status: 400 | 404; error: string; fieldErrors: Record<string, string> };

/**
 * Logs an activity. The contact and deal must be the user's; an activity on a deal without a chosen contact
 * is also the deal's contact's, so it shows on their timeline and counts as their latest activity.
 */
/**
 * `as`: the type written, when Porchlight records the activity itself (a sync conflict) instead of the agent's choice.
 * `onBehalf`: a teammate logs it in the agent's account (meta.by names them), re-checked in the same batch.
 */
export async function logActivity(
  context: RequestContext,
  userId: UserId,
  input: ActivityInput,
  id = newId(),
  as: ActivityType = input.type,
  onBehalf?: OnBehalf,
): Promise<ActivityResult> {
  const refuse = (field: string, error: string): ActivityResult => ({ ok: false, status: 400, error, fieldErrors: { [field]: error } });
  const [contact, deal, prefs] = await Promise.all([
    input.contactId
      ? context.db
          .select({ id: contacts.id })
          .from(contacts)
          .where(ownedBy(contacts, userId, eq(contacts.id, input.contactId)))
          .get()
      : null,
    input.dealId
      ? context.db
          .select({ id: deals.id, contactId: deals.contactId })
          .from(deals)
          .where(ownedBy(deals, userId, eq(deals.id, input.dealId)))
          .get()
      : null,
    getDisplayPreferences(context, userId),
  ]);
  if (input.contactId && !contact) return refuse("contactId", ACTIVITY_MESSAGES.contactUnknown);
  if (input.dealId && !deal) return refuse("dealId", ACTIVITY_MESSAGES.dealUnknown);
  const insert = context.db
    .insert(crmActivities)
    .values({
      id,
      userId,
      type: as,
      contactId: input.contactId ?? deal?.contactId ?? null,
      dealId: input.dealId,
      occurredAt: occurredAt(input, prefs.timezone),
      outcome: input.outcome,
      notes: input.notes,
      ...(onBehalf ? { meta: { by: onBehalf.by } } : {}),
    })
    .returning();
  if (!onBehalf) return { ok: true, activity: (await insert.get())! };
  const written = await guardedBatch(() => context.db.batch([requireInBatch(context.db, onBehalf.requires), insert]));
  return written.ok
    ? { ok: true, activity: written.results[1][0]! }
    : { ok: false, status: 404, error: ACTIVITY_MESSAGES.contactUnknown, fieldErrors: {} };
}

export type LogFormResult = { ok: true; id: string } | { ok: false; status: 400 | 404; error: string; fieldErrors: Record<string, string> };

/**
 * The log-activity form (the dialog, a saved AI draft): checked by its schema, logged once per submission key
 * (submissions.server.ts, ADR 0051), so a retry after a slow answer is answered with the first activity.
 */
export async function logActivityFromForm(context: RequestContext, userId: UserId, form: FormData): Promise<LogFormResult> {
  const parsed = ActivityInputSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return { ok: false, status: 400, error: Object.values(errors)[0] ?? ACTIVITY_MESSAGES.saveFailed, fieldErrors: errors };
  }
  const submission = readSubmissionKey(form.get(SUBMISSION_KEY_FIELD));
  if ("error" in submission) return { ok: false, status: 400, error: submission.error, fieldErrors: {} };
  return once<LogFormResult>(
    context,
    userId,
    "activity",
    submission.key,
    async (id) => {
      const result = await logActivity(context, userId, parsed.data, id);
      return result.ok
        ? { ok: true, id: result.activity.id }
        : { ok: false, status: result.status, error: result.error, fieldErrors: result.fieldErrors };
    },
    async (id) => {
      const found = await context.db
        .select({ id: crmActivities.id })
        .from(crmActivities)
        .where(ownedBy(crmActivities, userId, eq(crmActivities.id, id)))
        .get();
      return found ? { ok: true, id: found.id } : null;
    },
  );
}

/**
 * When the activity happened. The form gives a minute; an activity logged "now" gets the exact time, so it
 * sorts after what was logged earlier in the same minute. "Now" is this minute or the one before: the dialog
 * fills in the minute it opened, and saving it can cross into the next one. Dating it at the start of that
 * minute put it before a task completed seconds earlier (tests/e2e/tasks.spec.ts failed on it once in five
 * runs: ADR 0020).
 */
export function occurredAt(input: Pick<ActivityInput, "date" | "time">, timezone: string, now = new Date()): Date {
  const at = instantOf(input.date, input.time ?? "12:00", timezone);
  const sinceStart = now.getTime() - at.getTime();
  return sinceStart >= 0 && sinceStart < LOGGED_NOW_MS ? now : at;
}
const LOGGED_NOW_MS = 2 * 60_000;

/** Deletes a logged activity. Stage changes stay: they are the deal's history. */
export async function deleteActivity(context: RequestContext, userId: UserId, id: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const deleted = await context.db
    .delete(crmActivities)
    .where(ownedBy(crmActivities, userId, eq(crmActivities.id, id), notInArray(crmActivities.type, [...SYSTEM_ACTIVITY_TYPES])))
    .returning({ id: crmActivities.id })
    .get();
  if (deleted) return { ok: true };
  const exists = await context.db
    .select({ type: crmActivities.type })
    .from(crmActivities)
    .where(ownedBy(crmActivities, userId, eq(crmActivities.id, id)))
    .get();
  return { ok: false, error: exists ? ACTIVITY_MESSAGES.stageChangeLocked : ACTIVITY_MESSAGES.notFound };
}

export interface TimelinePage {
  activities: ActivityItem[];
  /** Pass back as `before` for the next page, or null at the end. */
  nextCursor: string | null;
}

/**
 * A timeline, newest first: a contact's, a deal's, or (no link) all of the user's, the recent-activity feed.
 * `types` filters; `before` is the cursor of the previous page ("<occurredAt>:<id>").
 */
export async function timeline(
  context: RequestContext,
  userId: UserId,
  options: { contactId?: string; dealId?: string; types?: ActivityType[]; before?: string | null; limit?: number } = {},
): Promise<TimelinePage> {
  const limit = options.limit ?? TIMELINE_PAGE_SIZE;
  const conditions: (SQL | undefined)[] = [];
  if (options.contactId) conditions.push(eq(crmActivities.contactId, options.contactId));
  if (options.dealId) conditions.push(eq(crmActivities.dealId, options.dealId));
  if (options.types?.length) conditions.push(inArray(crmActivities.type, options.types));
  const cursor = parseCursor(options.before);
  if (cursor) {
    conditions.push(or(lt(crmActivities.occurredAt, cursor.at), and(eq(crmActivities.occurredAt, cursor.at), lt(crmActivities.id, cursor.id))));
  }
  const rows = await activitiesWithLinks(context, userId)
    .where(ownedBy(crmActivities, userId, ...conditions))
    .orderBy(desc(crmActivities.occurredAt), desc(crmActivities.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map(toActivityItem);
  const last = page.at(-1);
  return { activities: page, nextCursor: rows.length > limit && last ? `${last.occurredAt}:${last.id}` : null };
}

function parseCursor(value: string | null | undefined): { at: Date; id: string } | null {
  const match = value ? /^(\d{1,15}):([\w-]{1,64})$/.exec(value) : null;
  return match ? { at: new Date(Number(match[1])), id: match[2]! } : null;
}
