// The five-minute cron's jobs, in the order it runs them (workers/cron/index.ts maps each id to its code, and a
// job missing there fails the type-check). Browser-safe: the Operations Center lists them by these labels.

export const CRON_JOBS = [
  { id: "heartbeat", label: "Heartbeat", does: "Notes that the scheduler ran; the probes time how late it was." },
  {
    id: "ops",
    label: "Monitoring",
    does: "Probes every component, rolls ended hours up, prunes old readings, checks the thresholds, stores the day-to-month figures.",
  },
  { id: "lead-offers", label: "Lead offers", does: "Passes first-to-claim leads whose claim window ended to the next agent." },
  {
    id: "lead-reassign",
    label: "Lead auto-reassign",
    does: "Moves leads their agent has not contacted within the team's minutes to the next agent by the same rule.",
  },
  { id: "lead-reminders", label: "Lead reminders", does: "Queues one push reminder for each new lead still unanswered after five minutes." },
  {
    id: "first-replies",
    label: "First replies",
    does: "Sends the instant first replies to new leads that waited for their agent's sending hours.",
  },
  {
    id: "gmail-replies",
    label: "Gmail replies",
    does: "Reads the agents' Gmail threads of the last 30 days for contacts' replies and bounces, least recently checked first.",
  },
  {
    id: "plan-steps",
    label: "Action plans",
    does: "Does the action plans' due steps (an e-mail, a task) in each agent's sending hours, each once; a reply stops a plan first.",
  },
  { id: "digest", label: "Daily digest", does: "Queues the 7:00 digest e-mail of every agent whose morning it is." },
  { id: "lead-scores", label: "Lead scores", does: "Recomputes lead scores a day old, and those left stale by changes." },
  { id: "account-purge", label: "Account purge", does: "Queues accounts 30 days after their deletion, to be deleted a slice at a time." },
  { id: "trash-purge", label: "Trash purge", does: "Deletes what has been in the trash for 30 days." },
  { id: "audit-retention", label: "Audit log retention", does: "Deletes audit log rows older than a year, a bounded number a run." },
  { id: "sync-upkeep", label: "Field copy upkeep", does: "Prunes the phones' change log and old offline-change keys." },
  { id: "backup", label: "Backups", does: "The daily backup, 30-day retention, and the weekly restore drill." },
] as const;
export type CronJobId = (typeof CRON_JOBS)[number]["id"];

/** The Operations Center lists each job's failures over this many days. */
export const FAILURE_DAYS = 7;

/** A job's one-line account of a run ("3 accounts queued for purging"), kept short for the table. */
export const SUMMARY_MAX = 300;

/** "2 accounts", "1 account", "0 accounts". */
export const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
