import type { AuditAction } from "~/db/enums";
import { ROLE_ARTICLES } from "~/modules/team/team.messages";

// The audit log's catalogue (ADR 0073): each action's group and the sentence it reads as, "who did what to whom".
// Pure and browser-safe: the team's log, the security page and their CSVs all word a row here.

export type { AuditAction };

/** The filter's groups, in the order the menu lists them. */
export const AUDIT_GROUPS = [
  { key: "team", label: "Members and roles" },
  { key: "lead", label: "Lead assignment" },
  { key: "data", label: "Exports" },
  { key: "record", label: "Trash" },
  { key: "backup", label: "Backups" },
  { key: "settings", label: "Team settings" },
  { key: "billing", label: "Billing" },
  { key: "account", label: "Security" },
] as const;
export type AuditGroup = (typeof AUDIT_GROUPS)[number]["key"];

/** A row as the catalogue words it: labels as captured when it happened. */
export interface AuditRowText {
  action: AuditAction;
  actorLabel: string | null;
  subjectLabel: string | null;
  targetType: string | null;
  targetLabel: string | null;
  details: Record<string, unknown> | null;
}

const text = (value: unknown, fallback = "") => (typeof value === "string" || typeof value === "number" ? String(value) : fallback);
const article = (role: string) => (ROLE_ARTICLES as Record<string, string>)[role] ?? role;

interface Spec {
  group: AuditGroup;
  /** Shown in filters and as the CSV's "action" column. */
  label: string;
  sentence: (who: string, whom: string, what: string, d: Record<string, unknown>) => string;
}

/** Each action's words. Adding an action: a line in AUDIT_ACTIONS (app/db/enums.ts) and one here. */
export const AUDIT_CATALOGUE: Record<AuditAction, Spec> = {
  "team.role_changed": {
    group: "team",
    label: "Role changed",
    sentence: (who, whom, _w, d) => `${who} changed ${whom}'s role from ${text(d.from)} to ${text(d.to)}`,
  },
  "team.invitation_sent": {
    group: "team",
    label: "Invitation sent",
    sentence: (who, _s, what, d) => `${who} invited ${what} to join as ${article(text(d.role))}`,
  },
  "team.invitation_revoked": {
    group: "team",
    label: "Invitation withdrawn",
    sentence: (who, _s, what) => `${who} withdrew the invitation to ${what}`,
  },
  "team.member_joined": {
    group: "team",
    label: "Member joined",
    sentence: (_w, whom, _t, d) => `${whom} joined the team as ${article(text(d.role))}`,
  },
  "team.member_left": { group: "team", label: "Member left", sentence: (_w, whom) => `${whom} left the team` },
  "team.member_removed": {
    group: "team",
    label: "Member removed",
    sentence: (who, whom, what) => `${who} removed ${whom} from the team${what ? `; their work goes to ${what}` : ""}`,
  },
  "team.handover": {
    group: "team",
    label: "Work handed over",
    sentence: (who, whom, what) => `${who} handed ${whom}'s contacts, deals, tasks and leads over to ${what}`,
  },
  "team.ownership_offered": { group: "team", label: "Ownership offered", sentence: (who, whom) => `${who} offered the team's ownership to ${whom}` },
  "team.ownership_withdrawn": {
    group: "team",
    label: "Ownership offer withdrawn",
    sentence: (who, whom) => `${who} withdrew the offer of the team's ownership to ${whom}`,
  },
  "team.ownership_declined": { group: "team", label: "Ownership declined", sentence: (who) => `${who} declined the team's ownership` },
  "team.ownership_transferred": {
    group: "team",
    label: "Ownership transferred",
    sentence: (who, _s, _t, d) => `${who} took over the team's ownership from ${text(d.from, "the former owner")}`,
  },
  "team.renamed": {
    group: "settings",
    label: "Team renamed",
    sentence: (who, _s, _t, d) => `${who} renamed the team from “${text(d.from)}” to “${text(d.to)}”`,
  },
  "team.settings_changed": {
    group: "settings",
    label: "Team settings changed",
    sentence: (who, _s, _t, d) => `${who} changed ${changes(d)}`,
  },
  "team.visibility_changed": {
    group: "settings",
    label: "Visibility changed",
    sentence: (who, _s, _t, d) => `${who} changed ${changes(d)}`,
  },
  "lead.assigned": { group: "lead", label: "Lead assigned", sentence: (who, whom, what) => `${who} assigned the lead ${what} to ${whom}` },
  "lead.reassigned": {
    group: "lead",
    label: "Lead reassigned",
    sentence: (who, whom, what, d) => `${who} reassigned the lead ${what} from ${text(d.from, "another agent")} to ${whom}`,
  },
  "data.exported": { group: "data", label: "Data exported", sentence: (who, _s, what) => `${who} exported ${what}` },
  "record.deleted": {
    group: "record",
    label: "Moved to the trash",
    sentence: (who, _s, what, d) => `${who} moved ${counted(d, what)} to the trash`,
  },
  "record.restored": {
    group: "record",
    label: "Restored from the trash",
    sentence: (who, _s, what, d) => `${who} restored ${counted(d, what)} from the trash`,
  },
  "backup.restored": {
    group: "backup",
    label: "Account restored from a backup",
    sentence: (who, whom, what) => `${who} restored ${whom}'s account from the backup of ${what}`,
  },
  "billing.plan_changed": {
    group: "billing",
    label: "Plan changed",
    sentence: (who, _s, _t, d) =>
      `${who} changed the plan from ${text(d.from)} to ${text(d.to)}${typeof d.seats === "number" ? ` (${d.seats} seats)` : ""}`,
  },
  "account.signed_in": { group: "account", label: "Signed in", sentence: (_w, whom) => `${whom} signed in` },
  "account.new_device": { group: "account", label: "New device", sentence: (_w, whom) => `${whom} signed in from a new device or country` },
  "account.sign_in_failed": {
    group: "account",
    label: "Sign-in failed",
    sentence: (_w, whom) => `A sign-in to ${whom}'s account failed: wrong password`,
  },
  "account.locked": {
    group: "account",
    label: "Account locked",
    sentence: (_w, whom, _t, d) =>
      `${whom}'s account was locked for ${text(d.minutes, "15")} minutes after ${text(d.failures, "too many")} failed sign-ins`,
  },
  "account.password_changed": { group: "account", label: "Password changed", sentence: (_w, whom) => `${whom} changed their password` },
  "account.password_reset": {
    group: "account",
    label: "Password reset",
    sentence: (_w, whom) => `${whom} reset their password from an e-mailed link`,
  },
  "account.signed_out_everywhere": {
    group: "account",
    label: "Signed out everywhere",
    sentence: (_w, whom) => `${whom} signed out on every device`,
  },
  "account.two_factor_enabled": { group: "account", label: "Two-factor on", sentence: (_w, whom) => `${whom} turned on two-factor sign-in` },
  "account.two_factor_disabled": { group: "account", label: "Two-factor off", sentence: (_w, whom) => `${whom} turned off two-factor sign-in` },
  "account.two_factor_failed": {
    group: "account",
    label: "Two-factor code refused",
    sentence: (_w, whom) => `A two-factor code for ${whom}'s account was wrong`,
  },
};

