import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../workers/app";
import { createDb } from "~/db/client.server";
import { cronRuns, emailOutbox, qaResults, qaRuns, users } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { AI_QA_CATEGORIES } from "~/modules/ai/eval/rubric";
import { percentile, type AiQaEvent, type AiResultEvent } from "~/modules/qa/ai-results";
import { runAiSuite, scenariosOf } from "~/modules/qa/ai-runner.server";
import { QA_CHECKS, QA_DOMAIN, type QaCheck } from "~/modules/qa/checks.server";
import { buildReport, releaseVerdict, reportFileName } from "~/modules/qa/report";
import { runSystemChecks, type QaEvent } from "~/modules/qa/runner.server";
import { TestBrowser, signInAs } from "../factories/browser";
import { createUser } from "../factories/users";

// The QA Dashboard's checks run against the Worker itself, in-process, and report real outcomes.

const db = createDb(env.DB);
const QA_ON = { ...(env as Env), FEATURE_FLAGS: "QA_PAGE=on" } as Env;
const dispatch = (request: Request, e: Env) => app.fetch(request as Request<unknown, IncomingRequestCfProperties>, e, createExecutionContext());
const byId = (id: string) => QA_CHECKS.find((c) => c.id === id)!;

async function run(options: { env?: Env; checks?: QaCheck[] } = {}) {
  const admin = await createUser(env.DB, { role: "admin" });
  const events: QaEvent[] = [];
  const result = await runSystemChecks({
    env: options.env ?? QA_ON,
    db,
    userId: admin.id,
    origin: "http://localhost",
    dispatch,
    checks: options.checks,
    emit: (e) => void events.push(e),
  });
  return { ...result, events, results: events.filter((e): e is Extract<QaEvent, { type: "result" }> => e.type === "result") };
}

/**
 * Nothing the run `runId` made is left: no throwaway account, no scratch row, key or object. Its names carry the
 * run's id (checks.server.ts), so this looks at that run's leftovers only, not at other runs'.
 */
async function expectCleanedUp(runId: string) {
  const ofRun = `%${runId.slice(0, 8)}%@${QA_DOMAIN}`;
  expect(await db.select({ email: users.email }).from(users).where(like(users.email, ofRun))).toEqual([]);
  expect((await env.DB.prepare("select count(*) as n from qa_scratch where id = ?").bind(`qa-${runId}`).first<{ n: number }>())!.n).toBe(0);
  expect((await env.KV.list({ prefix: `qa:${runId}` })).keys).toEqual([]);
  expect((await env.BACKUPS.list({ prefix: `qa/${runId}` })).objects).toEqual([]);
  expect(await db.select({ id: emailOutbox.id }).from(emailOutbox).where(like(emailOutbox.toAddress, ofRun))).toEqual([]);
}

/** The run's own accounts, while it is running: proof that the names above are the ones a run uses. */
async function accountsOfRun(runId: string) {
  return db
    .select({ email: users.email })
    .from(users)
    .where(like(users.email, `%${runId.slice(0, 8)}%@${QA_DOMAIN}`));
}

