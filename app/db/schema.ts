import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  ACTIVITY_TYPES,
  AUTH_TOKEN_PURPOSES,
  BILLING_PERIODS,
  CONTACT_INTERESTS,
  CONTACT_SOURCES,
  CONTACT_STATUSES,
  CURRENCIES,
  DATE_FORMATS,
  DEAL_SIDES,
  EMAIL_STATUSES,
  PUSH_STATUSES,
  GDPR_REQUEST_STATUSES,
  BACKUP_STATUSES,
  BACKUP_TYPES,
  ACCOUNT_MOVE_STATES,
  DURABLE_JOB_KINDS,
  DURABLE_JOB_STATUSES,
  GDPR_REQUEST_TYPES,
  PLANS,
  PROPERTY_TYPES,
  SUBSCRIPTION_STATUSES,
  TEAM_ROLES,
  INVITE_ROLES,
  LEAD_MODES,
  MEMBER_RECORD_ACCESS,
  TEAM_LEAD_STATES,
  TASK_PRIORITIES,
  TASK_REPEATS,
  TASK_STATUSES,
  TASK_TYPES,
  TIME_FORMATS,
  TRASH_KINDS,
  TRASH_ROW_ROLES,
  USER_ROLES,
  RESTORE_STATUSES,
  INTAKE_FORMATS,
  INTAKE_STATUSES,
  FIRST_REPLY_STATUSES,
  TEMPLATE_KINDS,
  GMAIL_CONNECTION_STATUSES,
  AUDIT_ACTIONS,
  CONTACT_EMAIL_STATUSES,
  EMAIL_VIAS,
  type ContactSource,
  PLAN_RUN_STATUSES,
  PLAN_EVENT_KINDS,
  type PlanStepKind,
} from "./enums";

export * from "./enums";

// Times are stored as integer milliseconds since the epoch (drizzle "timestamp_ms" mode gives Date objects).
const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);
const updatedAt = () => integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    // Stored trimmed and lower-cased; the unique index on lower(email) guards against any writer that forgets.
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    role: text("role", { enum: USER_ROLES }).notNull().default("user"),
    // Bumped to revoke every session at once (sign out everywhere, password change, reset).
    sessionVersion: integer("session_version").notNull().default(1),
    failedSigninCount: integer("failed_signin_count").notNull().default(0),
    lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
    // Set when the agent deletes the account (Settings → Data): sessions end, sign-in is refused, and the cron
    // removes every row of the user at this time (30 days on, the terms' promise) unless the e-mailed link
    // keeps the account first. Null for every live account.
    purgeAfter: integer("purge_after", { mode: "timestamp_ms" }),
    // When the purge was put on the purge queue (ADR 0056): from then on the account cannot be kept, and the cron
    // queues it again only if its purge has not finished an hour later (a consumer that died part-way).
    purgeQueuedAt: integer("purge_queued_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    index("users_purge_after").on(t.purgeAfter).where(sql`${t.purgeAfter} is not null`),
  ],
);
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export const profiles = sqliteTable("profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  fullName: text("full_name"),
  phone: text("phone"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type Profile = typeof profiles.$inferSelect;

// Agent name, brokerage and market are what the AI features write from.
export const agentProfiles = sqliteTable("agent_profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  agentName: text("agent_name"),
  brokerage: text("brokerage"),
  market: text("market"),
  licenseNumber: text("license_number"),
  /** Closes e-mails written from templates ({signature}); when empty, the name, brokerage and phone. */
  signature: text("signature"),
  /** The postal address marketing e-mail must carry (CAN-SPAM): plans' e-mails are not sent without it. */
  postalAddress: text("postal_address"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type AgentProfile = typeof agentProfiles.$inferSelect;

export const subscribers = sqliteTable(
  "subscribers",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("inactive"),
    plan: text("plan", { enum: PLANS }).notNull().default("solo"),
    /** Paid seats (the Stripe quantity): 1 on Solo; on Team the members, at least TEAM_MIN_SEATS. */
    seats: integer("seats").notNull().default(1),
    billingPeriod: text("billing_period", { enum: BILLING_PERIODS }),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    trialEndsAt: integer("trial_ends_at", { mode: "timestamp_ms" }),
    currentPeriodEnd: integer("current_period_end", { mode: "timestamp_ms" }),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    // Stripe `created` time of the newest event applied, so an older event arriving late never wins.
    statusChangedAt: integer("status_changed_at", { mode: "timestamp_ms" }),
    welcomeEmailSentAt: integer("welcome_email_sent_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscribers_stripe_customer_idx").on(t.stripeCustomerId)],
);
export type Subscriber = typeof subscribers.$inferSelect;

export const userPreferences = sqliteTable("user_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  onboardingCompleted: integer("onboarding_completed", { mode: "boolean" }).notNull().default(false),
  onboardingSkipped: integer("onboarding_skipped", { mode: "boolean" }).notNull().default(false),
  onboardingCompletedAt: integer("onboarding_completed_at", { mode: "timestamp_ms" }),
  onboardingSkippedAt: integer("onboarding_skipped_at", { mode: "timestamp_ms" }),
  // "list" (the default) fits the screen: cards on phones, the table from md up; "table" and "cards" are the
  // agent's explicit choice and hold on every screen (docs/decisions/0022-contact-list-on-phones.md).
  contactsLayout: text("contacts_layout", { enum: ["list", "table", "cards"] })
    .notNull()
    .default("list"),
  contactsDensity: text("contacts_density", { enum: ["comfortable", "compact"] })
    .notNull()
    .default("comfortable"),
  contactsDetail: text("contacts_detail", { enum: ["summary", "full"] })
    .notNull()
    .default("summary"),
  dateFormat: text("date_format", { enum: DATE_FORMATS }).notNull().default("US"),
  timeFormat: text("time_format", { enum: TIME_FORMATS }).notNull().default("12h"),
  timezone: text("timezone").notNull().default("America/New_York"),
  currency: text("currency", { enum: CURRENCIES }).notNull().default("USD"),
  /** The agent's annual income goal (agent net, cents) for Reports; null: none set. */
  incomeGoalCents: integer("income_goal_cents"),
  /** The 7:00 daily digest e-mail (Settings → Notifications): off until the agent turns it on. */
  digestEmail: integer("digest_email", { mode: "boolean" }).notNull().default(false),
  /** The agent's day ("YYYY-MM-DD") the last digest was sent for: one a day. */
  digestSentOn: text("digest_sent_on"),
  /** The app's address as the agent turned the digest on, for its links where PUBLIC_URL is not set. */
  digestOrigin: text("digest_origin"),
  // The agent's sending hours for automatic e-mails to leads (minutes after their local midnight, [from, until)).
  replyFromMinute: integer("reply_from_minute").notNull().default(480),
  replyUntilMinute: integer("reply_until_minute").notNull().default(1260),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type UserPreferences = typeof userPreferences.$inferSelect;

// Single-use links. Only a SHA-256 of the secret part is stored, so a database leak gives no usable link.
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: AUTH_TOKEN_PURPOSES }).notNull(),
    secretHash: text("secret_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("auth_tokens_user_purpose_idx").on(t.userId, t.purpose)],
);
export type AuthToken = typeof authTokens.$inferSelect;

// Every e-mail is recorded here before it goes on the e-mail queue; the row is the delivery's idempotency record
// (ADR 0056). Without a provider it stays in the outbox (the dev mailbox lists it).
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    /** Extra headers for the provider (e.g. List-Unsubscribe), as the sender gave them. */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    // An e-mail sent for an agent (a lead's instant reply): "Dana Reyes via Porchlight", and replies go to the agent.
    fromName: text("from_name"),
    replyTo: text("reply_to"),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("outbox"),
    /** Times a consumer claimed the row to hand it to the provider (since it was last queued). */
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
    /** Times an admin sent it again from the dead letters: part of the provider's idempotency key. */
    sentAgain: integer("sent_again").notNull().default(0),
    deadAt: integer("dead_at", { mode: "timestamp_ms" }),
    provider: text("provider"),
    providerMessageId: text("provider_message_id"),
    error: text("error"),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("email_outbox_to_created_idx").on(t.toAddress, t.createdAt),
    index("email_outbox_status_idx").on(t.status, t.lastAttemptAt),
    index("email_outbox_user").on(t.userId).where(sql`${t.userId} is not null`),
  ],
);
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;

// One row per run of each cron job (app/modules/ops/cron-jobs.ts), with its outcome and a one-line result in
// `detail` (the error when it failed); the Operations Center reads these.
export const cronRuns = sqliteTable(
  "cron_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    job: text("job").notNull(),
    cron: text("cron").notNull(),
    scheduledAt: integer("scheduled_at", { mode: "timestamp_ms" }).notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: ["ok", "error"] }).notNull(),
    detail: text("detail"),
  },
  // By job (each job's latest run), and failures by time (the Operations Center's failures of the last days).
  (t) => [index("cron_runs_job_started_idx").on(t.job, t.startedAt), index("cron_runs_status_started").on(t.status, t.startedAt)],
);

/**
 * The Operations Center's measurements (migration 0014, ADR 0024). A row is one metric on one route
 * pattern over a minute (written by one recorder shard, workers/durable-objects/ops-recorder.do.ts) or an
 * hour (all shards, rolled up by the cron). Values are in ms (layout shift in thousandths); `histogram` holds
 * the counts per fixed bucket (app/modules/ops/histogram.ts), so percentiles merge across rows exactly.
 */
