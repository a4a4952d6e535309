import type { Db } from "~/db/client.server";
import { auditEvents } from "~/db/schema";
import type { AuditAction } from "~/db/enums";
import { newId } from "~/lib/crypto";
import { userName } from "~/modules/team/names.server";

// Writing the audit log (ADR 0073). An action that is a batch puts `auditStatement(...)` in that batch, so it lands
// with the action or not at all; a single write calls `recordAudit(...)` once it has succeeded. The request context has
// no request, so "from where" travels explicitly as an AuditWhere read once from the request (`auditWhere`).

/** Where an action came from: the client's address and Cloudflare's reading of its place, and its browser. */
export interface AuditWhere {
  ip: string | null;
  country: string | null;
  city: string | null;
  userAgent: string | null;
}

/** The user agent is kept to this many characters. */
const USER_AGENT_MAX = 256;

/** A request's AuditWhere: CF-Connecting-IP, request.cf's country and city, the User-Agent (truncated). */
export function auditWhere(request: Request): AuditWhere {
  const cf = (request as Request & { cf?: { country?: unknown; city?: unknown } }).cf;
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 100) : null);
  return {
    ip: str(request.headers.get("CF-Connecting-IP")),
    country: str(cf?.country),
    city: str(cf?.city),
    userAgent: request.headers.get("User-Agent")?.slice(0, USER_AGENT_MAX) || null,
  };
}

/** A work done by Porchlight itself (a cron, a job): no one's address. */
export const SYSTEM_WHERE: AuditWhere = { ip: null, country: null, city: null, userAgent: null };

/** A person in a row: their id and the name they went by then (kept when the account is gone). */
export interface AuditPerson {
  id: string;
  label: string;
}

/** What a row says. `at` is the action's own clock. */
export interface AuditEventInput {
  action: AuditAction;
  /** The team whose log shows it; null for a user's own security events. */
  teamId: string | null;
  /** Who did it; null for Porchlight itself. */
  actor: AuditPerson | null;
  /** Whose account it concerns. */
  subject?: AuditPerson | null;
  /** What it was done to besides the subject, with a label that reads after it is gone. */
  target?: { type: string; id: string | null; label: string } | null;
  /** From → to and counts; never ids, secrets or free text from others. */
  details?: Record<string, unknown> | null;
  where: AuditWhere;
  at: number | Date;
}

/** The name a user goes by now, for a row's label ("A teammate" for none). */
export async function auditPerson(db: Db, userId: string, fallback = "A teammate"): Promise<AuditPerson> {
  return { id: userId, label: await userName(db, userId, fallback) };
}

/** The row's insert, for the action's own batch (db.batch / guardedBatch): it lands with the action or not at all. */
export function auditStatement(context: { db: Db }, event: AuditEventInput) {
  return context.db.insert(auditEvents).values({
    id: newId(),
    teamId: event.teamId,
    actorId: event.actor?.id ?? null,
    actorLabel: event.actor?.label ?? null,
    subjectUserId: event.subject?.id ?? null,
    subjectLabel: event.subject?.label ?? null,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    targetLabel: event.target?.label ?? null,
    details: event.details ?? null,
    ip: event.where.ip,
    country: event.where.country,
    city: event.where.city,
    userAgent: event.where.userAgent,
    createdAt: new Date(event.at),
  });
}

/** Writes one row on its own, after a single write has succeeded. */
export async function recordAudit(context: { db: Db }, event: AuditEventInput): Promise<void> {
  await auditStatement(context, event);
}

/** One setting's change, in words: "lead mode" from "Pond" to "Round robin". */
export interface SettingChange {
  setting: string;
  from: string;
  to: string;
}

/**
 * The audit row of a team settings form (lead mode, claim window, lead form, commission plan, visibility): one row for
 * the save, listing each setting that changed. Callers write it only when something changed, in the save's batch.
 * (A drizzle statement is thenable: never return it from an async function, which would run it.)
 */
export function teamSettingsAudit(
  context: { db: Db },
  input: {
    teamId: string;
    actor: AuditPerson;
    changes: SettingChange[];
    where: AuditWhere;
    at: number | Date;
    action?: Extract<AuditAction, "team.settings_changed" | "team.visibility_changed">;
  },
) {
  return auditStatement(context, {
    action: input.action ?? "team.settings_changed",
    teamId: input.teamId,
    actor: input.actor,
    details: { changes: input.changes },
    where: input.where,
    at: input.at,
  });
}

/** The SQL of the name a user goes by (agent name, full name, else e-mail), for rows written in raw SQL. */
const nameSql = (userParam: string) =>
  `(select coalesce(nullif(trim(ap.agent_name), ''), nullif(trim(p.full_name), ''), u.email) from users u
     left join agent_profiles ap on ap.user_id = u.id left join profiles p on p.user_id = u.id where u.id = ${userParam})`;

/**
 * The audit row of a move to or from the trash (app/modules/trash), for its raw D1 batch: one row for the items of
 * `trashIdsSql` (an SQL list of trash item ids reading ?1), written only when there are some. In the user's team's log
 * when they are in a team, else their own. Named: the item's title when there is one item, else the count.
 */
export function trashAuditStatement(
  d1: D1Database,
  input: {
    action: Extract<AuditAction, "record.deleted" | "record.restored">;
    idsJson: string;
    trashIdsSql: string;
    userId: string;
    kind: string;
    where: AuditWhere;
    at: number;
  },
): D1PreparedStatement {
  return d1
    .prepare(
      `insert into audit_events (id, team_id, actor_id, actor_label, subject_user_id, subject_label, action, target_type, target_id, target_label, details, ip, country, city, user_agent, created_at)
       select ?3, (select team_id from team_members where user_id = ?2), ?2, ${nameSql("?2")}, ?2, ${nameSql("?2")}, ?4, ?5,
              case when count(*) = 1 then max(t.item_id) end, case when count(*) = 1 then max(t.title) end,
              json_object('kind', ?5, 'count', count(*)), ?6, ?7, ?8, ?9, ?10
       from trash_items t where t.id in ${input.trashIdsSql} and t.user_id = ?2 having count(*) > 0`,
    )
    .bind(
      input.idsJson,
      input.userId,
      newId(),
      input.action,
      input.kind,
      input.where.ip,
      input.where.country,
      input.where.city,
      input.where.userAgent,
      input.at,
    );
}
