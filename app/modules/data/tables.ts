/**
 * Every table that holds an agent's rows, and what the agent's data export does with it. One
 * map, so a table added later must be placed here: tests/workers/data-export.test.ts reads the live schema
 * and fails for any table with a `user_id` column (or a key to users) that is missing.
 */

/** One table of a category: whose rows (`owner`), which columns stay out, which hold JSON. */
export interface ExportTable {
  table: string;
  /** The column holding the agent's id. */
  owner: string;
  /** Columns never exported: secrets and internal keys. */
  omit?: readonly string[];
  /** Columns stored as JSON text, exported parsed. */
  json?: readonly string[];
  /** Column for the category's "last updated" (the newest value wins). */
  updated: string;
}

export interface ExportCategory {
  key: string;
  label: string;
  description: string;
  tables: readonly ExportTable[];
}

export const EXPORT_CATEGORIES = [
  {
    key: "user_profile",
    label: "Profile",
    description:
      "Your account (e-mail, role, when it was made and verified), your name and phone, and your agent profile (name, brokerage, market, licence).",
    tables: [
      { table: "users", owner: "id", omit: ["password_hash", "session_version", "failed_signin_count", "locked_until"], updated: "updated_at" },
      { table: "profiles", owner: "user_id", updated: "updated_at" },
      { table: "agent_profiles", owner: "user_id", updated: "updated_at" },
    ],
  },
  {
    key: "contacts",
    label: "Contacts",
    description: "Every contact with all its fields, tags, notes, lead score and the reasons behind it.",
    tables: [{ table: "contacts", owner: "user_id", omit: ["seq"], json: ["tags", "lead_score_factors"], updated: "updated_at" }],
  },
  {
    key: "deals",
    label: "Deals",
    description:
      "Every deal: stage, value, dates, side, notes and its commission overrides, and the teammates you share your deals with and their shares.",
    tables: [
      { table: "deals", owner: "user_id", updated: "updated_at" },
      { table: "deal_shares", owner: "owner_id", updated: "created_at" },
    ],
  },
  {
    key: "tasks",
    label: "Tasks",
    description: "Every task, open and completed, with due dates, repeats and what it is linked to.",
    tables: [{ table: "crm_tasks", owner: "user_id", updated: "updated_at" }],
  },
  {
    key: "activities",
    label: "Activities",
    description: "Every call, e-mail, text, showing, meeting, note and stage change logged.",
    tables: [{ table: "crm_activities", owner: "user_id", json: ["meta"], updated: "created_at" }],
  },
  {
    key: "stage_history",
    label: "Stage history",
    description: "Each stay of each deal in a pipeline stage: when it entered, when it left and where it went.",
    tables: [{ table: "deal_stage_history", owner: "user_id", omit: ["seq"], updated: "entered_at" }],
  },
  {
    key: "pipeline_stages",
    label: "Pipeline stages",
    description:
      "Your pipeline's stages, their order, colours and default probabilities, once you have changed them (until then the standard stages apply and nothing is stored).",
    tables: [{ table: "crm_config", owner: "user_id", json: ["deal_stages"], updated: "updated_at" }],
  },
  {
    key: "commission_plan",
    label: "Commission plan",
    description:
      "Your default rate, brokerage split, cap, fees and cap year, once you have saved them (until then the defaults apply and nothing is stored).",
    tables: [{ table: "commission_plans", owner: "user_id", updated: "updated_at" }],
  },
  {
    key: "preferences",
    label: "Preferences",
    description: "Display settings (date and time format, timezone, currency, contact list layout), onboarding and your income goal.",
    tables: [{ table: "user_preferences", owner: "user_id", updated: "updated_at" }],
  },
  {
    key: "properties",
    label: "Properties",
    description: "The properties your contacts asked about (address, MLS number, price, link) and the contact and deal each is linked to.",
    tables: [{ table: "properties", owner: "user_id", updated: "updated_at" }],
  },
  {
    key: "lead_intake",
    label: "Lead intake",
    description:
      "Your lead intake addresses and lead API keys (names, when each was made, last used and revoked; the address and the keys themselves are secrets and left out), every lead e-mail received (sender, subject, its text, what Porchlight read in it and what became of it), your instant first replies per source and each reply sent or skipped.",
    tables: [
      { table: "lead_intake_addresses", owner: "user_id", omit: ["key"], updated: "created_at" },
      { table: "lead_intake_messages", owner: "user_id", json: ["lead", "auth"], updated: "updated_at" },
      { table: "api_keys", owner: "user_id", omit: ["key_hash"], updated: "created_at" },
      { table: "lead_reply_templates", owner: "user_id", updated: "updated_at" },
      { table: "lead_first_replies", owner: "user_id", updated: "created_at" },
    ],
  },
  {
    key: "contact_emails",
    label: "E-mails with contacts",
    description:
      "Each e-mail you sent a contact from Porchlight (to, subject, text, how it went and what became of it: sent, bounced, a complaint) and each reply that came back.",
    tables: [{ table: "contact_emails", owner: "user_id", updated: "occurred_at" }],
  },
  {
    key: "action_plans",
    label: "Action plans",
    description:
      "Your action plans (their steps, and when they start and stop on their own), each contact's run of one (its steps as they were, where it stands, why it stopped) and each run's history.",
    tables: [
      { table: "action_plans", owner: "user_id", json: ["steps", "stop_stages"], updated: "updated_at" },
      { table: "plan_runs", owner: "user_id", json: ["steps", "stop_stages"], updated: "updated_at" },
      { table: "plan_run_events", owner: "user_id", updated: "at" },
    ],
  },
  {
    key: "templates",
    label: "Templates",
    description: "Your e-mail and text templates (name, subject, text, merge fields as written), and those you wrote for your team.",
    tables: [{ table: "crm_templates", owner: "user_id", updated: "updated_at" }],
  },
  {
    key: "lead_source_costs",
    label: "Lead source costs",
    description: "What you entered as spent on each lead source per month.",
    tables: [{ table: "lead_source_costs", owner: "user_id", updated: "updated_at" }],
  },
  {
    key: "calendar_feed",
    label: "Calendar feed",
    description: "Whether you have a private calendar feed and when it was made. The feed's secret address is not exported.",
    tables: [{ table: "calendar_feeds", owner: "user_id", omit: ["token_hash"], updated: "created_at" }],
  },
  {
    key: "billing",
    label: "Billing",
    description:
      "Your plan, subscription status and dates as Porchlight records them, checkouts you started and your trial. Invoices are in Stripe's billing portal.",
    tables: [
      { table: "subscribers", owner: "user_id", updated: "updated_at" },
      { table: "checkout_sessions", owner: "user_id", updated: "created_at" },
      { table: "trial_claims", owner: "user_id", updated: "claimed_at" },
    ],
  },
  {
    key: "team",
    label: "Team",
    description:
      "The team you own (its name) and your membership of a team: which team, your role and when you joined. The other members' data is theirs.",
    tables: [
      { table: "teams", owner: "owner_id", updated: "updated_at" },
      { table: "team_members", owner: "user_id", updated: "joined_at" },
    ],
  },
  {
    key: "emails",
    label: "E-mails Porchlight sent",
    description:
      "The e-mails Porchlight sent you, and for you to your contacts (instant replies, e-mails sent as “via Porchlight”): kind, address, subject, status and times. Their text is left out here: sign-in and reset links are in it (the text of e-mails to contacts is under E-mails with contacts).",
    tables: [{ table: "email_outbox", owner: "user_id", omit: ["text_body", "html_body", "provider_message_id"], updated: "created_at" }],
  },
  {
    key: "data_requests",
    label: "Data requests",
    description: "Your exports and deletion requests, with their status.",
    tables: [{ table: "gdpr_requests", owner: "user_id", updated: "created_at" }],
  },
] as const satisfies readonly ExportCategory[];