export const metricRollups = sqliteTable(
  "metric_rollups",
  {
    span: text("span", { enum: ["minute", "hour"] }).notNull(),
    /** The minute's or hour's first instant (epoch ms). */
    start: integer("start").notNull(),
    metric: text("metric").notNull(),
    route: text("route").notNull(),
    /** The recorder shard that wrote a minute; "all" for an hour. */
    shard: text("shard").notNull(),
    n: integer("n").notNull(),
    /** Of a request metric: answers with a 5xx status. */
    errors: integer("errors").notNull().default(0),
    sum: real("sum").notNull().default(0),
    histogram: text("histogram").notNull().default("[]"),
  },
  // Read by metric over a window; rolled up and pruned by span and time.
  (t) => [uniqueIndex("metric_rollups_key").on(t.span, t.metric, t.start, t.route, t.shard), index("metric_rollups_span_start").on(t.span, t.start)],
);

/** Answers with a 4xx or 5xx status, per route pattern and status per minute (the Monitoring tab's recent errors). */
export const errorRollups = sqliteTable(
  "error_rollups",
  {
    start: integer("start").notNull(),
    route: text("route").notNull(),
    status: integer("status").notNull(),
    /** The recorder shard that wrote it (a minute is written once per shard). */
    shard: text("shard").notNull(),
    n: integer("n").notNull(),
    lastSeen: integer("last_seen").notNull(),
  },
  (t) => [uniqueIndex("error_rollups_key").on(t.start, t.route, t.status, t.shard), index("error_rollups_start").on(t.start)],
);

/** One check the cron made of one component (D1, KV, the Durable Object, the outbox, AI, Stripe, webhooks, the cron itself). */
export const probeResults = sqliteTable(
  "probe_results",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    component: text("component").notNull(),
    at: integer("at").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    ms: integer("ms").notNull(),
    /** What the probe read, where it reads a quantity: outbox backlog (messages), webhook lag or lateness (s). */
    value: real("value"),
    detail: text("detail"),
  },
  (t) => [index("probe_results_component_at").on(t.component, t.at), index("probe_results_at").on(t.at)],
);

/**
 * Figures the cron aggregates over many rows and the Operations Center reads back as one row (ADR 0024): the
 * Monitoring tab's day, week and month windows, as of `computed_at`. `version` names the shape of `body`; a row of
 * another shape is computed again on read.
 */
export const opsAggregates = sqliteTable("ops_aggregates", {
  name: text("name").primaryKey(),
  version: integer("version").notNull(),
  computedAt: integer("computed_at").notNull(),
  body: text("body").notNull(),
});

/** A reading the cron checks every five minutes (Operations Center → Thresholds; spec: system_thresholds). */
export const systemThresholds = sqliteTable("system_thresholds", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  metricName: text("metric_name").notNull().unique(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  warningThreshold: real("warning_threshold").notNull(),
  criticalThreshold: real("critical_threshold").notNull(),
  comparisonOperator: text("comparison_operator", { enum: ["greater_than", "less_than"] })
    .notNull()
    .default("greater_than"),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
});

/** A threshold breached: open while the condition holds (one per metric at a time), resolved when it clears. */
export const systemAlerts = sqliteTable(
  "system_alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    metricName: text("metric_name").notNull(),
    level: text("level", { enum: ["warning", "critical"] }).notNull(),
    /** The latest reading that breached, and the threshold it passed. */
    reading: real("reading").notNull(),
    threshold: real("threshold").notNull(),
    openedAt: integer("opened_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    resolvedAt: integer("resolved_at"),
    /**
     * The highest level admins have been e-mailed about: the opening e-mail sets it, and an alert that becomes
     * critical after opening as a warning is mailed once more (claimed by moving this to critical). Null before
     * any e-mail went out.
     */
    mailedLevel: text("mailed_level", { enum: ["warning", "critical"] }),
  },
  (t) => [uniqueIndex("system_alerts_one_open").on(t.metricName).where(sql`${t.resolvedAt} is null`), index("system_alerts_opened").on(t.openedAt)],
);

/** A note on the public status page about something going wrong, posted and resolved by an admin. */
export const statusIncidents = sqliteTable(
  "status_incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    component: text("component").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    openedAt: integer("opened_at").notNull(),
    resolvedAt: integer("resolved_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("status_incidents_opened").on(t.openedAt),
    index("status_incidents_created_by").on(t.createdBy).where(sql`${t.createdBy} is not null`),
  ],
);

// Every Stripe event applied, recorded in the same batch as its effects: a replay finds its id here.
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  stripeCreatedAt: integer("stripe_created_at", { mode: "timestamp_ms" }).notNull(),
  processedAt: integer("processed_at", { mode: "timestamp_ms" }).notNull(),
});

// One trial per customer: the normalised e-mail (and Stripe customer) of everyone who started one.
export const trialClaims = sqliteTable(
  "trial_claims",
  {
    emailKey: text("email_key").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    stripeCustomerId: text("stripe_customer_id"),
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("trial_claims_customer_idx").on(t.stripeCustomerId), index("trial_claims_user").on(t.userId).where(sql`${t.userId} is not null`)],
);

export const CHECKOUT_STATUSES = ["open", "completed", "abandoned"] as const;

// Checkouts started from /trial/start: Stripe Checkout sessions, or local test-mode checkouts.
export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    billingPeriod: text("billing_period", { enum: BILLING_PERIODS }).notNull(),
    withTrial: integer("with_trial", { mode: "boolean" }).notNull(),
    status: text("status", { enum: CHECKOUT_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("checkout_sessions_user_idx").on(t.userId, t.createdAt)],
);
export type CheckoutSession = typeof checkoutSessions.$inferSelect;

