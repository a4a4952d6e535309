// What 1,000 agents cost on Cloudflare a month (ADR 0061): the usage profile below (each figure a stated assumption)
// times what the bench measured per route and job under the limits harness (bench/limits.mjs: rows D1 read and wrote,
// invocations, time), priced with Cloudflare's published prices (bench/cloudflare-prices.mjs). Run by
// `BENCH_ONLY=limits npm run bench` (or BENCH_ONLY=cost) after the limits table.
//
// What is measured: rows read and written, invocations and end-to-end time per route and job (on the bench's large
// account, 100,000 contacts: an upper bound for a typical agent; a route's first load of the day and a later one, since
// a load can do upkeep a later one need not), the database's size and the large account's share of
// its rows, the daily backup's size and objects. What is assumed: the profile (requests per agent per day by route,
// e-mails per agent), that local end-to-end time bounds production CPU time (it includes D1's own work, which Workers
// does not bill as CPU), and what the code does per request where nothing meters it (a KV read of the session, at most
// one Durable Object call to the Operations Center's recorder).
import { charge, PRICES, QUEUE_OPERATIONS_PER_MESSAGE, WORKERS_PAID_MONTHLY } from "./cloudflare-prices.mjs";
import { BENCH_USER } from "./seed.mjs";

const AGENTS = 1_000;
const DAYS_PER_MONTH = 30;

/** Requests each agent makes a day, by the limits bench's job key: the stated usage profile. */
const PROFILE = {
  dashboard: 4,
  contactList: 10,
  contactProfile: 15,
  logCall: 10,
  moveDeal: 2,
  // The phone syncs whenever the app opens or comes back online: a whole copy once, then with its cursor.
  syncWhole: 1,
  syncUnchanged: 40,
};
/** E-mails each agent is sent a day through the e-mail queue (a digest or an alert): assumed. */
const EMAILS_PER_AGENT_PER_DAY = 1;
/** The five-minute cron: 288 runs a day, the day's first one with the backup and restore drill. */
const CRON_RUNS_PER_DAY = 288;
/** Daily backups kept in R2 (ADR 0027). */
const BACKUPS_KEPT = 30;
/** Restore drills a month (weekly, ADR 0027): each reads every object of a backup. */
const DRILLS_PER_MONTH = 4;
/** Session writes per agent per day: lastSeenAt is written back at most every 12 hours (app/modules/auth/session.server.ts). */
const SESSION_WRITES_PER_DAY = 2;

const GB = 1024 ** 3;
/** A job's end-to-end time in ms. */
const ms = (job) => job.ms;
const USER_TABLES = ["contacts", "deals", "crm_tasks", "crm_activities"];

/** The database's size, the large account's share of the user tables' rows, and the newest backup: measured. */
export async function measureStorage(mf) {
  const db = await mf.getD1Database("DB");
  const size = (await db.prepare("select 1").run()).meta.size_after;
  let mine = 0;
  let all = 0;
  for (const table of USER_TABLES) {
    mine += (await db.prepare(`select count(*) as n from ${table} where user_id = ?`).bind(BENCH_USER.id).first()).n;
    all += (await db.prepare(`select count(*) as n from ${table}`).first()).n;
  }
  const backup = await db
    .prepare("select id, size_bytes from backups where status = 'completed' and user_id is null and shard = 0 order by started_at desc limit 1")
    .first();
  let objects = null;
  if (backup) {
    const manifest = await (await (await mf.getR2Bucket("BACKUPS")).get(`backups/${backup.id}/manifest.json`))?.json();
    // The manifest and each table's file, or each of its parts when the backup was taken in parts (ADR 0058).
    objects = manifest ? manifest.tables.reduce((sum, table) => sum + (table.parts?.length ?? 1), 1) : null;
  }
  return { databaseBytes: size, share: all ? mine / all : 0, backupBytes: backup?.size_bytes ?? null, backupObjects: objects };
}

const n = (value, digits = 0) => value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const usd = (value) => `$${n(value, 2)}`;

