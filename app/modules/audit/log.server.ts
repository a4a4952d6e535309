import { and, desc, eq, gt, inArray, lt, or, type SQL } from "drizzle-orm";
import { auditEvents } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { DAY_MS } from "~/lib/dates";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import {
  actionsOfGroup,
  AUDIT_CATALOGUE,
  AUDIT_GROUPS,
  auditSentence,
  deviceOf,
  PERSONAL_ACTIONS,
  placeOf,
  SECURITY_DAYS,
  type AuditGroup,
} from "./catalogue";

// Reading the audit log (ADR 0073): one function builds the rows for a page and for its CSV, so both say the same.

/** Rows a page shows. */
const AUDIT_PAGE = 50;
/** Rows a CSV holds at most (newest first), read AUDIT_PAGE * 10 at a time. */
const CSV_MAX = 10_000;

export interface AuditFilter {
  group: AuditGroup | null;
  member: string | null;
}

export interface AuditLine {
  id: string;
  at: number;
  when: string;
  who: string;
  action: string;
  what: string;
  place: string;
  device: string;
}

/** The filter and page as the URL says them (?group=&member=&after=); anything unknown is ignored. */
export function readAuditQuery(url: URL): { filter: AuditFilter; after: string | null } {
  const group = AUDIT_GROUPS.find((g) => g.key === url.searchParams.get("group"))?.key ?? null;
  const member = url.searchParams.get("member")?.slice(0, 64) || null;
  const after = url.searchParams.get("after");
  return { filter: { group, member }, after: after && /^\d{1,15}\.[\w-]{1,64}$/.test(after) ? after : null };
}

type Scope = { teamId: string } | { userId: string; since: number };

function scopeWhere(scope: Scope, filter: AuditFilter): SQL {
  const base =
    "teamId" in scope
      ? eq(auditEvents.teamId, scope.teamId)
      : and(
          eq(auditEvents.subjectUserId, scope.userId),
          inArray(auditEvents.action, [...PERSONAL_ACTIONS]),
          gt(auditEvents.createdAt, new Date(scope.since)),
        );
  const group = filter.group ? inArray(auditEvents.action, actionsOfGroup(filter.group)) : undefined;
  const member = filter.member ? or(eq(auditEvents.actorId, filter.member), eq(auditEvents.subjectUserId, filter.member)) : undefined;
  return and(base, group, member)!;
}

/** One page of the log, newest first, after the keyset cursor "created_at.id"; `next` is the cursor of the page after. */
export async function auditPage(
  context: Pick<RequestContext, "db">,
  scope: Scope,
  filter: AuditFilter,
  prefs: DisplayPreferences,
  after: string | null,
  limit = AUDIT_PAGE,
): Promise<{ lines: AuditLine[]; next: string | null }> {
  const [atText, id] = after ? [after.slice(0, after.indexOf(".")), after.slice(after.indexOf(".") + 1)] : [null, null];
  const cursor =
    atText && id
      ? or(lt(auditEvents.createdAt, new Date(Number(atText))), and(eq(auditEvents.createdAt, new Date(Number(atText))), lt(auditEvents.id, id)))
      : undefined;
  const rows = await context.db
    .select()
    .from(auditEvents)
    .where(and(scopeWhere(scope, filter), cursor))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit + 1);
  const lines = rows.slice(0, limit).map((row) => ({
    id: row.id,
    at: row.createdAt.getTime(),
    when: formatDateTime(row.createdAt, prefs),
    who: row.actorLabel ?? "Porchlight",
    action: AUDIT_CATALOGUE[row.action]?.label ?? row.action,
    what: auditSentence(row),
    place: row.ip || row.country || row.city ? placeOf(row) : "—",
    device: row.userAgent ? deviceOf(row.userAgent) : "—",
  }));
  const last = lines.at(-1);
  return { lines, next: rows.length > limit && last ? `${last.at}.${last.id}` : null };
}

/** Every line of the filter, newest first, for the CSV: the same lines as the pages, read a bounded number at a time. */
export async function auditLinesForCsv(context: Pick<RequestContext, "db">, scope: Scope, filter: AuditFilter, prefs: DisplayPreferences) {
  const lines: AuditLine[] = [];
  let after: string | null = null;
  do {
    const page: { lines: AuditLine[]; next: string | null } = await auditPage(context, scope, filter, prefs, after, AUDIT_PAGE * 10);
    lines.push(...page.lines);
    after = page.next;
  } while (after && lines.length < CSV_MAX);
  return lines.slice(0, CSV_MAX);
}

const cell = (value: string) =>
  /[",\n\r]/.test(value) || /^[=+\-@]/.test(value) ? `"${value.replace(/^([=+\-@])/, "'$1").replace(/"/g, '""')}"` : value;

/** The lines as CSV: when (the viewer's time), who, action, what, from where, device. */
export function auditCsv(lines: readonly AuditLine[]): string {
  const head = ["When", "Who", "Action", "What", "From where", "Device"];
  return `\uFEFF${[head, ...lines.map((l) => [l.when, l.who, l.action, l.what, l.place, l.device])].map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}

/** The Security page's scope: the user's own events of the last SECURITY_DAYS. */
export const securityScope = (userId: string, now: number): Scope => ({ userId, since: now - SECURITY_DAYS * DAY_MS });