// Messages sent through the public contact form (spec section 3, "Contact-form submission").
export const contactSubmissions = sqliteTable(
  "contact_submissions",
  {
    id: text("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    company: text("company").notNull(),
    interest: text("interest", { enum: CONTACT_INTERESTS }).notNull(),
    message: text("message").notNull(),
    consent: integer("consent", { mode: "boolean" }).notNull(),
    notifiedAt: integer("notified_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("contact_submissions_created_idx").on(t.createdAt)],
);

/** The indexes of leads by agent and arrival, and of answered leads by agent, source and arrival: figures.server.ts names them to SQLite (INDEXED BY). */
export const LEAD_INDEXES = { byArrival: "contacts_user_lead", answeredBySource: "contacts_user_answered_lead" } as const;

/**
 * Spec section 3 contacts, plus company, address and timeline, which the import columns of the guides carry.
 * Tags are a JSON array of unique strings; triggers (migration 0004) mirror them into contact_tags for
 * filtering and keep the contacts_fts full-text index in step with every write.
 */
export const contacts = sqliteTable(
  "contacts",
  {
    // The rowid alias: a stable integer key for the full-text index (VACUUM may renumber implicit rowids).
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    phone: text("phone"),
    email: text("email"),
    status: text("status", { enum: CONTACT_STATUSES }).notNull().default("cold"),
    budgetMin: integer("budget_min"),
    budgetMax: integer("budget_max"),
    propertyType: text("property_type", { enum: PROPERTY_TYPES }).notNull().default("house"),
    bedrooms: integer("bedrooms"),
    bathrooms: integer("bathrooms"),
    location: text("location"),
    source: text("source", { enum: CONTACT_SOURCES }).notNull().default("other"),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    company: text("company"),
    address: text("address"),
    timeline: text("timeline"),
    notes: text("notes"),
    lastActivity: integer("last_activity", { mode: "timestamp_ms" }).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    /** Lead score 0–100 (modules/contacts/lead-score.ts) and the factors behind it, as last computed. */
    leadScore: integer("lead_score").notNull().default(0),
    leadScoreFactors: text("lead_score_factors", { mode: "json" }).$type<LeadScoreFactor[]>().notNull().default(sql`'[]'`),
    /** When the score was computed; null means an input changed since (set by triggers, migration 0010). */
    leadScoredAt: integer("lead_scored_at", { mode: "timestamp_ms" }),
    // When the contact asked to get no more e-mail from Porchlight (an unsubscribe link): nothing automatic is sent after.
    emailOptOutAt: integer("email_opt_out_at", { mode: "timestamp_ms" }),
    /** The address bounced (the provider or the mailbox said so): nothing more is sent to it until it is changed. */
    emailBouncedAt: integer("email_bounced_at", { mode: "timestamp_ms" }),
    /**
     * The first call, text, e-mail sent or meeting logged with the contact: speed to lead. Kept by
     * triggers on crm_activities (migration 0012); null while nobody has answered the lead.
     */
    firstResponseAt: integer("first_response_at", { mode: "timestamp_ms" }),
    /**
     * Who gave that first answer (the agent who held the contact then), kept by the same triggers (migration 0033):
     * speed to lead is theirs, and stays theirs when the contact is handed to a teammate later.
     */
    answeredBy: text("answered_by").references(() => users.id, { onDelete: "set null" }),
    /**
     * When the contact arrived as a new lead (added one at a time, an import row marked New, a team lead assigned to
     * the agent); null for every other contact. The one definition of a lead (modules/reports/figures.server.ts):
     * part of the row, so a contact restored from the trash is the lead it was.
     */
    leadAt: integer("lead_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Each list order, as (owner, key, id) so cursor pagination walks an index.
    index("contacts_user_created").on(t.userId, t.createdAt, t.id),
    index("contacts_user_score").on(t.userId, t.leadScore, t.id),
    // Scores waiting to be computed, and the daily sweep that ages recency (oldest first).
    index("contacts_user_unscored").on(t.userId).where(sql`${t.leadScoredAt} is null`),
    index("contacts_scored_at").on(t.leadScoredAt),
    index("contacts_user_name").on(t.userId, sql`${t.name} collate nocase`, t.id),
    index("contacts_user_activity").on(t.userId, t.lastActivity, t.id),
    index("contacts_user_budget").on(t.userId, sql`coalesce(${t.budgetMax}, -1)`, t.id),
    // Status filters, and the dashboard's follow-up count (hot/warm contacts quiet since a date).
    index("contacts_user_status_activity").on(t.userId, t.status, t.lastActivity),
    // Contacts not yet answered, oldest first; contacts added per source in a period (Reports and the dashboard's
    // lead sources).
    index("contacts_user_unanswered").on(t.userId, t.createdAt).where(sql`${t.firstResponseAt} is null`),
    index("contacts_user_source_created").on(t.userId, t.source, t.createdAt),
    // Leads (figures.server.ts): arrived in a period, by source, answered (and by whom) or waiting; covering, so no
    // wide row is read.
    index(LEAD_INDEXES.byArrival).on(t.userId, t.leadAt, t.source, t.firstResponseAt, t.answeredBy).where(sql`${t.leadAt} is not null`),
    // The answered leads per source (speed to lead in Reports, the dashboard and Team reports): a seek per agent and
    // source, already in group order, reading only leads that have an answer (ADR 0081). How many leads arrived is
    // counted in lead_source_days.
    index(LEAD_INDEXES.answeredBySource)
      .on(t.userId, t.source, t.leadAt, t.firstResponseAt, t.answeredBy)
      .where(sql`${t.leadAt} is not null and ${t.firstResponseAt} is not null`),
    // Who answered: a user's deletion sets it null, and SQLite finds those rows through this (ADR 0063).
    index("contacts_answered_by").on(t.answeredBy).where(sql`${t.answeredBy} is not null`),
    // Duplicate matching: e-mail case-insensitively, phone as written, and phone by its digits (the expression in
    // modules/contacts/duplicates.server.ts, which the warning before a save looks up).
    index("contacts_user_email").on(t.userId, sql`lower(${t.email})`),
    index("contacts_user_phone").on(t.userId, t.phone),
    index("contacts_user_phone_digits").on(
      t.userId,
      sql`replace(replace(replace(replace(replace(replace(${t.phone}, '-', ''), ' ', ''), '(', ''), ')', ''), '.', ''), '+', '')`,
    ),
  ],
);
export type Contact = typeof contacts.$inferSelect;
export type NewContact = typeof contacts.$inferInsert;

/** One factor of a lead score: what it is, the points it gave (may be negative) and a plain-words reason. */
export interface LeadScoreFactor {
  key: "status" | "budget" | "recency" | "engagement" | "source" | "deals" | "reachable";
  points: number;
  max: number;
  reason: string;
}

/**
 * A counter per user that triggers raise on every change to what the insights read: contacts, deals, tasks,
 * activities (migration 0010), display preferences and pipeline stages (migration 0011). The insight cache (a Durable Object per user) keeps the version it computed from, so any
 * write, whoever makes it, invalidates it.
 */
export const insightVersions = sqliteTable("insight_versions", {
  userId: text("user_id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/** One row per (contact, tag), maintained by triggers from contacts.tags: the tag filter and tag counts use it. */
export const contactTags = sqliteTable(
  "contact_tags",
  {
    userId: text("user_id").notNull(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    tag: text("tag").notNull(),
  },
  (t) => [uniqueIndex("contact_tags_pk").on(t.contactId, t.tag), index("contact_tags_user_tag").on(t.userId, t.tag)],
);

/** Contacts per status for each user, kept by triggers (migration 0005): the unfiltered counts read this. */
export const contactStatusCounts = sqliteTable(
  "contact_status_counts",
  {
    userId: text("user_id").notNull(),
    status: text("status", { enum: CONTACT_STATUSES }).notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [uniqueIndex("contact_status_counts_pk").on(t.userId, t.status)],
);

/** Contacts per tag for each user, kept by triggers on contact_tags (migration 0005). */
export const contactTagCounts = sqliteTable(
  "contact_tag_counts",
  {
    userId: text("user_id").notNull(),
    tag: text("tag").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [uniqueIndex("contact_tag_counts_pk").on(t.userId, t.tag)],
);

/**
 * Contacts added per source per UTC day for each user, kept by triggers on contacts (migration 0013). Reports
 * count a long period's whole days here and only its two edge days from the contacts themselves (an agent's day
 * starts at her own midnight, rarely a UTC one), so a year is a few hundred rows however many contacts it holds.
 */
export const contactSourceDays = sqliteTable(
  "contact_source_days",
  {
    userId: text("user_id").notNull(),
    source: text("source", { enum: CONTACT_SOURCES }).notNull(),
    /** The UTC day's first instant (epoch ms). */
    day: integer("day").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [uniqueIndex("contact_source_days_pk").on(t.userId, t.source, t.day)],
);

/**
 * Leads per source per UTC day of their arrival (contacts.lead_at) for each agent who holds them, kept by triggers on
 * contacts (migration 0060, ADR 0081). A lead counts for its holder while it waits or when they answered it themselves
 * (figures.server.ts): one answered by a teammate before a handover is not in its new holder's count. Reports and Team
 * reports read a period's whole days here and its two edge days from the contacts, as contact_source_days.
 */
export const leadSourceDays = sqliteTable(
  "lead_source_days",
  {
    userId: text("user_id").notNull(),
    source: text("source", { enum: CONTACT_SOURCES }).notNull(),
    /** The UTC day's first instant (epoch ms). */
    day: integer("day").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [uniqueIndex("lead_source_days_pk").on(t.userId, t.source, t.day)],
);

/** A stage of the user's pipeline, as kept in crm_config.deal_stages (order is the array's order). */
export interface DealStage {
  /** Stable key deals refer to: the defaults' keys (lead … closed_lost) or a generated one. */
  key: string;
  name: string;
  /** #rrggbb */
  color: string;
  /** Default probability (0–100) a deal takes when it moves here. */
  probability: number;
  kind: "open" | "won" | "lost";
}

/** Spec section 3 crm_config: each user's pipeline stages. No row means the defaults (modules/pipeline/stages.ts). */
export const crmConfig = sqliteTable("crm_config", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  dealStages: text("deal_stages", { mode: "json" }).$type<DealStage[]>().notNull(),
  updatedAt: updatedAt(),
});

/** A commission plan's terms: an agent's own (commission_plans) and a team's default (team_commission_plans). */
const planTerms = () => ({
  defaultRate: real("default_rate").notNull().default(3),
  referralFeePct: real("referral_fee_pct").notNull().default(0),
  brokerageSplitPct: real("brokerage_split_pct").notNull().default(0),
  brokerageCapCents: integer("brokerage_cap_cents"),
  capYearStart: text("cap_year_start").notNull().default("01-01"),
  teamSplitPct: real("team_split_pct").notNull().default(0),
  transactionFeeCents: integer("transaction_fee_cents").notNull().default(0),
  eoFeeCents: integer("eo_fee_cents").notNull().default(0),
  franchiseFeePct: real("franchise_fee_pct").notNull().default(0),
});

/**
 * Each user's commission plan. Percentages are stored as percent (2.5 = 2.5 %), money in integer
 * cents. The cap year starts each year on cap_year_start ("MM-DD"). No row means a plan of defaults.
 */
export const commissionPlans = sqliteTable("commission_plans", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  ...planTerms(),
  updatedAt: updatedAt(),
});
export type CommissionPlanRow = typeof commissionPlans.$inferSelect;

/**
 * Spec section 3 deals, plus what agents track: side, property address, key dates, closed date, lost
 * reason, notes, and per-deal overrides of the commission plan (null = the plan's value). Money is in
 * integer cents; dates without a time of day are "YYYY-MM-DD" text, so no timezone can shift them.
 * `position` orders cards within a stage (fractional-indexing keys).
 */
export const deals = sqliteTable(
  "deals",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    stage: text("stage").notNull(),
    position: text("position").notNull(),
    dealValueCents: integer("deal_value_cents").notNull().default(0),
    commissionRate: real("commission_rate").notNull(),
    probability: integer("probability").notNull(),
    /** True once the user chose the probability: stage moves then leave it alone. */
    probabilitySet: integer("probability_set", { mode: "boolean" }).notNull().default(false),
    expectedCloseDate: text("expected_close_date"),
    side: text("side", { enum: DEAL_SIDES }),
    propertyAddress: text("property_address"),
    inspectionDate: text("inspection_date"),
    appraisalDate: text("appraisal_date"),
    financingDate: text("financing_date"),
    closingDate: text("closing_date"),
    closedDate: text("closed_date"),
    lostReason: text("lost_reason"),
    notes: text("notes"),
    referralFeePct: real("referral_fee_pct"),
    brokerageSplitPct: real("brokerage_split_pct"),
    teamSplitPct: real("team_split_pct"),
    transactionFeeCents: integer("transaction_fee_cents"),
    eoFeeCents: integer("eo_fee_cents"),
    franchiseFeePct: real("franchise_fee_pct"),
    stageChangedAt: integer("stage_changed_at", { mode: "timestamp_ms" }).notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The board reads each column's first cards in order straight off this index.
    index("deals_user_stage_position").on(t.userId, t.stage, t.position, t.id),
    index("deals_user_close").on(t.userId, t.expectedCloseDate),
    index("deals_user_closed").on(t.userId, t.closedDate),
    index("deals_contact").on(t.contactId),
  ],
);
export type Deal = typeof deals.$inferSelect;
export type NewDeal = typeof deals.$inferInsert;

/**
 * crm_activities: everything that happened with a contact or deal, newest first on the timelines. Stage
 * changes carry meta (from, to, lost reason). Triggers (migration 0008) keep contacts.last_activity at the
 * latest activity's time.
 */
export const crmActivities = sqliteTable(
  "crm_activities",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    dealId: text("deal_id").references(() => deals.id, { onDelete: "cascade" }),
    type: text("type", { enum: ACTIVITY_TYPES }).notNull(),
    occurredAt: integer("occurred_at", { mode: "timestamp_ms" }).notNull(),
    outcome: text("outcome"),
    notes: text("notes"),
    meta: text("meta", { mode: "json" }).$type<Record<string, string | number | null>>(),
    /** The task whose completion this activity records, if any. */
    taskId: text("task_id").references(() => crmTasks.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("crm_activities_user_time").on(t.userId, t.occurredAt),
    // Reports' activities by type and week: read per type in time order, with no table row touched.
    index("crm_activities_user_type_time").on(t.userId, t.type, t.occurredAt),
    index("crm_activities_deal_time").on(t.dealId, t.occurredAt),
    index("crm_activities_contact_time").on(t.contactId, t.occurredAt),
    index("crm_activities_task").on(t.taskId),
  ],
);
export type Activity = typeof crmActivities.$inferSelect;

/**
 * deal_stage_history: each stay of a deal in a stage, from when it entered to when it left (null: still
 * there) and where it went. Kept by triggers on deals (migration 0012), so the Reports funnel reads the
 * stays that began in a period from one index instead of parsing every stage-change activity.
 */
export const dealStageHistory = sqliteTable(
  "deal_stage_history",
  {
    seq: integer("seq").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    stage: text("stage").notNull(),
    enteredAt: integer("entered_at", { mode: "timestamp_ms" }).notNull(),
    leftAt: integer("left_at", { mode: "timestamp_ms" }),
    nextStage: text("next_stage"),
  },
  (t) => [index("deal_stage_history_user_entered").on(t.userId, t.enteredAt), index("deal_stage_history_deal_open").on(t.dealId, t.leftAt)],
);

/** What the agent spent on a lead source in a month (Settings → Goals; optional), for cost per lead and return on spend. */
export const leadSourceCosts = sqliteTable(
  "lead_source_costs",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    source: text("source", { enum: CONTACT_SOURCES }).notNull(),
    /** "YYYY-MM" */
    month: text("month").notNull(),
    costCents: integer("cost_cents").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("lead_source_costs_user_month_source").on(t.userId, t.month, t.source)],
);

/**
 * crm_tasks. The due date is the user's own calendar day ("YYYY-MM-DD") and the optional time their wall
 * clock ("HH:MM"), so "overdue" compares against today in their timezone and no UTC shift can move a task
 * to another day. Completing a repeating task creates the next one (`repeatOf` points back to it).
 */
export const crmTasks = sqliteTable(
  "crm_tasks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    dealId: text("deal_id").references(() => deals.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    notes: text("notes"),
    type: text("type", { enum: TASK_TYPES }).notNull().default("follow_up"),
    priority: text("priority", { enum: TASK_PRIORITIES }).notNull().default("medium"),
    status: text("status", { enum: TASK_STATUSES }).notNull().default("open"),
    dueDate: text("due_date").notNull(),
    dueTime: text("due_time"),
    repeat: text("repeat", { enum: TASK_REPEATS }),
    repeatOf: text("repeat_of"),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Today, Overdue and Upcoming read open tasks in due order; Completed reads by completion time.
    index("crm_tasks_user_status_due").on(t.userId, t.status, t.dueDate, t.dueTime),
    index("crm_tasks_user_completed").on(t.userId, t.completedAt),
    index("crm_tasks_contact").on(t.contactId),
    index("crm_tasks_deal").on(t.dealId),
  ],
);
export type Task = typeof crmTasks.$inferSelect;
export type NewTask = typeof crmTasks.$inferInsert;

/** The private calendar (ICS) feed: one per user. Only a SHA-256 of the URL's secret is stored. */
export const calendarFeeds = sqliteTable("calendar_feeds", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: createdAt(),
});
export type CalendarFeed = typeof calendarFeeds.$inferSelect;

/**
 * Spec section 3 "GDPR request": every export, data deletion and account deletion an agent asks for,
 * shown to the agent in Settings → Data and to admins in the Operations Center. `user_id` is kept after the
 * account is purged (set null), so the record of an erasure outlives the data it erased.
 */
export const gdprRequests = sqliteTable(
  "gdpr_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    type: text("type", { enum: GDPR_REQUEST_TYPES }).notNull(),
    status: text("status", { enum: GDPR_REQUEST_STATUSES }).notNull().default("pending"),
    description: text("description").notNull(),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("gdpr_requests_user_created").on(t.userId, t.createdAt), index("gdpr_requests_created").on(t.createdAt)],
);
export type GdprRequest = typeof gdprRequests.$inferSelect;

/**
 * Backups of a whole account database in R2 (ADR 0027), one database per backup: one row per backup; the objects are
 * `backups/<id>/manifest.json` and `backups/<id>/<table>.ndjson.gz`. The manifest (row counts and a SHA-256 per
 * table) is the truth; this row is the list's summary. A backup of the whole database has no user id; a safety
 * copy (type "safety", taken before one agent's account is restored from a backup) names the agent it holds.
 */
export const backups = sqliteTable(
  "backups",
  {
    id: text("id").primaryKey(),
    type: text("type", { enum: BACKUP_TYPES }).notNull(),
    status: text("status", { enum: BACKUP_STATUSES }).notNull().default("in_progress"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    /** Compressed bytes stored in R2, manifest included. */
    sizeBytes: integer("size_bytes").notNull().default(0),
    tableCount: integer("table_count").notNull().default(0),
    rowCount: integer("row_count").notNull().default(0),
    /** The newest migration applied when the backup was taken. */
    schemaVersion: text("schema_version"),
    errorMessage: text("error_message"),
    /** The latest restore drill of this backup into the scratch database: passed or failed, when, how long. */
    drillStatus: text("drill_status", { enum: ["passed", "failed"] }),
    drillAt: integer("drill_at"),
    drillMs: integer("drill_ms"),
    drillError: text("drill_error"),
    /** A safety copy's agent: only that agent's rows of the restorable tables are in it. Null: every table, whole. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The account database the backup is of (ADR 0060): 0 is the home database (DB), n is DB_SHARD_n. */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [index("backups_started").on(t.startedAt), index("backups_user").on(t.userId).where(sql`${t.userId} is not null`)],
);
export type Backup = typeof backups.$inferSelect;

/**
 * One agent's account restored from a backup by an admin (ADR 0029): which backup, whose account, the
 * safety copy taken first, who asked, the outcome. Kept after the backups it names are pruned.
 */
export const backupRestores = sqliteTable(
  "backup_restores",
  {
    id: text("id").primaryKey(),
    backupId: text("backup_id").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    safetyBackupId: text("safety_backup_id"),
    status: text("status", { enum: RESTORE_STATUSES }).notNull().default("in_progress"),
    rowCount: integer("row_count").notNull().default(0),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    errorMessage: text("error_message"),
  },
  (t) => [
    index("backup_restores_started").on(t.startedAt),
    index("backup_restores_user").on(t.userId).where(sql`${t.userId} is not null`),
    index("backup_restores_requested_by").on(t.requestedBy).where(sql`${t.requestedBy} is not null`),
  ],
);
export type BackupRestore = typeof backupRestores.$inferSelect;

/**
 * Staging for a restore: the agent's rows read from the backup (checked against its manifest) wait here, as
 * JSON, until one D1 batch swaps them in. Empty between restores.
 */
export const restoreRows = sqliteTable(
  "restore_rows",
  {
    restoreId: text("restore_id")
      .notNull()
      .references(() => backupRestores.id, { onDelete: "cascade" }),
    tbl: text("tbl").notNull(),
    seq: integer("seq").notNull(),
    data: text("data").notNull(),
  },
  (t) => [index("restore_rows_restore_table").on(t.restoreId, t.tbl, t.seq)],
);

/**
 * Long jobs that run as Cloudflare Workflows (ADR 0058): a restore drill, a backup, an agent's restore. One row per
 * job, its id the Workflow instance's; each step of the workflow updates it, so the Operations Center shows what the
 * job is doing (its step and how many of its rows are done) and, at the end, its result or its error.
 */
export const durableJobs = sqliteTable(
  "durable_jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: DURABLE_JOB_KINDS }).notNull(),
    /** The admin who started it; null for the cron's. */
    startedBy: text("started_by").references(() => users.id, { onDelete: "set null" }),
    /** What it works on: the backup drilled or restored from, the backup written. */
    subject: text("subject"),
    status: text("status", { enum: DURABLE_JOB_STATUSES }).notNull().default("queued"),
    /** The step it is on, in words ("Loading contacts"). */
    step: text("step"),
    done: integer("done").notNull().default(0),
    total: integer("total").notNull().default(0),
    /** One line on how it went, when it succeeded. */
    result: text("result"),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("durable_jobs_kind_created").on(t.kind, t.createdAt),
    index("durable_jobs_started_by").on(t.startedBy).where(sql`${t.startedBy} is not null`),
  ],
);
export type DurableJob = typeof durableJobs.$inferSelect;

/**
 * A removed member's handover (ADR 0039, run as a durable job by ADR 0058): the job whose steps move the rows of
 * `from_user_id` to `to_user_id`, a part at a time. Written in the batch that ends the membership, so it is the job's
 * authority: each part re-checks this row, its job still running and the recipient still a member of `team_id`.
 * `bounds` holds each table's highest rowid at that instant (only the rows the member had then move), `totals` the
 * rows counted to move and `moved` those moved, table by table.
 */
export const teamHandovers = sqliteTable(
  "team_handovers",
  {
    id: text("id")
      .primaryKey()
      .references(() => durableJobs.id, { onDelete: "cascade" }),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    fromUserId: text("from_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    toUserId: text("to_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bounds: text("bounds", { mode: "json" }).$type<Record<string, number>>().notNull(),
    totals: text("totals", { mode: "json" }).$type<Record<string, number>>().notNull().default({}),
    moved: text("moved", { mode: "json" }).$type<Record<string, number>>().notNull().default({}),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("team_handovers_team_created").on(t.teamId, t.createdAt),
    index("team_handovers_from_user").on(t.fromUserId),
    index("team_handovers_to_user").on(t.toUserId),
  ],
);
export type TeamHandover = typeof teamHandovers.$inferSelect;

/**
 * The trash (ADR 0028): a deleted contact, deal or task is moved here, out of the live tables, for 30
 * days. Lists, search, reports, insights and exports read the live tables only, so they ignore it by construction.
 * `title` is what Settings → Trash shows (the contact's name, the deal's or task's title).
 */
export const trashItems = sqliteTable(
  "trash_items",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TRASH_KINDS }).notNull(),
    /** The id the contact, deal or task had (and gets back on restore). */
    itemId: text("item_id").notNull(),
    title: text("title").notNull(),
    /** Epoch ms; the cron purges items 30 days after this. */
    deletedAt: integer("deleted_at").notNull(),
  },
  (t) => [index("trash_items_user_deleted").on(t.userId, t.deletedAt), index("trash_items_deleted").on(t.deletedAt)],
);
export type TrashItem = typeof trashItems.$inferSelect;

/**
 * The rows of a trashed item, one per moved row (a deal with thousands of activities never makes one huge row):
 * `data` is the raw row as JSON (`item` and `child`), or for `link` a JSON {table, column, ids} naming rows whose
 * key the delete set to null, re-linked on restore.
 */
export const trashRows = sqliteTable(
  "trash_rows",
  {
    trashId: text("trash_id")
      .notNull()
      .references(() => trashItems.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    tbl: text("tbl").notNull(),
    role: text("role", { enum: TRASH_ROW_ROLES }).notNull(),
    data: text("data").notNull(),
  },
  // The link rows of a user's trash, read when a later delete keeps a key an earlier one set to null (trash.server.ts).
  (t) => [
    index("trash_rows_trash").on(t.trashId, t.seq),
    index("trash_rows_links").on(t.userId, t.tbl).where(sql`${t.role} = 'link'`),
    index("trash_rows_user").on(t.userId),
  ],
);

/** A scratch table the QA Dashboard's D1 check writes one row to, reads back and deletes. */
export const qaScratch = sqliteTable("qa_scratch", {
  id: text("id").primaryKey(),
  value: text("value").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** One press of "Run All Tests" on the QA Dashboard: who ran it, when, and its counts once finished. */
export const qaRuns = sqliteTable(
  "qa_runs",
  {
    id: text("id").primaryKey(),
    /** The admin who ran it; kept, unsigned, when that account is purged. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    suite: text("suite", { enum: ["system", "ai"] })
      .notNull()
      .default("system"),
    status: text("status", { enum: ["running", "completed", "cancelled"] })
      .notNull()
      .default("running"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    passed: integer("passed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    criticalFailed: integer("critical_failed").notNull().default(0),
    total: integer("total").notNull().default(0),
  },
  (t) => [index("qa_runs_started").on(t.startedAt), index("qa_runs_user").on(t.userId).where(sql`${t.userId} is not null`)],
);
export type QaRun = typeof qaRuns.$inferSelect;

/** Spec section 3 "qa_results" (user_id, category, test_name, status, details), with the run, duration and criticality. */
export const qaResults = sqliteTable(
  "qa_results",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id")
      .notNull()
      .references(() => qaRuns.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    category: text("category").notNull(),
    testName: text("test_name").notNull(),
    status: text("status", { enum: ["passed", "failed", "skipped"] }).notNull(),
    critical: integer("critical", { mode: "boolean" }).notNull().default(false),
    details: text("details").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("qa_results_run").on(t.runId, t.id), index("qa_results_user").on(t.userId).where(sql`${t.userId} is not null`)],
);
export type QaResult = typeof qaResults.$inferSelect;

/**
 * The field copy's change log (ADR 0031): one row per insert, change or delete of a contact, task or
 * activity, written by triggers (migration 0023), so a phone's sync asks for what changed since its cursor (the
 * last seq it saw) instead of reloading. `contact_id` is the contact an activity or task belongs to (the old one
 * on a delete), so the contact's activity list can be sent again. Pruned by the cron after 30 days.
 */
export const syncLog = sqliteTable(
  "sync_log",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: ["contact", "task", "activity"] }).notNull(),
    rowId: text("row_id").notNull(),
    contactId: text("contact_id"),
  },
  (t) => [index("sync_log_user_seq").on(t.userId, t.seq)],
);

/** The log's high-water mark as the cron found it each day: entries up to a mark older than 30 days are pruned. */
export const syncMarks = sqliteTable("sync_marks", {
  at: integer("at").primaryKey(),
  seq: integer("seq").notNull(),
});

/**
 * AI drafts an agent started on each UTC day, against the daily quota (AI_DAILY_QUOTA, ADR 0051). A draft is counted
 * when it starts, in one statement that refuses past the quota, and given back in one statement when it fails, so a
 * failed draft never uses up the day and two at once never pass the quota.
 */
export const aiDraftDays = sqliteTable(
  "ai_draft_days",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The UTC day, "YYYY-MM-DD". */
    day: text("day").notNull(),
    drafts: integer("drafts").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("ai_draft_days_day").on(t.day)],
);

/**
 * Changes an agent's phone queued offline and sent later, by the key the phone gave each one: a retry
 * of a change already applied finds its key and gets the first answer back instead of applying it twice.
 */
export const appliedChanges = sqliteTable(
  "applied_changes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The answer the phone got: applied, conflict or rejected, with the message and the ids made. */
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    appliedAt: integer("applied_at").notNull(),
  },
  (t) => [uniqueIndex("applied_changes_user_key").on(t.userId, t.key), index("applied_changes_at").on(t.appliedAt)],
);

/**
 * The devices an agent turned new-lead alerts on for (Settings → Notifications): each a Web Push
 * subscription, its endpoint at the browser's push service and the keys the message is encrypted to. A push service
 * that answers 404 or 410 has dropped the subscription, and so do we.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSentAt: integer("last_sent_at"),
    /** Failed sends in a row (a push service down); reset by a send that goes through. */
    failures: integer("failures").notNull().default(0),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint").on(t.endpoint), index("push_subscriptions_user").on(t.userId)],
);

/**
 * Push messages on their way to an agent's devices (ADR 0056): written by the sender, delivered by the push queue's
 * consumer. The id is the message's idempotency key (a lead's alert, an import's, a reminder run's), so sending the
 * same alert twice writes one row; `sent_to` records each device that took it, so a retry never pushes twice to one.
 */
export const pushOutbox = sqliteTable(
  "push_outbox",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    url: text("url").notNull(),
    tag: text("tag").notNull(),
    /** The lead alerts this message announces (null: a reminder), marked pushed once a device took it. */
    leads: text("leads", { mode: "json" }).$type<{ arrivedAt: number; contactIds: string[] | null }>(),
    status: text("status", { enum: PUSH_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
    /** The subscriptions (ids) that took the message: a retry sends only to the others. */
    sentTo: text("sent_to", { mode: "json" }).$type<string[]>().notNull().default([]),
    deadAt: integer("dead_at", { mode: "timestamp_ms" }),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("push_outbox_status_idx").on(t.status, t.lastAttemptAt), index("push_outbox_user").on(t.userId)],
);
export type PushOutboxRow = typeof pushOutbox.$inferSelect;

/**
 * New leads waiting for the agent's first response: raised when a lead arrives, answered by the first
 * activity logged with the contact after it. The dashboard times each one live; the cron sends one reminder at
 * LEAD_REMINDER_MINUTES.
 */
export const leadAlerts = sqliteTable(
  "lead_alerts",
  {
    contactId: text("contact_id")
      .primaryKey()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    arrivedAt: integer("arrived_at").notNull(),
    /** When the alert and the reminder went out (null: not sent: no device subscribed, or push is off). */
    pushedAt: integer("pushed_at"),
    remindedAt: integer("reminded_at"),
  },
  (t) => [index("lead_alerts_user_arrived").on(t.userId, t.arrivedAt), index("lead_alerts_reminder").on(t.remindedAt, t.arrivedAt)],
);

/**
 * Teams (ADR 0033). The owner's subscription is the team's (plan "team", one seat per member); members
 * use the app on it. An agent belongs to one team at most.
 */
export const teams = sqliteTable(
  "teams",
  {
    id: text("id").primaryKey(),
    /** Who pays: the team's subscription is this user's subscribers row. */
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** How new leads reach an agent (ADR 0038). */
    leadMode: text("lead_mode", { enum: LEAD_MODES }).notNull().default("pond"),
    /** First to claim: how long an offered lead waits for a claim before round robin takes it. */
    claimWindowMinutes: integer("claim_window_minutes").notNull().default(15),
    /** What the owner and admins may do with every member's contacts, timelines and tasks (ADR 0075). */
    memberRecords: text("member_records", { enum: MEMBER_RECORD_ACCESS }).notNull().default("shared"),
    /** Round robin: the member who got the last lead (the next goes to the next available member after them). */
    lastAssignedTo: text("last_assigned_to").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    /** Ownership offered to this member (ADR 0039): they become the owner, and the payer, when they accept. */
    pendingOwnerId: text("pending_owner_id").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    pendingOwnerAt: integer("pending_owner_at", { mode: "timestamp_ms" }),
    /** The secret in the address of the team's public lead form (/inquire/<key>); null while the form is off. */
    leadFormKey: text("lead_form_key"),
    /** Two-factor sign-in (ADR 0074): the owner requires every member to have a second factor before using the app. */
    requireTwoFactor: integer("require_two_factor", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("teams_owner").on(t.ownerId),
    uniqueIndex("teams_lead_form_key").on(t.leadFormKey),
    index("teams_last_assigned_to").on(t.lastAssignedTo).where(sql`${t.lastAssignedTo} is not null`),
    index("teams_pending_owner").on(t.pendingOwnerId).where(sql`${t.pendingOwnerId} is not null`),
  ],
);
export type Team = typeof teams.$inferSelect;

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: TEAM_ROLES }).notNull(),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }).notNull(),
    /** Takes new leads by round robin and may claim them. */
    available: integer("available", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), uniqueIndex("team_members_user").on(t.userId)],
);
export type TeamMember = typeof teamMembers.$inferSelect;