/** The cost table: one row per priced item, its monthly amount, the inputs it came from and its charge. */
export function costOf1000Agents(jobs, storage) {
  const job = (key) => {
    const found = jobs.find((j) => j.key === key);
    if (!found || found.failed || found.invocations === 0) throw new Error(`the cost needs the limits bench's "${key}" job, which did not run`);
    return found;
  };
  // A route's first load of the day at its first run's figures, the day's other loads at its second run's.
  const perDay = Object.entries(PROFILE).map(([key, count]) => ({
    first: job(key),
    again: count > 1 ? job(`${key}:again`) : null,
    count,
  }));
  const requestsPerAgentDay = perDay.reduce((sum, r) => sum + r.count, 0);
  const month = AGENTS * DAYS_PER_MONTH;
  const routes = (pick) => month * perDay.reduce((sum, r) => sum + pick(r.first) + (r.again ? (r.count - 1) * pick(r.again) : 0), 0);
  // The day's first cron run backs up; the restore drill in it runs weekly, so its rows are taken out of the daily run
  // and counted DRILLS_PER_MONTH times. (The run's time stays whole: an upper bound.)
  const [cronDaily, cron] = [job("cronWithBackup"), job("cron")];
  const drill = cronDaily.steps["restore-drill"] ?? { rowsRead: 0, rowsWritten: 0 };
  const drillOf = (pick) => (pick === ms ? 0 : pick(drill));
  const crons = (pick) =>
    DAYS_PER_MONTH * (pick(cronDaily) - drillOf(pick) + (CRON_RUNS_PER_DAY - 1) * pick(cron)) + DRILLS_PER_MONTH * drillOf(pick);
  const emails = month * EMAILS_PER_AGENT_PER_DAY;

  const requests = routes((r) => r.invocations) + DAYS_PER_MONTH * CRON_RUNS_PER_DAY + emails; // each e-mail: at most one consumer batch
  const cpuMs = routes(ms) + crons(ms);
  const rowsRead = routes((r) => r.rowsRead) + crons((r) => r.rowsRead);
  const rowsWritten = routes((r) => r.rowsWritten) + crons((r) => r.rowsWritten);
  const agentBytes = storage.databaseBytes * storage.share;
  const d1Gb = (AGENTS * agentBytes) / GB;
  const r2Gb = storage.backupBytes === null ? 0 : (AGENTS * storage.share * storage.backupBytes * BACKUPS_KEPT) / GB;
  const objects = storage.backupObjects ?? 0;

  const lines = [
    [
      "Workers requests",
      requests,
      PRICES.workerRequests,
      `${n(requestsPerAgentDay)} a day per agent (profile), the cron's runs, one consumer call per e-mail`,
    ],
    ["Workers CPU ms", cpuMs, PRICES.workerCpuMs, "each route's and cron run's end-to-end time here (an upper bound on CPU)"],
    ["D1 rows read", rowsRead, PRICES.d1RowsRead, "measured rows per route and cron run × profile"],
    ["D1 rows written", rowsWritten, PRICES.d1RowsWritten, "measured rows per route and cron run × profile"],
    ["D1 storage GB", d1Gb, PRICES.d1StorageGb, `${n(agentBytes / 1024 ** 2, 1)} MB per agent: the large account's share of the database`],
    ["KV reads", month * requestsPerAgentDay, PRICES.kvReads, "the session, once per signed-in request (code)"],
    ["KV writes", month * SESSION_WRITES_PER_DAY, PRICES.kvWrites, "the session's lastSeenAt, at most twice a day (code)"],
    ["Durable Object requests", month * requestsPerAgentDay, PRICES.durableObjectRequests, "at most one recorder call per request (code)"],
    ["R2 storage GB", r2Gb, PRICES.r2StorageGb, `${BACKUPS_KEPT} daily backups at the large account's share each`],
    ["R2 Class A", DAYS_PER_MONTH * objects, PRICES.r2ClassA, `${objects} objects written per daily backup (measured)`],
    ["R2 Class B", DRILLS_PER_MONTH * objects, PRICES.r2ClassB, `${DRILLS_PER_MONTH} drills a month, each reading a backup`],
    [
      "Queues operations",
      emails * QUEUE_OPERATIONS_PER_MESSAGE,
      PRICES.queueOperations,
      `${EMAILS_PER_AGENT_PER_DAY} e-mail per agent a day, 3 operations each`,
    ],
    // The durable jobs (backup, drill, restores, hand-overs, moves: ADR 0058) are Workflows: their steps'
    // time is in the cron's figures above; what Workflows store is each step's result (a plan, a count), not measured here.
    [
      "Workflows storage GB",
      0,
      PRICES.workflowStorageGb,
      "the jobs' step results (plans and counts, kilobytes a job; not measured), under the 1 GB included",
    ],
  ].map(([item, amount, price, from]) => ({ item, amount, price, from, cost: charge(price, amount) }));
  const total = WORKERS_PAID_MONTHLY + lines.reduce((sum, l) => sum + l.cost, 0);
  // Where the rows come from: each route's and the cron's share of the month's rows read and written.
  const shares = (pick, all) =>
    [...perDay.map((r) => [r.first.name, month * (pick(r.first) + (r.again ? (r.count - 1) * pick(r.again) : 0))]), ["the cron", crons(pick)]]
      .filter(([, amount]) => amount > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, amount]) => `${name} ${Math.round((amount / all) * 100)}%`)
      .join(", ");
  return {
    total,
    table: [
      `Monthly cost of ${n(AGENTS)} agents on Workers Paid (${DAYS_PER_MONTH} days; prices in bench/cloudflare-prices.mjs, ADR 0061). ` +
        `Profile per agent a day: ${Object.entries(PROFILE)
          .map(([key, count]) => `${count} ${key}`)
          .join(", ")}; ${EMAILS_PER_AGENT_PER_DAY} e-mail; the cron every 5 minutes. Rows and times are the large account's.`,
      "",
      "| item | a month | included | price | cost | from |",
      "| --- | ---: | ---: | ---: | ---: | --- |",
      `| Workers Paid plan | | | | ${usd(WORKERS_PAID_MONTHLY)} | per account |`,
      ...lines.map(
        (l) =>
          `| ${l.item} | ${n(l.amount, l.item.endsWith("GB") ? 2 : 0)} | ${n(l.price.included)} | ` +
          `${"perMillion" in l.price ? `$${l.price.perMillion}/M` : `$${l.price.perGbMonth}/GB-mo`} | ${usd(l.cost)} | ${l.from} |`,
      ),
      `| **total** | | | | **${usd(total)}** | ${usd(total / AGENTS)} per agent |`,
      "",
      `Most rows read: ${shares((r) => r.rowsRead, rowsRead)}. Most rows written: ${shares((r) => r.rowsWritten, rowsWritten)}.`,
    ].join("\n"),
  };
}