export type ExportCategoryKey = (typeof EXPORT_CATEGORIES)[number]["key"];
export const EXPORT_CATEGORY_KEYS = EXPORT_CATEGORIES.map((c) => c.key) as ExportCategoryKey[];

/**
 * What "Delete my data" removes: the CRM records, children first. The account, its settings and
 * its billing stay. The trash goes too (ADR 0028): deleted data must not come back from it. app/modules/data/erase.server.ts
 * deletes them, and counts them for Settings → Data (countCrmData).
 */
export const CRM_DATA_TABLES = [
  "trash_rows",
  "trash_items",
  "contact_emails",
  "crm_activities",
  "crm_tasks",
  "lead_intake_messages",
  "properties",
  "deal_stage_history",
  "deals",
  "contacts",
  "lead_source_costs",
] as const;

/** Tables with an agent's id that the export leaves out, and why (each is derived from exported rows, or a secret). */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  team_leads: "the team's leads belong to the team; a lead assigned to you is one of your contacts, exported with Contacts",
  team_routing_rules: "the team's lead routing rules: team configuration, not an agent's data",
  team_routing: "the team's routing settings (business hours, cap, auto-reassign): team configuration, not an agent's data",
  auth_tokens: "hashes of single-use e-mail links: secrets, and the e-mails themselves are listed",
  insight_versions: "a counter the insight cache checks; derived from every change",
  contact_tags: "kept by triggers from contacts.tags",
  contact_status_counts: "kept by triggers from contacts",
  contact_tag_counts: "kept by triggers from contacts.tags",
  contact_source_days: "kept by triggers from contacts",
  lead_source_days: "kept by triggers from contacts",
  status_incidents: "status-page notes an admin wrote (created_by); not the agent's data",
  backups: "safety copies taken before an admin restored the account: backups, kept 30 days like every backup",
  backup_restores: "the log of restores of the account an admin ran (which backup, when, the outcome)",
  durable_jobs: "the Operations Center's long jobs (backups, restore drills, restores) an admin started: the service's, not the admin's data",
  team_handovers: "the team's record of a removed member's work handed to a teammate: ids and row counts, kept while both accounts are",
  trash_rows: "deleted records kept 30 days for a restore (ADR 0028): exports hold the live data only",
  trash_items: "deleted records kept 30 days for a restore (ADR 0028): exports hold the live data only",
  qa_runs: "QA Dashboard runs an admin started: the service's release checks, not the admin's data",
  qa_results: "the results of those runs",
  sync_log: "which rows changed, for the phone's field copy (ADR 0031): ids only, kept by triggers, pruned after 30 days",
  applied_changes: "the keys of changes the phone sent from offline and of forms sent online, so a retry is not applied twice",
  ai_draft_days: "how many AI drafts were used on each of the last two days, for the daily quota",
  push_subscriptions: "the devices new-lead alerts go to: a browser push service's address and keys, secrets of that device",
  lead_alerts: "which new leads waited for a first response, derived from the exported contacts and activities",
  push_outbox: "new-lead alerts and reminders on their way to the devices, derived from the exported contacts",
  team_invitations: "invitations sent by a team: other people's e-mail addresses and link secrets, not the agent's data",
  account_directory: "which of the service's databases holds the account (ADR 0060): the service's routing, not the agent's data",
  account_moves: "the record of the account's move to its team's database (ADR 0060): the service's routing, not the agent's data",
  gmail_connections: "the agent's Gmail connection (ADR 0069): Google's access and refresh tokens to their mailbox, secrets, encrypted at rest",
  audit_events:
    "the audit log (ADR 0073): a team's rows are the team's record, and the agent's own security events are in Settings → Security with a CSV of their own",
  totp_authenticators: "the authenticator app's secret (ADR 0074): a sign-in credential, encrypted at rest",
  recovery_codes: "hashes of one-use recovery codes (ADR 0074): sign-in credentials",
  passkeys: "the passkeys' public keys and counters (ADR 0074): sign-in credentials, useful only to this service",
  session_devices: "the signed-in devices Settings → Security lists (ADR 0074): which browser, roughly where, and when, about sessions that expire",
};