/**
 * The brokerage's default commission plan (ADR 0035): the same terms as commission_plans, set by the team's
 * owner and admins. A member with no commission_plans row of their own is priced by it; their own plan overrides it.
 */
export const teamCommissionPlans = sqliteTable("team_commission_plans", {
  teamId: text("team_id")
    .primaryKey()
    .references(() => teams.id, { onDelete: "cascade" }),
  ...planTerms(),
  updatedAt: updatedAt(),
});

/**
 * The team's new leads (ADR 0038): in the pond until an agent has them, offered to everyone for the claim
 * window, or assigned. An assigned lead is a contact in the agent's own account (contact_id).
 */
/** A property of interest as a lead carries it before it is anyone's contact (a team's lead, ADR 0065). */
export type LeadPropertyJson = { address: string | null; mls: string | null; priceCents: number | null; url: string | null };

export const teamLeads = sqliteTable(
  "team_leads",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    source: text("source", { enum: CONTACT_SOURCES }).notNull(),
    message: text("message"),
    state: text("state", { enum: TEAM_LEAD_STATES }).notNull(),
    /** First to claim: the end of the claim window. */
    offeredUntil: integer("offered_until", { mode: "timestamp_ms" }),
    addedBy: text("added_by").references(() => users.id, { onDelete: "set null" }),
    /** Who got the lead (claimed it, or was given it): kept when a handover moves the contact to a teammate. */
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** Whose account holds its contact now (contact_id): the agent who got it, or a teammate it was handed to. */
    heldBy: text("held_by").references(() => users.id, { onDelete: "set null" }),
    assignedAt: integer("assigned_at", { mode: "timestamp_ms" }),
    /** How it was assigned: "round robin", "claimed", or the name of who assigned it. */
    assignedHow: text("assigned_how"),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    /** The home a lead e-mail asked about (migration 0049): the agent who gets the lead gets it as a property of interest. */
    property: text("property", { mode: "json" }).$type<LeadPropertyJson>(),
    /** The lead's language when its source named one (routing rules match it, ADR 0078). */
    language: text("language"),
    propertyType: text("property_type", { enum: PROPERTY_TYPES }),
    /** How routing placed it (ADR 0078): the rule or after-hours target, its label, who has had it. */
    routing: text("routing", { mode: "json" }).$type<LeadRoutingJson>(),
    /** Given to its agent automatically (routing or round robin, not a claim or a manager): counts toward the daily cap. */
    autoAssigned: integer("auto_assigned", { mode: "boolean" }).notNull().default(false),
    /** How many times auto-reassign has moved it on. */
    hops: integer("hops").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("team_leads_auto").on(t.state, t.autoAssigned, t.assignedAt).where(sql`${t.autoAssigned} = 1`),
    index("team_leads_team_state").on(t.teamId, t.state, t.createdAt),
    index("team_leads_offered").on(t.state, t.offeredUntil),
    index("team_leads_contact").on(t.contactId).where(sql`${t.contactId} is not null`),
    index("team_leads_assigned_to").on(t.assignedTo).where(sql`${t.assignedTo} is not null`),
    index("team_leads_added_by").on(t.addedBy).where(sql`${t.addedBy} is not null`),
    index("team_leads_held_by").on(t.heldBy).where(sql`${t.heldBy} is not null`),
  ],
);
export type TeamLead = typeof teamLeads.$inferSelect;

