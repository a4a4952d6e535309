// Value lists shared by the database schema, zod schemas and UI. No imports, so the browser can use them
// without pulling in drizzle.
export const USER_ROLES = ["user", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "canceled", "inactive", "pending_checkout"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const PLANS = ["solo", "team", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_PERIODS = ["monthly", "yearly"] as const;
/**
 * A team's owner pays and can do everything; admins manage members; agents work their own book; an ISA (inside sales)
 * works the team's new leads and the pond and hands them to agents, with no part in the team's deals or commissions
 * (ADR 0080).
 */
export const TEAM_ROLES = ["owner", "admin", "agent", "isa"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** The roles an invitation or the owner's role change can give (the owner's is handed over, not given). */
export const INVITE_ROLES = ["admin", "agent", "isa"] as const;
export type InviteRole = (typeof INVITE_ROLES)[number];
/** How the team's new leads reach an agent (ADR 0038): kept in the pond, round robin, or first to claim. */
export const LEAD_MODES = ["pond", "round_robin", "claim"] as const;
export type LeadMode = (typeof LEAD_MODES)[number];
/**
 * What a team's owner and admins may do with every member's contacts, timelines and tasks (ADR 0075): nothing beyond
 * what is shared with them, see them, or see and edit them. The owner chooses.
 */
export const MEMBER_RECORD_ACCESS = ["shared", "view", "edit"] as const;
export type MemberRecordAccess = (typeof MEMBER_RECORD_ACCESS)[number];
export const TEAM_LEAD_STATES = ["pond", "offered", "assigned"] as const;
export type TeamLeadState = (typeof TEAM_LEAD_STATES)[number];

export const DATE_FORMATS = ["US", "EU"] as const;
export const TIME_FORMATS = ["12h", "24h"] as const;
export const CURRENCIES = ["USD", "EUR", "NOK", "SEK", "DKK"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export type TimeFormat = (typeof TIME_FORMATS)[number];
export type Currency = (typeof CURRENCIES)[number];

export const AUTH_TOKEN_PURPOSES = ["verify_email", "reset_password", "keep_account"] as const;
export type AuthTokenPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];
// An outbox row's states (ADR 0056): queued → sending → sent, or → retrying → sending … → dead after the queue's last
// retry. "outbox": kept without a provider (the development mailbox reads it).
export const EMAIL_STATUSES = ["queued", "sending", "retrying", "sent", "dead", "outbox"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** A push message's states (ADR 0056): as an e-mail's, and `off` when push was off (or had no key) at its turn. */
export const PUSH_STATUSES = ["queued", "sending", "retrying", "sent", "dead", "off"] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];

export const CONTACT_INTERESTS = ["ai-content", "commission-tracking", "pipeline", "mobile", "other"] as const;
export type ContactInterest = (typeof CONTACT_INTERESTS)[number];

// Spec section 3: contacts.
export const CONTACT_STATUSES = ["hot", "warm", "cold"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
export const PROPERTY_TYPES = ["house", "condo", "townhouse", "land", "commercial", "other"] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
/**
 * Where a contact came from. The listing portals are sources of their own (their leads arrive by e-mail or the lead API,
 * app/modules/intake): reports compare them, and a lead from a portal is scored and greeted as one.
 */
export const CONTACT_SOURCES = [
  "website",
  "referral",
  "cold_call",
  "social_media",
  "open_house",
  "zillow",
  "realtor_com",
  "homes_com",
  "redfin",
  "trulia",
  "other",
] as const;
/** The listing portals among the sources. */
export const PORTAL_SOURCES = ["zillow", "realtor_com", "homes_com", "redfin", "trulia"] as const satisfies readonly ContactSource[];
export type PortalSource = (typeof PORTAL_SOURCES)[number];
export type ContactSource = (typeof CONTACT_SOURCES)[number];
/** The contact list's orders ("score": lead score, highest first). */
export const CONTACT_SORTS = ["newest", "name", "activity", "budget", "score"] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

// Deals and the pipeline.
export const DEAL_SIDES = ["buyer", "seller", "both"] as const;
export type DealSide = (typeof DEAL_SIDES)[number];
/** What a stage means for commissions: open deals are forecast, won deals count toward the cap, lost ones drop out. */
export const STAGE_KINDS = ["open", "won", "lost"] as const;
export type StageKind = (typeof STAGE_KINDS)[number];

// What a timeline holds; a deal's stage changes are recorded with them too.
// A lead's assignment from the team's leads is recorded on the contact's timeline; the offline queue records a
// change it could not make as sent (a deal moved on another device meanwhile) as a sync conflict.
export const ACTIVITY_TYPES = [
  "call",
  "email_sent",
  "email_opened",
  "text",
  "showing",
  "meeting",
  "listing",
  "offer",
  "contract",
  "note",
  "stage_change",
  "assignment",
  "sync_conflict",
  "enquiry",
  "auto_reply",
  "email_received",
  "plan_email",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
/** Activities Porchlight writes itself: not logged by the agent, not an answer to a lead, not counted as work. */
export const SYSTEM_ACTIVITY_TYPES = [
  "stage_change",
  "assignment",
  "sync_conflict",
  "enquiry",
  "auto_reply",
  "email_received",
  "plan_email",
] as const;
export type SystemActivityType = (typeof SYSTEM_ACTIVITY_TYPES)[number];
export type LoggableActivityType = Exclude<ActivityType, SystemActivityType>;
export const isSystemActivity = (type: string): type is SystemActivityType => (SYSTEM_ACTIVITY_TYPES as readonly string[]).includes(type);
/** SQL list of the system types, for `type not in (...)` in raw SQL. */
export const SYSTEM_ACTIVITY_SQL = SYSTEM_ACTIVITY_TYPES.map((t) => `'${t}'`).join(", ");

// Tasks and the calendar.
export const TASK_TYPES = ["call", "email", "showing", "follow_up", "paperwork", "other"] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const TASK_PRIORITIES = ["low", "medium", "high"] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export const TASK_STATUSES = ["open", "completed"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_REPEATS = ["daily", "weekly", "monthly"] as const;
export type TaskRepeat = (typeof TASK_REPEATS)[number];

/** Spec section 3 GDPR request types and statuses: access (a copy), portability (machine-readable), erasure. */
export const GDPR_REQUEST_TYPES = ["access", "portability", "erasure"] as const;
export const GDPR_REQUEST_STATUSES = ["pending", "completed", "cancelled", "failed"] as const;
/** Backups: made by the daily cron, or by an admin in the Operations Center. */
/** automatic (the daily cron), manual (Create backup), safety (one agent's rows, taken before restoring that agent). */
export const BACKUP_TYPES = ["automatic", "manual", "safety"] as const;
/** Long jobs run as Cloudflare Workflows (ADR 0058) and how far one is. */
export const DURABLE_JOB_KINDS = ["restore-drill", "backup", "agent-restore", "account-move", "handover"] as const;
/** An account's move to another database (ADR 0060). */
export const ACCOUNT_MOVE_STATES = ["copying", "moved", "done", "failed"] as const;
export const DURABLE_JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export const RESTORE_STATUSES = ["in_progress", "completed", "failed"] as const;
export const BACKUP_STATUSES = ["in_progress", "completed", "failed"] as const;

/** What can be in the trash: a deleted contact, deal or task, kept 30 days. */
export const TRASH_KINDS = ["contact", "deal", "task"] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];
/** A trashed row's part: the item itself, a row deleted with it (cascade), or ids of rows the delete unlinked. */
export const TRASH_ROW_ROLES = ["item", "child", "link"] as const;

// Lead intake by e-mail (app/modules/intake): the formats the parsers recognise, and what became of each e-mail.
export const INTAKE_FORMATS = ["zillow", "realtor_com", "homes_com", "redfin", "trulia", "website_form", "api", "unknown"] as const;
export type IntakeFormat = (typeof INTAKE_FORMATS)[number];
/**
 * created: a new lead; attached: an enquiry on a contact the agent had; review: not understood well enough, kept for
 * the agent to confirm; confirmed / discarded: what the agent did with one to review.
 */
/**
 * A new lead's instant first reply (lead_first_replies): waiting for the agent's sending hours, sent (handed to the
 * e-mail queue), or skipped with its reason (answered first, unsubscribed, the reply turned off, the contact gone).
 */
export const FIRST_REPLY_STATUSES = ["pending", "sent", "skipped"] as const;
export type FirstReplyStatus = (typeof FIRST_REPLY_STATUSES)[number];

/** Templates: an e-mail (subject and body) or a text (body only, sent from the agent's phone). */
export const TEMPLATE_KINDS = ["email", "text"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/**
 * An e-mail on a contact's log (contact_emails): one the agent sent (sent; then bounced or complained about when the
 * provider or the mailbox says so; failed when it never left) or a reply that came in (received).
 */
export const CONTACT_EMAIL_STATUSES = ["sent", "bounced", "complained", "failed", "received"] as const;
export type ContactEmailStatus = (typeof CONTACT_EMAIL_STATUSES)[number];
/** How it went: the agent's own connected mailbox, or Porchlight's provider as "Agent via Porchlight". */
export const EMAIL_VIAS = ["gmail", "porchlight"] as const;
export type EmailVia = (typeof EMAIL_VIAS)[number];

/** Action plans (ADR 0072): what a step does, how a contact's run of a plan stands, and what its history records. */
export const PLAN_STEP_KINDS = ["email", "review_email", "call_task", "text_task"] as const;
export type PlanStepKind = (typeof PLAN_STEP_KINDS)[number];
export const PLAN_RUN_STATUSES = ["running", "paused", "finished", "stopped"] as const;
export type PlanRunStatus = (typeof PLAN_RUN_STATUSES)[number];
export const PLAN_EVENT_KINDS = ["started", "email_sent", "task_created", "skipped", "paused", "resumed", "stopped", "finished"] as const;
export type PlanEventKind = (typeof PLAN_EVENT_KINDS)[number];

export const INTAKE_STATUSES = ["created", "attached", "review", "confirmed", "discarded"] as const;
export type IntakeStatus = (typeof INTAKE_STATUSES)[number];

/** An agent's Gmail connection (gmail_connections): working, or refused by Google until the agent connects again. */
export const GMAIL_CONNECTION_STATUSES = ["connected", "needs_reconnect"] as const;
export type GmailConnectionStatus = (typeof GMAIL_CONNECTION_STATUSES)[number];

/**
 * The audit log's actions (ADR 0073), dotted: the group before the dot. Stored as text with no CHECK, so adding one
 * needs no migration; app/modules/audit/catalogue.ts gives each its sentence.
 */
export const AUDIT_ACTIONS = [
  "team.role_changed",
  "team.invitation_sent",
  "team.invitation_revoked",
  "team.member_joined",
  "team.member_left",
  "team.member_removed",
  "team.handover",
  "team.ownership_offered",
  "team.ownership_withdrawn",
  "team.ownership_declined",
  "team.ownership_transferred",
  "team.renamed",
  "team.settings_changed",
  "team.visibility_changed",
  "lead.assigned",
  "lead.reassigned",
  "data.exported",
  "record.deleted",
  "record.restored",
  "backup.restored",
  "billing.plan_changed",
  "account.signed_in",
  "account.sign_in_failed",
  "account.locked",
  "account.new_device",
  "account.password_changed",
  "account.password_reset",
  "account.signed_out_everywhere",
  "account.two_factor_enabled",
  "account.two_factor_disabled",
  "account.two_factor_failed",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