/**
 * Tables whose rows of an agent the database's triggers write from other tables' rows (counters, tag lists, the
 * phone's change log): moving an account copies the rows they are made from, and the triggers write these again.
 */
export const TRIGGER_KEPT_TABLES: readonly string[] = [
  "contact_tags",
  "contact_status_counts",
  "contact_tag_counts",
  "contact_source_days",
  "lead_source_days",
  "insight_versions",
  "sync_log",
];

/**
 * Tables whose rows of a user are not deleted but kept without the user's id when the account is purged: the
 * columns naming the user are set to null.
 */
const KEPT_UNSIGNED: Readonly<Record<string, { columns: readonly string[]; why: string }>> = {
  gdpr_requests: {
    columns: ["user_id"],
    why: "the record that a request (the deletion itself included) was made and completed, with no personal data in it",
  },
  status_incidents: { columns: ["created_by"], why: "status-page notes an admin wrote: the service's, not the admin's" },
  backups: { columns: ["user_id"], why: "a safety copy is a backup: it expires with the 30-day backup retention, as the terms say" },
  backup_restores: { columns: ["user_id", "requested_by"], why: "the operations log of a restore, with no personal data in it" },
  durable_jobs: { columns: ["started_by"], why: "the operations log of a long job, with no personal data in it" },
  qa_runs: { columns: ["user_id"], why: "the service's release checks, with no personal data in them" },
  qa_results: { columns: ["user_id"], why: "the service's release checks, with no personal data in them" },
  team_invitations: {
    columns: ["invited_by", "accepted_by"],
    why: "the team's record of its invitations: the team's, not the sender's or the accepter's",
  },
  audit_events: {
    columns: ["actor_id", "subject_user_id"],
    why: "the team's audit log keeps what was done, with the names as they were (ADR 0073); the user's own security events and their addresses go",
  },
};