/** Where a routing rule or the after-hours target sends a lead (ADR 0078). */
export type RouteTargetJson = { kind: "agent" | "group" | "pond"; agents: string[] };

/** How a lead was routed: what placed it (a rule, after hours, the team's mode), in words, and who has had it. */
export type LeadRoutingJson = {
  by: "rule" | "after_hours" | "mode";
  ruleId: string | null;
  label: string;
  had: string[];
};

/** A team's routing rules (ADR 0078), first match wins by `position`; every condition optional and AND-ed. */
export const teamRoutingRules = sqliteTable(
  "team_routing_rules",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    sources: text("sources", { mode: "json" }).$type<ContactSource[]>().notNull().default(sql`'[]'`),
    minPriceCents: integer("min_price_cents"),
    maxPriceCents: integer("max_price_cents"),
    /** Cities (lower case) and five-digit ZIP codes. */
    areas: text("areas", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    language: text("language"),
    propertyType: text("property_type", { enum: PROPERTY_TYPES }),
    target: text("target", { mode: "json" }).$type<RouteTargetJson>().notNull(),
    /** A group target's rotation: the member who got its last lead. */
    lastAssignedTo: text("last_assigned_to").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("team_routing_rules_team").on(t.teamId, t.position),
    index("team_routing_rules_last").on(t.lastAssignedTo).where(sql`${t.lastAssignedTo} is not null`),
  ],
);
export type TeamRoutingRule = typeof teamRoutingRules.$inferSelect;