describe("the QA checks on a healthy system", () => {
  let outcome: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    // The cron's heartbeat, as the five-minute trigger leaves it.
    await db
      .insert(cronRuns)
      .values({ job: "heartbeat", cron: "*/5 * * * *", scheduledAt: new Date(), startedAt: new Date(), finishedAt: new Date(), status: "ok" });
    outcome = await run();
  }, 120_000);

  it("passes every check that can run here, and says why the others are skipped", () => {
    const summary = Object.fromEntries(outcome.results.map((r) => [r.name, `${r.status}: ${r.details}`]));
    expect(outcome.results).toHaveLength(QA_CHECKS.length);
    // The test settings have a Stripe webhook secret (against the fake Stripe) but no e-mail provider: only the
    // outbox check cannot run, and it says why; every other check passed.
    expect(
      outcome.results.filter((r) => r.status === "skipped").map((r) => [r.name, r.details]),
      JSON.stringify(summary),
    ).toEqual([[byId("outbox").name, "No e-mail provider (RESEND_API_KEY): e-mails stay in the outbox by design, so there is nothing to drain."]]);
    expect(outcome.results.filter((r) => r.status !== "skipped").map((r) => [r.name, r.status])).toEqual(
      QA_CHECKS.filter((c) => c.id !== "outbox").map((c) => [c.name, "passed"]),
    );
    expect(outcome.blocked).toBe(false);
    expect(outcome.run).toMatchObject({ status: "completed", failed: 0, criticalFailed: 0, skipped: 1, total: QA_CHECKS.length });
  });

  it("skips the webhook check, saying why, where no webhook secret is set, and then calls nothing safe", async () => {
    const outcome = await run({ env: { ...QA_ON, STRIPE_WEBHOOK_SECRET: undefined }, checks: [byId("stripe-webhook"), byId("d1-round-trip")] });
    expect(outcome.results[0]).toMatchObject({
      status: "skipped",
      details: "STRIPE_WEBHOOK_SECRET is not set: this deployment takes no Stripe webhooks.",
    });
    expect(outcome.blocked).toBe(false);
    // A critical check that could not run leaves the release unverified, never safe: in the run's last event,
    // on the dashboard (this is the newest system run) and in the report.
    expect(outcome.verdict.kind).toBe("unverified");
    expect(outcome.events.at(-1)).toMatchObject({
      type: "done",
      verdict: "unverified",
      headline: "Release not verified: 1 critical check skipped",
      counts: { criticalSkipped: 1, criticalFailed: 0 },
    });
    const admin = (await signInAs(await createUser(env.DB, { role: "admin" }))).using(QA_ON);
    const page = await admin.page("/qa");
    expect(page).toMatch(/role="status"[^>]*>Release not verified: 1 critical check skipped</);
    const report = buildReport({ startedAt: outcome.run.startedAt, finishedAt: outcome.run.finishedAt, host: "x" }, outcome.results);
    expect(report).toContain("**Release not verified:** 1 critical check could not run here, so this run cannot say the release is safe.");
    expect(report).not.toContain("Safe to release");
  });

  it("streams start, one result per check in order, then done", () => {
    expect(outcome.events[0]).toMatchObject({ type: "start", total: QA_CHECKS.length });
    expect(outcome.results.map((r) => r.index)).toEqual(QA_CHECKS.map((_, i) => i));
    expect(outcome.events.at(-1)).toMatchObject({ type: "done", blocked: false, counts: { failed: 0 } });
  });

  it("stores each result in qa_results with its run, suite, time and criticality", async () => {
    const stored = await db.select().from(qaResults).where(eq(qaResults.runId, outcome.run.id)).orderBy(qaResults.id);
    expect(stored.map((r) => [r.category, r.testName, r.critical])).toEqual(QA_CHECKS.map((c) => [c.suite, c.name, c.critical]));
    expect(stored.map((r) => [r.status, r.details, r.durationMs])).toEqual(outcome.results.map((r) => [r.status, r.details.slice(0, 2_000), r.ms]));
  });

  it("leaves no throwaway account, scratch row, key or object behind", () => expectCleanedUp(outcome.run.id));

  it("writes a summary report that says whether the release is blocked", () => {
    const results = outcome.results.map((r) => ({ ...r }));
    const report = buildReport({ startedAt: outcome.run.startedAt, finishedAt: outcome.run.finishedAt, host: "localhost" }, results);
    // Only the outbox check (not critical) is skipped here: every critical check ran and passed.
    expect(report).toContain("**Safe to release:** every critical check passed and no check failed.");
    expect(report).toContain("| PASS (critical) | Tenant isolation");
    const broken = buildReport({ startedAt: 0, finishedAt: 1000, host: "x" }, [
      { suite: "Storage", name: "KV", critical: true, status: "failed", details: "down | out", ms: 5 },
    ]);
    expect(broken).toContain("**Release blocked:** 1 critical check failed.");
    expect(releaseVerdict({ failed: 1, critical: 0, criticalSkipped: 0 })).toMatchObject({
      kind: "warnings",
      headline: "Safe to release, with warnings",
    });
    expect(releaseVerdict({ failed: 1, critical: 1, criticalSkipped: 2 })).toMatchObject({
      kind: "blocked",
      sentence: "**Release blocked:** 1 critical check failed; 2 more could not run.",
    });
    expect(releaseVerdict({ failed: 0, critical: 0, criticalSkipped: 2 })).toMatchObject({
      kind: "unverified",
      headline: "Release not verified: 2 critical checks skipped",
    });
    expect(broken).toContain("down \\| out");
    expect(reportFileName(Date.UTC(2027, 2, 14, 6, 30))).toBe("porchlight-qa-report-2027-03-14.md");
  });
});