/**
 * What the 30-day account purge deletes besides the CRM tables (app/modules/data/account.server.ts), each by its
 * owner column; the users row goes last. Built from the map above, so a table placed there is purged too.
 */
const PURGE_TABLES: readonly { table: string; owner: string }[] = [
  ...EXPORT_CATEGORIES.flatMap((c) => c.tables as readonly ExportTable[]).map((t) => ({ table: t.table, owner: t.owner })),
  ...Object.keys(NOT_EXPORTED).map((table) => ({ table, owner: "user_id" })),
].filter(
  ({ table }) =>
    // The users row and the directory's listing (in the home database) go last, after everything else.
    table !== "users" && table !== "account_directory" && !(table in KEPT_UNSIGNED) && !(CRM_DATA_TABLES as readonly string[]).includes(table),
);

export { KEPT_UNSIGNED };

/** Every table that holds an agent's rows, by its owner column, the CRM tables first (children before parents). */
export const ACCOUNT_TABLES: readonly { table: string; owner: string }[] = [
  ...CRM_DATA_TABLES.map((table) => ({ table, owner: "user_id" })),
  ...PURGE_TABLES,
];

/**
 * What restoring one agent's account from a backup replaces (ADR 0029): the agent's rows of these tables,
 * by their owner column, all at once. Every other table with an agent's id is in RESTORE_SKIPPED with the reason;
 * tests/workers/agent-restore.test.ts holds both to the live schema.
 */
export const RESTORE_TABLES: readonly { table: string; owner: string }[] = [
  "profiles",
  "agent_profiles",
  "user_preferences",
  "crm_config",
  "commission_plans",
  "lead_reply_templates",
  "crm_templates",
  "action_plans",
  ...CRM_DATA_TABLES,
].map((table) => ({ table, owner: "user_id" }));