/** Business hours as the team keeps them: days 0 (Sunday) to 6, from–to "HH:MM" on the owner's clock. */
export type BusinessHoursJson = { days: number[]; from: string; to: string };

/** A team's routing settings (ADR 0078): business hours and the after-hours target, the daily cap, auto-reassign. */
export const teamRouting = sqliteTable(
  "team_routing",
  {
    teamId: text("team_id")
      .primaryKey()
      .references(() => teams.id, { onDelete: "cascade" }),
    businessHours: text("business_hours", { mode: "json" }).$type<BusinessHoursJson>(),
    afterHours: text("after_hours", { mode: "json" }).$type<RouteTargetJson>(),
    /** The after-hours group's rotation. */
    afterHoursLast: text("after_hours_last").references(() => users.id, { onDelete: "set null" }),
    dailyCap: integer("daily_cap"),
    reassignMinutes: integer("reassign_minutes"),
    reassignMax: integer("reassign_max").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [index("team_routing_after_hours_last").on(t.afterHoursLast).where(sql`${t.afterHoursLast} is not null`)],
);
export type TeamRouting = typeof teamRouting.$inferSelect;

/**
 * Shared deals (ADR 0037): a co-agent's share of a deal's side, in percent. The deal's agent (owner_id, the
 * deal's user_id) keeps what the co-agents do not take. Both are members of the same team when the share is made;
 * removing either from the team ends the share.
 */
export const dealShares = sqliteTable(
  "deal_shares",
  {
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    /** The deal's agent: every read of a share is scoped by one of the two agents. */
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sharePct: real("share_pct").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.agentId] }), index("deal_shares_agent").on(t.agentId), index("deal_shares_owner").on(t.ownerId)],
);
export type DealShare = typeof dealShares.$inferSelect;

/**
 * Invitations by e-mail: a signed link (id, expiry, secret, HMAC) whose secret is stored hashed; single use
 * (accepted_at), revocable, and a resend replaces the secret so the older link stops working.
 */
export const teamInvitations = sqliteTable(
  "team_invitations",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    /** Lower-cased; only an account with this address can accept. */
    email: text("email").notNull(),
    role: text("role", { enum: INVITE_ROLES }).notNull(),
    secretHash: text("secret_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("team_invitations_team").on(t.teamId),
    index("team_invitations_email").on(t.email),
    index("team_invitations_invited_by").on(t.invitedBy).where(sql`${t.invitedBy} is not null`),
    index("team_invitations_accepted_by").on(t.acceptedBy).where(sql`${t.acceptedBy} is not null`),
  ],
);
export type TeamInvitation = typeof teamInvitations.$inferSelect;

/**
 * Holds no rows: a write that touches another user's rows inserts one here first, in its own batch, and a trigger
 * (migration 0032) aborts the batch when the relationship the write relies on no longer holds (write-guard.server.ts).
 */
export const writeGuard = sqliteTable("write_guard", {
  ok: integer("ok").notNull(),
});