describe("the QA checks when something is broken", () => {
  it("fails a storage check with the binding's own error, and blocks the release", async () => {
    const brokenKv = {
      ...(QA_ON as object),
      KV: {
        put: async () => Promise.reject(new Error("KV is unreachable")),
        get: async () => null,
        delete: async () => undefined,
        list: async () => ({ keys: [] }),
      },
      BACKUPS: { ...(env.BACKUPS as object), put: async () => Promise.reject(new Error("R2 refused the write")), delete: async () => undefined },
    } as unknown as Env;
    const outcome = await run({ env: brokenKv, checks: [byId("kv-round-trip"), byId("r2-round-trip"), byId("d1-round-trip")] });
    expect(outcome.results.map((r) => [r.name, r.status, r.details])).toEqual([
      [byId("kv-round-trip").name, "failed", "KV is unreachable"],
      [byId("r2-round-trip").name, "failed", "R2 refused the write"],
      [byId("d1-round-trip").name, "passed", expect.any(String)],
    ]);
    expect(outcome.blocked).toBe(true);
    expect(outcome.run).toMatchObject({ failed: 2, criticalFailed: 2, passed: 1 });
  });

  it("keeps the release verdict the system checks' when an AI QA run comes after, and names each past run's suite", async () => {
    const brokenKv = {
      ...(QA_ON as object),
      KV: {
        put: async () => Promise.reject(new Error("KV is unreachable")),
        get: async () => null,
        delete: async () => undefined,
        list: async () => ({ keys: [] }),
      },
    } as unknown as Env;
    const blocked = await run({ env: brokenKv, checks: [byId("kv-round-trip")] });
    expect(blocked.verdict.kind).toBe("blocked");
    const ai = await runAiSuite({ env: QA_ON, db, userId: (await createUser(env.DB, { role: "admin" })).id, category: "Grounding" });
    expect(ai.passed).toBe(ai.total);
    const admin = (await signInAs(await createUser(env.DB, { role: "admin" }))).using(QA_ON);
    const page = await admin.page("/qa");
    // The verdict is still the blocked system run's, not the (all passing) AI run's.
    expect(page).toMatch(/role="status"[^>]*>Release blocked: 1 critical check failed</);
    expect(page).toContain(`${byId("kv-round-trip").name}`);
    expect(page).toContain(`AI QA suite, last run`);
    // Past runs, newest first, each labelled with its suite: the AI run, then the blocked system run.
    const history = page.slice(page.indexOf("Past runs"));
    const aiRow = history.indexOf(`AI QA suite</span>`);
    const systemRow = history.indexOf(`System checks</span>`);
    expect(aiRow).toBeGreaterThan(0);
    expect(systemRow).toBeGreaterThan(aiRow);
    expect(history.slice(systemRow, history.indexOf("</li>", systemRow))).toContain("0% passed (0 of 1) · Release blocked: 1 critical check failed");
    expect(history.slice(aiRow, history.indexOf("</li>", aiRow))).toContain(`100% passed (${ai.total} of ${ai.total})`);
  }, 60_000);

  it("fails the migrations check when the database is missing one", async () => {
    const last = await env.DB.prepare("select id, name from d1_migrations order by id desc limit 1").first<{ id: number; name: string }>();
    await env.DB.prepare("delete from d1_migrations where id = ?").bind(last!.id).run();
    try {
      const outcome = await run({ checks: [byId("migrations")] });
      expect(outcome.results[0]).toMatchObject({ status: "failed", details: `Not applied: ${last!.name}. Run \`wrangler d1 migrations apply\`.` });
    } finally {
      await env.DB.prepare("insert into d1_migrations (id, name) values (?, ?)").bind(last!.id, last!.name).run();
    }
  });

  it("fails the cron check when the heartbeat is old, naming how old", async () => {
    await env.DB.prepare("delete from cron_runs where job = 'heartbeat'").run();
    await db.insert(cronRuns).values({
      job: "heartbeat",
      cron: "*/5 * * * *",
      scheduledAt: new Date(Date.now() - 3_600_000),
      startedAt: new Date(Date.now() - 3_600_000),
      finishedAt: new Date(),
      status: "ok",
    });
    const outcome = await run({ checks: [byId("cron")] });
    expect(outcome.results[0]).toMatchObject({ status: "failed", details: "The last run started 60 minutes ago; it runs every 5 minutes." });
    expect(outcome.blocked).toBe(false);
  });

  it("cleans up a throwaway account even when its check fails midway, or throws past its time", async () => {
    const midway: QaCheck = {
      id: "midway",
      suite: "Accounts",
      name: "fails after making an account",
      critical: true,
      async run(q) {
        await byId("billing-guard").run({ ...q, env: { ...q.env, DB: q.env.DB } });
        made.push(...(await accountsOfRun(q.runId)));
        throw new Error("stopped on purpose");
      },
    };
    const made: { email: string }[] = [];
    const outcome = await run({ checks: [midway, byId("tenant-isolation")] });
    expect(outcome.results.map((r) => r.status)).toEqual(["failed", "passed"]);
    expect(outcome.results[0]!.details).toBe("stopped on purpose");
    // It had made accounts under the run's name when it stopped; none is left.
    expect(made.length).toBeGreaterThan(0);
    await expectCleanedUp(outcome.run.id);
  }, 60_000);
});

