// The large account's heavy jobs under the D1 limits harness in "measure" mode (ADR 0055): each job run once, the
// Worker's per-invocation reports collected, and one row per job: how many invocations it took, the worst one's
// queries (and its worst step), the longest statement, the most bound parameters and the largest SQL text, against
// production's 1,000 queries, 100 parameters and 100 KB, and the rows D1 read and wrote (what it bills, from each
// statement's meta). Memory is workerd's resident set (the whole process, storage included): per-isolate JS heap is not
// measurable from outside workerd, so the row shows the process's peak. The figures per job also feed the cost of 1,000
// agents (bench/cost.mjs).
import { benchAgentRestore, benchBackup, rssMb, workerdPid } from "./backup.mjs";
import { benchHandover } from "./handover.mjs";
import { BENCH_USER } from "./seed.mjs";

const LIMITS = { queries: 1_000, params: 100, bytes: 100_000 };

async function ok(response, what) {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

/**
 * The jobs, each [key, name, run] over the seeded server, in an order that leaves each the data it needs. The key names
 * the job in the cost profile (bench/cost.mjs).
 */
function jobs(mf, origin, sessionCookie) {
  const headers = { Cookie: sessionCookie };
  const post = (path, body, type) =>
    fetch(`${origin}${path}`, { method: "POST", headers: { ...headers, Origin: origin, "Content-Type": type }, body, redirect: "manual" });
  /** The field copy the phone holds after its first sync: its cursor and the agent's today. */
  let copy = null;
  const agentDay = [
    ["dashboard", "GET /dashboard (large account)", async () => ok(await fetch(`${origin}/dashboard`, { headers }), "/dashboard")],
    ["contactList", "GET /contacts (large account)", async () => ok(await fetch(`${origin}/contacts`, { headers }), "/contacts")],
    [
      "contactProfile",
      "GET /contacts/:id (a contact's page)",
      async () => ok(await fetch(`${origin}/contacts/bc-00000001`, { headers }), "/contacts/bc-00000001"),
    ],
    [
      "syncWhole",
      "GET /api/sync (whole field copy)",
      async () => (copy = JSON.parse(await ok(await fetch(`${origin}/api/sync`, { headers }), "/api/sync"))),
    ],
    [
      "syncUnchanged",
      "GET /api/sync?cursor (field copy, nothing changed)",
      async () => {
        // The phone keeps the cursor each sync answers with, so the next one asks only for what changed since.
        const answer = JSON.parse(
          await ok(await fetch(`${origin}/api/sync?cursor=${encodeURIComponent(copy.cursor)}`, { headers }), "/api/sync?cursor"),
        );
        copy = { ...copy, cursor: answer.cursor ?? copy.cursor };
      },
    ],
    [
      "logCall",
      "POST /api/sync/changes (a call logged on the phone)",
      async () => {
        const change = {
          key: crypto.randomUUID(),
          type: "log_activity",
          activity: { type: "call", contactId: "bc-00000001", date: copy.today, time: "12:00", outcome: "Connected", notes: "Limits call" },
        };
        return ok(await post("/api/sync/changes", JSON.stringify({ changes: [change] }), "application/json"), "/api/sync/changes");
      },
    ],
    [
      "moveDeal",
      "POST /pipeline (a deal moved a stage on)",
      async () => {
        const deal = await (await mf.getD1Database("DB"))
          .prepare("select id, stage from deals where user_id = ? and stage = 'qualified' limit 1")
          .bind(BENCH_USER.id)
          .first();
        if (!deal) throw new Error("the large account has no qualified deal to move");
        const form = new URLSearchParams({ intent: "move", id: deal.id, stage: "showing", fromStage: deal.stage });
        return ok(await post("/pipeline?index", form, "application/x-www-form-urlencoded"), "the move");
      },
    ],
  ];
  // An agent's routes run a second time: a load can do upkeep a later one need not (lead scores gone stale are computed
  // and written back), so the cost model takes the first load once a day and the second for the rest.
  const again = agentDay.filter(([key]) => key !== "syncWhole").map(([key, name, run]) => [`${key}:again`, `${name}, again`, run]);
  return [
    ...agentDay,
    ...again,
    ["handover", "team member removal and handover (POST /team)", () => benchHandover(mf, origin, sessionCookie)],
    [
      "import",
      "import of 10,000 contacts (POST /api/contacts/import)",
      async () => {
        const rows = Array.from({ length: 10_000 }, (_, i) => [`Limits Person ${i}`, `limits${i}@example.com`, "Lead"]);
        const response = await fetch(`${origin}/api/contacts/import`, {
          method: "POST",
          headers: { ...headers, Origin: origin, "Content-Type": "application/json" },
          body: JSON.stringify({ rows, mapping: ["name", "email", "status"], mode: "skip" }),
        });
        return ok(response, "the import");
      },
    ],
    ["cronWithBackup", "cron: every job, backup and restore drill included", () => benchBackup(mf)],
    // The same five-minute cron again: the day's backup and drill are done, so this is what the other runs of the day cost.
    [
      "cron",
      "cron: a five-minute run after the day's backup",
      async () => (await mf.getWorker()).scheduled({ cron: "*/5 * * * *", scheduledTime: new Date() }),
    ],
    ["restore", "restore of the large account (POST /operations)", () => benchAgentRestore(mf, origin, sessionCookie, BENCH_USER.email)],
  ];
}

/**
 * The seed writes contacts that were never scored, a state no agent's account stays in: the views and the cron score
 * them as they arrive. Measured as seeded, every load of the large account would score its next 500 and write them
 * (and the phone's next sync would fetch them), and the cost would count that upkeep on every load. So the large
 * account's contacts are scored first, through the product's own path (the contact list scores what is unscored,
 * 500 a load), until none is left. Other accounts stay as seeded, so the cron's sweep still has its full batch.
 */
async function scoreLargeAccount(mf, origin, sessionCookie) {
  const db = await mf.getD1Database("DB");
  const unscored = async () =>
    (await db.prepare("select count(*) as n from contacts where user_id = ? and lead_scored_at is null").bind(BENCH_USER.id).first()).n;
  const before = await unscored();
  const started = performance.now();
  let loads = 0;
  for (let left = before; left > 0; left = await unscored()) {
    if (++loads > Math.ceil(before / 500) + 5) throw new Error(`the contact list stopped scoring: ${left.toLocaleString("en-US")} still unscored`);
    await ok(await fetch(`${origin}/contacts`, { headers: { Cookie: sessionCookie } }), "/contacts");
  }
  console.log(
    `\nThe large account's ${before.toLocaleString("en-US")} unscored contacts scored first, by ${loads} loads of /contacts ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s), so each route below is measured as an agent meets it.`,
  );
}

const flag = (value, limit) => `${value.toLocaleString("en-US")}${value > limit ? " ✗" : ""}`;

/** The queries of an invocation's exempt steps (ADR 0055), which its count leaves out, when there are any. */
function exempt(report) {
  const all = report ? report.steps.reduce((n, s) => n + s.queries, 0) : 0;
  return report && all > report.queries ? ` + ${(all - report.queries).toLocaleString("en-US")} exempt${all > LIMITS.queries ? " ✗" : ""}` : "";
}

/** One job's measured figures from the reports of the invocations it made (every step's, exempt ones included). */
function measured(key, name, reports, ms, failure) {
  const sum = (pick) => reports.reduce((n, r) => n + pick(r), 0);
  return {
    key,
    name,
    failed: failure !== null,
    invocations: reports.length,
    queries: sum((r) => r.steps.reduce((n, s) => n + s.queries, 0)),
    rowsRead: sum((r) => r.rowsRead),
    rowsWritten: sum((r) => r.rowsWritten),
    ms,
    /** Rows per named step across the invocations (the cron's jobs, the weekly restore drill among them). */
    steps: reports
      .flatMap((r) => r.steps)
      .reduce((all, s) => {
        const step = (all[s.step] ??= { rowsRead: 0, rowsWritten: 0 });
        step.rowsRead += s.rowsRead;
        step.rowsWritten += s.rowsWritten;
        return all;
      }, {}),
  };
}

/** One job's row from the reports of the invocations it made. */
function row(name, reports, rss, failure, figures) {
  const steps = reports.flatMap((r) => r.steps);
  // The worst invocation by all its queries, its exempt steps' included (they are the ones production would refuse).
  const total = (r) => r.steps.reduce((n, s) => n + s.queries, 0);
  const worst = reports.reduce((a, b) => (a === null || total(b) > total(a) ? b : a), null);
  const worstStep = worst?.steps.reduce((a, b) => (b.queries > a.queries ? b : a));
  const where = worst
    ? `${worst.invocation}${worstStep && worstStep.step !== worst.invocation ? ` / ${worstStep.step}: ${worstStep.queries}` : ""}`
    : "";
  const longest = steps.reduce((a, b) => (b.longestMs > (a?.longestMs ?? -1) ? b : a), null);
  const params = Math.max(0, ...steps.map((s) => s.maxParams));
  const bytes = Math.max(0, ...steps.map((s) => s.maxSqlBytes));
  return (
    `| ${name}${failure ? ` (failed: ${failure})` : ""} | ${reports.length} | ${flag(worst?.queries ?? 0, LIMITS.queries)}${exempt(worst)} (${where}) | ` +
    `${(longest?.longestMs ?? 0).toFixed(0)} ms: ${(longest?.longestSql ?? "").slice(0, 60).replaceAll("|", "\\|")} | ${flag(params, LIMITS.params)} | ` +
    `${flag(bytes, LIMITS.bytes)} B | ${figures.rowsRead.toLocaleString("en-US")} | ${figures.rowsWritten.toLocaleString("en-US")} | ` +
    `${rss === null ? "n/a" : `${rss.toFixed(0)} MB`} |`
  );
}

/**
 * Runs each job and prints its row as soon as it is done (the cron's backup and restore drill take minutes); a job
 * that fails is reported in its row and the next one runs. `reports` is the server's d1Reports (filled as logs arrive).
 * Returns each job's figures (measured()), for the cost of 1,000 agents.
 */
export async function benchLimits(mf, origin, sessionCookie, reports) {
  const pid = workerdPid();
  await scoreLargeAccount(mf, origin, sessionCookie);
  console.log(
    `\nD1 per job under the limits harness (measure mode; ✗ = over production's limit: ${LIMITS.queries} queries per invocation, ` +
      `${LIMITS.params} parameters, ${LIMITS.bytes / 1000} KB per statement). Memory: workerd's resident set, the whole process ` +
      "with its in-memory storage (an isolate's JS heap cannot be read from outside workerd).",
  );
  console.log(
    "| job | invocations | worst invocation: queries (where) | longest statement | most parameters | largest SQL | rows read | rows written | workerd peak RSS |",
  );
  console.log("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |");
  const results = [];
  for (const [key, name, run] of jobs(mf, origin, sessionCookie)) {
    reports.length = 0;
    const samples = [];
    const timer = pid ? setInterval(() => samples.push(rssMb(pid)), 50) : null;
    let failure = null;
    const started = performance.now();
    try {
      await run();
    } catch (error) {
      failure = error instanceof Error ? error.message.slice(0, 120) : String(error);
    }
    const ms = performance.now() - started;
    // The last invocation's report is logged as it ends: give the log stream a moment to deliver it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (timer) clearInterval(timer);
    const figures = measured(key, name, [...reports], ms, failure);
    results.push(figures);
    console.log(row(name, [...reports], samples.length ? Math.max(...samples) : null, failure, figures));
  }
  return results;
}