/**
 * The directory of accounts (ADR 0060): which database holds each account. Read and written only in the home database
 * (the `DB` binding, shard 0); every shard carries the table because every shard runs the same migrations, but the
 * others' stay empty. An agent without a row lives in the home database (the accounts made before the directory are
 * copied in by its migration). A team is one account: its members' rows point at the team's database.
 */
export const accountDirectory = sqliteTable(
  "account_directory",
  {
    userId: text("user_id").primaryKey(),
    // Trimmed and lower-cased: sign-in and sign-up reach the directory by e-mail, and one address is one account
    // across every database (the users table's own unique index covers only its database).
    email: text("email").notNull(),
    /** The index of the database (0 = DB, n = DB_SHARD_n) that holds the agent's rows. */
    shard: integer("shard").notNull(),
    /**
     * The database the account is being copied to (a team joined across databases): until the copy ends the account
     * stays in `shard`, read-only; the last step of the move sets `shard` to this and clears it.
     */
    movingTo: integer("moving_to"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("account_directory_email").on(t.email), index("account_directory_shard").on(t.shard)],
);

/**
 * An account's move to another database (ADR 0060: a team joined across databases), kept in the database the account
 * moves to, so each chunk of rows copied there and the cursor that counts it commit in one batch: a retried step
 * resumes exactly where the last one stopped. `id` is the move's durable job (durable_jobs, in the home database).
 */
export const accountMoves = sqliteTable(
  "account_moves",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    fromShard: integer("from_shard").notNull(),
    toShard: integer("to_shard").notNull(),
    /** The invitation being accepted (used up when the move starts) and what it makes the agent. */
    invitationId: text("invitation_id").notNull(),
    teamId: text("team_id").notNull(),
    role: text("role", { enum: INVITE_ROLES }).notNull(),
    /** copying → moved (the directory points here, the old rows being deleted) → done; or failed (the copy undone). */
    state: text("state", { enum: ACCOUNT_MOVE_STATES }).notNull().default("copying"),
    /** The cursor: the pass (an index in the move's plan) and the old database's rowid reached in it. */
    pass: integer("pass").notNull().default(0),
    afterRowid: integer("after_rowid").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("account_moves_user").on(t.userId)],
);
export type AccountMove = typeof accountMoves.$inferSelect;

/**
 * A property a contact asked about (a portal's listing: its address, MLS number, price and link), linked to the
 * contact and, once there is one, to the deal (migration 0045). Written by lead intake; a contact or deal deleted to
 * the trash unlinks it and a restore links it again (app/modules/trash).
 */
export const properties = sqliteTable(
  "properties",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    dealId: text("deal_id").references(() => deals.id, { onDelete: "set null" }),
    address: text("address"),
    mlsNumber: text("mls_number"),
    priceCents: integer("price_cents"),
    url: text("url"),
    source: text("source", { enum: CONTACT_SOURCES }).notNull().default("other"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("properties_user_created").on(t.userId, t.createdAt),
    index("properties_contact").on(t.contactId).where(sql`${t.contactId} is not null`),
    index("properties_deal").on(t.dealId).where(sql`${t.dealId} is not null`),
  ],
);
export type Property = typeof properties.$inferSelect;

/**
 * An agent's private lead intake address (`<key>@<INTAKE_DOMAIN>`, app/modules/intake): portals' lead e-mails are
 * forwarded there and become leads. One live address per agent; a new one revokes the old (revoked_at), which then
 * bounces. The key names its database (`s<n>_…`, ADR 0060) so the e-mail is routed before anything is read.
 */
export const leadIntakeAddresses = sqliteTable(
  "lead_intake_addresses",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    // A team's address (migration 0048): its leads are the team's, distributed by the team's mode; user_id is the
    // owner who had the team when it was made. Null: the agent's own address.
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("lead_intake_addresses_key").on(t.key),
    index("lead_intake_addresses_user").on(t.userId, t.revokedAt),
    index("lead_intake_addresses_team").on(t.teamId, t.revokedAt).where(sql`${t.teamId} is not null`),
  ],
);

/**
 * Every e-mail that reached a live intake address: who sent it, when, what the parser made of it (`lead`, JSON: name,
 * e-mail, phone, message, property) and what became of it (INTAKE_STATUSES). The body is kept as plain text (an HTML
 * e-mail converted to text, never rendered as HTML) so a lead to review can be read as it came. `auth` holds the
 * receiving server's SPF, DKIM and DMARC verdicts. A message id delivered twice is taken once.
 */
export const leadIntakeMessages = sqliteTable(
  "lead_intake_messages",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addressId: text("address_id")
      .notNull()
      .references(() => leadIntakeAddresses.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    // To a team's address: the team's lead (or one for its owner to review), not a contact of the owner's own.
    teamId: text("team_id").references(() => teams.id, { onDelete: "set null" }),
    messageId: text("message_id"),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull().default(""),
    format: text("format", { enum: INTAKE_FORMATS }).notNull(),
    status: text("status", { enum: INTAKE_STATUSES }).notNull(),
    lead: text("lead").notNull(),
    body: text("body").notNull(),
    auth: text("auth").notNull(),
    size: integer("size").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The e-mails to review (by status), and the latest of every kind (Settings → Lead sources).
    index("lead_intake_messages_user_status").on(t.userId, t.status, t.receivedAt),
    index("lead_intake_messages_user_received").on(t.userId, t.receivedAt),
    uniqueIndex("lead_intake_messages_user_message").on(t.userId, t.messageId).where(sql`${t.messageId} is not null`),
    index("lead_intake_messages_address").on(t.addressId),
    index("lead_intake_messages_contact").on(t.contactId).where(sql`${t.contactId} is not null`),
    index("lead_intake_messages_team").on(t.teamId).where(sql`${t.teamId} is not null`),
  ],
);
export type LeadIntakeMessage = typeof leadIntakeMessages.$inferSelect;

/**
 * An agent's keys to the lead API (`POST /api/v1/leads`, app/modules/intake/lead-api.server.ts; migration 0046): each
 * named, shown once when made and kept only as its SHA-256 hash, with its last four characters to tell keys apart.
 * A key creates leads and nothing else; revoked, it stops at once. The key names its database (`pl_s<n>_…`, ADR 0060).
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    hint: text("hint").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_user").on(t.userId, t.createdAt)],
);

/**
 * An agent's instant first reply for leads from one source (migration 0047, ADR 0068): on or off, and its e-mail as a
 * template with merge fields ({first name}, {property}, {agent name}, {agent phone}).
 */
export const leadReplyTemplates = sqliteTable(
  "lead_reply_templates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    source: text("source", { enum: CONTACT_SOURCES }).notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("lead_reply_templates_user_source").on(t.userId, t.source)],
);
export type LeadReplyTemplate = typeof leadReplyTemplates.$inferSelect;

/**
 * A new lead's instant first reply: one row per contact at most (the unique index is "once per lead"), due at once or
 * when the agent's sending hours open; the cron sends the due ones that are still pending.
 */
export const leadFirstReplies = sqliteTable(
  "lead_first_replies",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    source: text("source", { enum: CONTACT_SOURCES }).notNull(),
    property: text("property"),
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: FIRST_REPLY_STATUSES }).notNull().default("pending"),
    reason: text("reason"),
    outboxId: text("outbox_id"),
    createdAt: createdAt(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("lead_first_replies_contact").on(t.contactId),
    index("lead_first_replies_due").on(t.status, t.dueAt),
    index("lead_first_replies_user").on(t.userId, t.createdAt),
  ],
);
export type LeadFirstReply = typeof leadFirstReplies.$inferSelect;

/**
 * An agent's e-mail and text templates (the spec's crm_templates; migration 0050, ADR 0070), with merge fields
 * (app/modules/templates/merge.ts). With `team_id` set it is the team's, written by its owner or an admin and read by
 * every member, who may copy it to their own (`copied_from` keeps where it came from). `starter` names the starter it
 * was made from, so starters are added once.
 */
export const crmTemplates = sqliteTable(
  "crm_templates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TEMPLATE_KINDS }).notNull(),
    name: text("name").notNull(),
    /** E-mail only. */
    subject: text("subject"),
    body: text("body").notNull(),
    starter: text("starter"),
    copiedFrom: text("copied_from"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("crm_templates_user_kind").on(t.userId, t.kind, t.name),
    index("crm_templates_team").on(t.teamId, t.kind, t.name).where(sql`${t.teamId} is not null`),
  ],
);
export type CrmTemplate = typeof crmTemplates.$inferSelect;

/**
 * An agent's own Gmail mailbox, connected by OAuth (app/modules/gmail, ADR 0069): the address, and the tokens Google
 * gave, each encrypted with TOKEN_ENCRYPTION_KEY ("v1.<iv>.<ciphertext>", never plaintext). One per agent.
 * `needs_reconnect` when Google refused the refresh token; `last_checked_at` is when replies were last looked for.
 */