describe("who can reach the QA Dashboard", () => {
  it("does not exist with the QA_PAGE flag off, for admins too", async () => {
    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    expect((await admin.get("/qa")).status).toBe(404);
    expect((await admin.post("/qa/run", {})).status).toBe(404);
  });

  it("sends a signed-out visitor to sign in and anyone but an admin to /", async () => {
    const visitor = new TestBrowser().using(QA_ON);
    expect((await visitor.get("/qa")).headers.get("Location")).toMatch(/^\/auth/);
    const agent = (await signInAs(await createUser(env.DB))).using(QA_ON);
    for (const response of [await agent.get("/qa"), await agent.post("/qa/run", {})]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    }
    expect(await db.select().from(qaRuns).where(eq(qaRuns.userId, "nobody"))).toEqual([]);
  });

  it("shows an admin the dashboard and streams a run as server-sent events", async () => {
    const admin = (await signInAs(await createUser(env.DB, { role: "admin" }))).using(QA_ON);
    const page = await admin.page("/qa");
    expect(page).toContain("Run All Tests");
    expect(page).toContain("Test Results");
    const response = await admin.post("/qa/run", {});
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    const text = await response.text();
    expect(text).toMatch(/^event: start\ndata: \{"type":"start"/);
    expect(text.match(/^event: result$/gm)).toHaveLength(QA_CHECKS.length);
    expect(text).toMatch(/event: done\ndata: \{"type":"done".*"blocked":false/);
    expect((await admin.get("/qa/run")).status).toBe(405);
    await expectCleanedUp(/"runId":"([0-9a-f-]{36})"/.exec(text)![1]!);
  }, 120_000);
});

describe("the AI QA suite", () => {
  it("runs a card's scenarios through the configured engine and grades each with the rubric", async () => {
    const admin = (await signInAs(await createUser(env.DB, { role: "admin" }))).using(QA_ON);
    const page = await admin.page("/qa-test");
    for (const category of AI_QA_CATEGORIES) expect(page).toContain(category);
    expect(page).toContain("the offline drafter");
    const response = await admin.post("/qa-test/run", { category: "Grounding" });
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    const events = (await response.text())
      .split("\n\n")
      .filter(Boolean)
      .map((block) => JSON.parse(block.split("\ndata: ")[1]!) as AiQaEvent);
    const results = events.filter((e): e is AiResultEvent => e.type === "result");
    expect(results.length).toBe(scenariosOf("Grounding").length);
    expect(results.length).toBeGreaterThan(3);
    expect(results.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.details}`)).toEqual([]);
    expect(results.every((r) => r.category === "Grounding" && r.engine === "offline")).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", passed: results.length, total: results.length });
    const run = (await db
      .select()
      .from(qaRuns)
      .where(eq(qaRuns.id, (events[0] as { runId: string }).runId))
      .get())!;
    expect(run).toMatchObject({ suite: "ai", status: "completed", passed: results.length, failed: 0 });
    expect(await db.select().from(qaResults).where(eq(qaResults.runId, run.id))).toHaveLength(results.length);
  }, 60_000);

  it("fails the answers of an engine that writes placeholders and flagged phrases, saying why", async () => {
    const admin = await createUser(env.DB, { role: "admin" });
    const encoder = new TextEncoder();
    const garbage = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ response: "Hi {name}, this home is perfect for families." })}\n\n`));
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      },
    });
    const ai = { run: async () => garbage };
    const outcome = await runAiSuite({ env: { ...QA_ON, AI: ai } as unknown as Env, db, userId: admin.id, category: "Listing descriptions" });
    expect(outcome.total).toBe(scenariosOf("Listing descriptions").length);
    // One stream for the first scenario; the rest find it used up and fall back to the offline drafter.
    const [first] = await db.select().from(qaResults).where(eq(qaResults.runId, outcome.runId)).orderBy(qaResults.id).limit(1);
    expect(first).toMatchObject({ status: "failed", category: "Listing descriptions" });
    expect(first!.details).toMatch(/^workers-ai · /);
    expect(first!.details).toMatch(/Fair Housing: "perfect for families"/);
  }, 60_000);

  it("shows others the spec's access check, and is not there with the flag off", async () => {
    const agent = (await signInAs(await createUser(env.DB))).using(QA_ON);
    const denied = await agent.get("/qa-test");
    expect(denied.status).toBe(403);
    const html = await denied.text();
    expect(html).toContain("Access Denied");
    expect(html).toContain("You don&#x27;t have permission to access this area.");
    expect((await agent.post("/qa-test/run", {})).status).toBe(403);
    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    expect((await admin.get("/qa-test")).status).toBe(404);
    expect((await admin.post("/qa-test/run", {})).status).toBe(404);
    const bad = await admin.using(QA_ON).post("/qa-test/run", { category: "Poetry" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: expect.stringContaining("Choose one of: Follow-up e-mails") });
  });

  it("takes nearest-rank percentiles", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([5], 90)).toBe(5);
    expect(percentile([400, 100, 300, 200], 50)).toBe(200);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
  });
});