export const RESTORE_SKIPPED: Readonly<Record<string, string>> = {
  users: "the account itself: its e-mail, password and sessions stay as they are now",
  subscribers: "billing follows Stripe, not a backup",
  lead_intake_addresses: "the lead intake address in use now keeps working: a restore brings back no replaced address (ADR 0065)",
  api_keys: "the lead API keys in use now keep working, and a revoked key stays revoked (ADR 0066)",
  lead_first_replies: "a lead's first reply is sent once: a restore must not bring back one waiting to be sent again (ADR 0068)",
  plan_runs: "a plan's step is done once: a restore must not bring back a run whose e-mails would go again (ADR 0072)",
  plan_run_events: "the history of the runs, which are not restored",
  checkout_sessions: "billing follows Stripe, not a backup",
  trial_claims: "billing follows Stripe, not a backup",
  email_outbox: "e-mails already sent or queued",
  gdpr_requests: "the record of the agent's requests, which a restore must not rewrite",
  auth_tokens: "single-use links: an old one must not come back",
  calendar_feeds: "a feed address revoked since the backup must stay revoked",
  insight_versions: "rebuilt by triggers as the rows go in",
  contact_tags: "rebuilt by triggers from contacts.tags",
  contact_status_counts: "rebuilt by triggers from contacts",
  contact_tag_counts: "rebuilt by triggers from contacts.tags",
  contact_source_days: "rebuilt by triggers from contacts",
  lead_source_days: "rebuilt by triggers from contacts",
  status_incidents: "status-page notes: the service's, not the agent's",
  backups: "the backups themselves",
  backup_restores: "the log of restores",
  durable_jobs: "the log of long jobs (backups, drills, restores)",
  team_handovers: "a handover that happened: a restore puts the agent's rows back, not who handed what to whom",
  account_directory: "where the account lives now, not where it lived when the backup was taken",
  account_moves: "the record of a move to another database: the service's, and about where the account lives now",
  qa_runs: "the QA Dashboard's runs: the service's",
  qa_results: "the QA Dashboard's results: the service's",
  sync_log: "rewritten by triggers as the rows go in, so a phone's copy picks the restored rows up on its next sync",
  applied_changes: "the keys of changes already applied: a phone's retry must still find its key",
  ai_draft_days: "the daily AI quota's count as it is now: a restore must not give back drafts already used",
  push_subscriptions: "the devices alerts go to now: a restore must not turn alerts back on for a device turned off since",
  lead_alerts: "alerts about leads as they arrived: old ones are not raised again",
  push_outbox: "alerts already pushed or on their way: an old one is not pushed again",
  teams: "the team as it is now: its members and seats follow billing, not a backup",
  team_members: "membership as it is now: a restore must not put back someone who left or was removed",
  team_invitations: "invitations as they are now: a withdrawn or used link must stay so",
  deal_shares: "shares are between teammates as they are now: a restore does not share a deal again with someone who may have left",
  team_leads: "the team's leads belong to the team, not to one agent: an assigned lead is a contact in the agent's account, restored with it",
  team_routing_rules: "the team's routing rules as they are now: team configuration, not an agent's data",
  team_routing: "the team's routing settings as they are now: team configuration, not an agent's data",
  gmail_connections:
    "the Gmail connection as it is now: a disconnected mailbox must stay disconnected, and tokens in a backup may have been revoked since",
  audit_events: "the audit log records what happened, the restore among it: a restore must not rewrite it",
  totp_authenticators: "sign-in as it is now: a restore must not bring back an authenticator turned off, nor an old replay guard",
  recovery_codes: "sign-in as it is now: a used or replaced recovery code must stay unusable",
  passkeys: "sign-in as it is now: a removed passkey must stay removed",
  session_devices: "the sessions signed in now: a restore must not list or revive a session signed out since",
};