export const gmailConnections = sqliteTable("gmail_connections", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  email: text("email").notNull(),
  accessToken: text("access_token").notNull(),
  refreshToken: text("refresh_token").notNull(),
  accessExpiresAt: integer("access_expires_at", { mode: "timestamp_ms" }).notNull(),
  scope: text("scope").notNull(),
  status: text("status", { enum: GMAIL_CONNECTION_STATUSES }).notNull().default("connected"),
  lastCheckedAt: integer("last_checked_at", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type GmailConnection = typeof gmailConnections.$inferSelect;

/**
 * A contact's e-mail log (migration 0052, ADR 0071): each e-mail the agent sent them, through their Gmail or as "Agent
 * via Porchlight", and each reply that came back. An e-mail sent as Porchlight carries a reply address of its own
 * (`reply_key`), which the Worker's email() handler reads; one sent through Gmail keeps its thread, whose new messages
 * the cron reads. Bounces and complaints change `status` here and on the timeline's activity (`activity_id`).
 */
export const contactEmails = sqliteTable(
  "contact_emails",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    direction: text("direction", { enum: ["out", "in"] }).notNull(),
    via: text("via", { enum: EMAIL_VIAS }).notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: CONTACT_EMAIL_STATUSES }).notNull(),
    /** Sent as Porchlight: the secret in its reply address (reply-<key>@INTAKE_DOMAIN), naming its database. */
    replyKey: text("reply_key"),
    /** Sent or read through Gmail: its thread and message ids there. */
    threadId: text("thread_id"),
    providerMessageId: text("provider_message_id"),
    rfcMessageId: text("rfc_message_id"),
    /** Sent as Porchlight: its outbox row, which the provider's bounce names. */
    outboxId: text("outbox_id"),
    templateId: text("template_id").references(() => crmTemplates.id, { onDelete: "set null" }),
    /** Sent by an action plan's step: its run (migration 0053). */
    planRunId: text("plan_run_id").references((): AnySQLiteColumn => planRuns.id, { onDelete: "set null" }),
    /** A reply: the e-mail it answered. */
    repliesTo: text("replies_to").references((): AnySQLiteColumn => contactEmails.id, { onDelete: "set null" }),
    activityId: text("activity_id").references(() => crmActivities.id, { onDelete: "set null" }),
    error: text("error"),
    occurredAt: integer("occurred_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("contact_emails_user_time").on(t.userId, t.occurredAt),
    index("contact_emails_contact_time").on(t.contactId, t.occurredAt),
    uniqueIndex("contact_emails_reply_key").on(t.replyKey).where(sql`${t.replyKey} is not null`),
    index("contact_emails_thread").on(t.userId, t.threadId).where(sql`${t.threadId} is not null`),
    uniqueIndex("contact_emails_provider_message").on(t.userId, t.via, t.providerMessageId).where(sql`${t.providerMessageId} is not null`),
    index("contact_emails_outbox").on(t.outboxId).where(sql`${t.outboxId} is not null`),
    index("contact_emails_template").on(t.templateId).where(sql`${t.templateId} is not null`),
    index("contact_emails_replies_to").on(t.repliesTo).where(sql`${t.repliesTo} is not null`),
    index("contact_emails_activity").on(t.activityId).where(sql`${t.activityId} is not null`),
    index("contact_emails_plan_run").on(t.planRunId).where(sql`${t.planRunId} is not null`),
  ],
);
export type ContactEmail = typeof contactEmails.$inferSelect;

/** One step of an action plan: wait `waitDays` after the step before (or the start), then do `kind`. */
export interface PlanStep {
  kind: PlanStepKind;
  waitDays: number;
  /** E-mail steps (sent, or a task to review and send) and text tasks: the template. */
  templateId?: string | null;
  /** Call and text tasks: what the task says. */
  title?: string | null;
}

/**
 * An agent's action plan (migration 0053, ADR 0072): ordered steps, and when it starts on its own: a new lead from
 * `start_source`, or a deal entering `start_stage`. A run stops when the contact's deal enters one of `stop_stages`.
 */
export const actionPlans = sqliteTable(
  "action_plans",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    steps: text("steps", { mode: "json" }).$type<PlanStep[]>().notNull(),
    startSource: text("start_source", { enum: CONTACT_SOURCES }),
    startStage: text("start_stage"),
    stopStages: text("stop_stages", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    starter: text("starter"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("action_plans_user_name").on(t.userId, t.name),
    index("action_plans_user_source").on(t.userId, t.startSource).where(sql`${t.startSource} is not null`),
    index("action_plans_user_stage").on(t.userId, t.startStage).where(sql`${t.startStage} is not null`),
  ],
);
export type ActionPlan = typeof actionPlans.$inferSelect;

/**
 * A contact's run of a plan: its steps as they were when it started, the next step and when it is due (an instant,
 * computed in the agent's timezone and sending hours). The cron's pass claims a due step by moving `next_step` on in
 * the same statement, so a step runs once however often the pass is retried. Paused, `remaining_ms` keeps the wait
 * left, which resuming puts back.
 */
export const planRuns = sqliteTable(
  "plan_runs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: text("plan_id").references(() => actionPlans.id, { onDelete: "set null" }),
    planName: text("plan_name").notNull(),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    steps: text("steps", { mode: "json" }).$type<PlanStep[]>().notNull(),
    stopStages: text("stop_stages", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    status: text("status", { enum: PLAN_RUN_STATUSES }).notNull(),
    nextStep: integer("next_step").notNull().default(0),
    /** When the next step is due; null once finished or stopped. */
    nextAt: integer("next_at", { mode: "timestamp_ms" }),
    remainingMs: integer("remaining_ms"),
    stopReason: text("stop_reason"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("plan_runs_due").on(t.status, t.nextAt),
    index("plan_runs_user_started").on(t.userId, t.startedAt),
    index("plan_runs_contact").on(t.contactId),
    index("plan_runs_plan").on(t.planId).where(sql`${t.planId} is not null`),
    // One live run of a plan per contact.
    uniqueIndex("plan_runs_live").on(t.contactId, t.planId).where(sql`${t.status} in ('running', 'paused')`),
  ],
);
export type PlanRun = typeof planRuns.$inferSelect;

/** A plan run's history: what was sent or asked, when, and why it stopped. A step's action is recorded once. */
export const planRunEvents = sqliteTable(
  "plan_run_events",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => planRuns.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PLAN_EVENT_KINDS }).notNull(),
    step: integer("step"),
    detail: text("detail"),
    emailId: text("email_id").references(() => contactEmails.id, { onDelete: "set null" }),
    taskId: text("task_id").references(() => crmTasks.id, { onDelete: "set null" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("plan_run_events_run_at").on(t.runId, t.at),
    index("plan_run_events_user").on(t.userId),
    index("plan_run_events_email").on(t.emailId).where(sql`${t.emailId} is not null`),
    index("plan_run_events_task").on(t.taskId).where(sql`${t.taskId} is not null`),
    uniqueIndex("plan_run_events_step_once").on(t.runId, t.step, t.kind).where(sql`${t.step} is not null`),
  ],
);
export type PlanRunEvent = typeof planRunEvents.$inferSelect;

// ── The audit log (ADR 0073) ─────────────────────────────────────────────────────────────────────────────────────
/**
 * Who did what to whom, from where: one row per audited action, written in the action's own batch where it has one.
 * A team's rows (team_id set) go with the team; a user's own security events have no team. The labels are the names
 * as they were, so a row still reads after its people or target are gone; kept 365 days.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    /** Who did it; null for the system (a cron) and once their account is purged. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorLabel: text("actor_label"),
    /** Whose account it concerns (the member whose role changed, the user who signed in). */
    subjectUserId: text("subject_user_id").references(() => users.id, { onDelete: "set null" }),
    subjectLabel: text("subject_label"),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    /** What it was done to, besides the subject: a lead, a contact, an invitation, an export. */
    targetType: text("target_type"),
    targetId: text("target_id"),
    targetLabel: text("target_label"),
    /** From → to and the like, never ids or secrets. */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    ip: text("ip"),
    country: text("country"),
    city: text("city"),
    userAgent: text("user_agent"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("audit_events_team_created").on(t.teamId, t.createdAt, t.id).where(sql`${t.teamId} is not null`),
    index("audit_events_subject_created").on(t.subjectUserId, t.createdAt, t.id).where(sql`${t.subjectUserId} is not null`),
    index("audit_events_actor").on(t.actorId).where(sql`${t.actorId} is not null`),
    // An account's purge finds the rows naming it as their target (retention.server.ts auditRowsOnPurge).
    index("audit_events_user_target").on(t.targetId).where(sql`${t.targetType} = 'user'`),
    index("audit_events_created").on(t.createdAt),
  ],
);
export type AuditEvent = typeof auditEvents.$inferSelect;
// ── Two-factor sign-in and signed-in devices (migration 0056, ADR 0074) ──────────────────────────────────────────────

/**
 * An agent's authenticator app: the TOTP secret, encrypted at rest (token-crypto, bound to the owner), on once
 * confirmed with a code. `last_step` is the 30-second step of the last code accepted: that code, and any older one,
 * is refused, so a code seen over a shoulder cannot be used again.
 */
export const totpAuthenticators = sqliteTable("totp_authenticators", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
  lastStep: integer("last_step"),
  createdAt: createdAt(),
});

/** One-use recovery codes, stored as SHA-256 hashes; a new set replaces the old one. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash").on(t.userId, t.codeHash)],
);

/** An agent's passkeys (WebAuthn credentials): the public key, its signature counter and backup flags. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    /** The credential id, base64url, as the authenticator made it. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).$type<string[]>(),
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("passkeys_user").on(t.userId)],
);
export type Passkey = typeof passkeys.$inferSelect;

/**
 * What Settings → Security lists of each session (the session itself lives in KV): keyed by the same hash of the
 * session id as the KV key. Written at sign-in and on the session's throttled touch; a session whose row is gone
 * (signed out from the list) is refused even while KV still holds it.
 */
export const sessionDevices = sqliteTable(
  "session_devices",
  {
    key: text("key").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    device: text("device").notNull(),
    place: text("place"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("session_devices_user").on(t.userId, t.lastSeenAt)],
);