function changes(d: Record<string, unknown>): string {
  const list = Array.isArray(d.changes) ? (d.changes as { setting?: unknown; from?: unknown; to?: unknown }[]) : [];
  if (list.length === 0) return "the team's settings";
  return list.map((c) => `${text(c.setting, "a setting")} from ${text(c.from, "—")} to ${text(c.to, "—")}`).join("; ");
}

function counted(d: Record<string, unknown>, what: string): string {
  const n = typeof d.count === "number" ? d.count : 1;
  const kind = text(d.kind, "record");
  return n === 1 && what ? `the ${kind} “${what}”` : `${n} ${kind}${n === 1 ? "" : "s"}`;
}

/** The actions of a group, for the filter. */
export const actionsOfGroup = (group: AuditGroup): AuditAction[] =>
  (Object.keys(AUDIT_CATALOGUE) as AuditAction[]).filter((a) => AUDIT_CATALOGUE[a].group === group);

/** Settings → Security lists this many days of the user's own events. */
export const SECURITY_DAYS = 90;

/** The actions a user's own security page lists: their sign-ins, devices, password, sessions, exports. */
export const PERSONAL_ACTIONS: readonly AuditAction[] = [...actionsOfGroup("account"), "data.exported", "backup.restored"];

/** The row as a sentence: "Olu Okafor changed Ada Admin's role from admin to agent". */
export function auditSentence(row: AuditRowText): string {
  const spec = AUDIT_CATALOGUE[row.action];
  if (!spec) return row.action;
  const who = row.actorLabel ?? "Porchlight";
  const whom = row.subjectLabel ?? "a former member";
  return spec.sentence(who, whom, row.targetLabel ?? "", row.details ?? {});
}

/** "Chrome on macOS" from a user agent, for the log and for telling devices apart; "Unknown device" when unreadable. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : null;
  const os = /iPhone|iPad|iPod/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Mac OS X|Macintosh/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /CrOS/.test(ua)
            ? "ChromeOS"
            : /Linux/.test(ua)
              ? "Linux"
              : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? "Unknown device";
}

/** "Lisbon, PT" / "PT" / "Unknown place". */
export function placeOf(row: { city: string | null; country: string | null }): string {
  if (row.city && row.country) return `${row.city}, ${row.country}`;
  return row.country ?? row.city ?? "Unknown place";
}
