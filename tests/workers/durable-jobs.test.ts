import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { backups, durableJobs } from "~/db/schema";
import { D1_LIMIT_EXEMPTIONS, D1LimitError, d1MeterOf, limitD1, takeD1LimitCrossings } from "~/lib/d1-limits";
import { durableStep } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { createBackup, readManifest, type BackupManifest } from "~/modules/backups/backup.server";
import { startBackup } from "~/modules/backups/backup-job.server";
import { loadDrillPart, startRestoreDrill } from "~/modules/backups/drill.server";
import { runDurableJob } from "../factories/durable-jobs";
import { signInAs } from "../factories/browser";
import { createUser } from "../factories/users";

// Durable jobs (ADR 0058): long jobs run as Cloudflare Workflows, step by step, each step one invocation held to D1's
// limits by the harness with no exemption, retried alone, and their progress and result kept in durable_jobs.

const testEnv = env as unknown as Env;
const db = createDb(env.DB);
/** Contacts of the agent whose account makes the backup big: the inline drill ran about one query per row. */
const CONTACTS = 2_400;
const ROWS_PER_STEP = 1_000;

/** A step runner as Workflows has it, running each step at once (the harness is what is under test). */
const inline = { do: (_name: string, _config: unknown, run: () => Promise<unknown>) => run() } as unknown as Parameters<typeof durableStep>[0];

describe("a durable step", () => {
  it("is metered as its own invocation: 1,000 queries in each of two steps pass, a step's 1,001st fails, naming the step", async () => {
    const job = { ...testEnv, D1_LIMITS: "enforce" };
    const thousand = (e: Env) => e.DB.batch(Array.from({ length: 1_000 }, () => e.DB.prepare("select 1")));
    await durableStep(inline, job, "test-job", "first", async (e) => (await thousand(e), null));
    await durableStep(inline, job, "test-job", "second", async (e) => (await thousand(e), null));
    let caught: unknown = null;
    try {
      await durableStep(inline, job, "test-job", "third", async (e) => {
        await thousand(e);
        await e.DB.prepare("select 'one too many'").first();
        return null;
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(D1LimitError);
    expect((caught as Error).message).toContain("in workflow test-job: third / workflow test-job: third");
    expect(takeD1LimitCrossings()).toHaveLength(1);
  });

  it("leaves no job exempt from the query limit", () => {
    expect(D1_LIMIT_EXEMPTIONS.has("restore-drill")).toBe(false);
  });
});

describe("the restore drill as a durable job", () => {
  let agent: string;
  let backupId: string;
  let manifest: BackupManifest;
  /** The agent's contacts as the live database holds them, in rowid order. */
  let live: unknown[];
  const drilledContacts = async () =>
    (await env.DB_RESTORE_DRILL.prepare("select id, name, tags from contacts where user_id = ? order by rowid").bind(agent).all()).results;

  beforeAll(async () => {
    agent = (await createUser(env.DB)).id;
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into contacts (id, user_id, name, tags) select ? || '-' || i, ?, 'Lead ' || i, '[\"drill\"]' from n",
    )
      .bind(CONTACTS, `drill-${agent}`, agent)
      .run();
    live = (await env.DB.prepare("select id, name, tags from contacts where user_id = ? order by rowid").bind(agent).all()).results;
    backupId = (await createBackup(env, db, "manual")).id;
    manifest = (await readManifest(env.BACKUPS, backupId))!;
  }, 120_000);

  it("loads a backup the inline drill could not (past 1,000 queries) in steps that each stay inside D1's limits", async () => {
    const total = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    expect(total).toBeGreaterThan(CONTACTS);
    const job = await runDurableJob(env.RESTORE_DRILL_WORKFLOW, "restore-drill", () =>
      startRestoreDrill(env, db, backupId, null, { rowsPerStep: ROWS_PER_STEP }),
    );
    expect(job).toMatchObject({ status: "succeeded", done: total, total, error: null });
    expect(await drilledContacts()).toEqual(live);
    expect((await db.select().from(backups).where(eq(backups.id, backupId)).get())!.drillStatus).toBe("passed");
  }, 120_000);

  it("resumes a step that failed part-way and ends with the same rows, the job succeeded", async () => {
    const job = await runDurableJob(
      env.RESTORE_DRILL_WORKFLOW,
      "restore-drill",
      () => startRestoreDrill(env, db, backupId, null, { rowsPerStep: ROWS_PER_STEP }),
      // The contacts' second part fails once, as a Worker stopped mid-step would: the workflow retries that step alone.
      (m) => m.mockStepError({ name: `load contacts from row ${ROWS_PER_STEP}` }, new Error("the Worker stopped"), 1),
    );
    const total = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    expect(job).toMatchObject({ status: "succeeded", done: total, total, error: null });
    expect(await drilledContacts()).toEqual(live);
  }, 120_000);

  it("loads a part again over whatever a cut-off try left, to the same rows", async () => {
    const entry = manifest.tables.find((t) => t.table === "contacts")!;
    const first = await loadDrillPart(env, backupId, { table: "contacts", file: 0, from: 0, count: ROWS_PER_STEP, line: 0, after: 0 });
    const second = { table: "contacts", file: 0, from: ROWS_PER_STEP, count: ROWS_PER_STEP, line: ROWS_PER_STEP, after: first.last };
    // A try of the second part that wrote some rows and stopped: stray rows past the first part's last rowid.
    await env.DB_RESTORE_DRILL.prepare(
      "insert into contacts (id, user_id, name) select id || '-stray', user_id, name from contacts where user_id = ? limit 5",
    )
      .bind(agent)
      .run();
    const again = await loadDrillPart(env, backupId, second);
    expect(again.rows).toBe(Math.min(ROWS_PER_STEP, entry.rows - ROWS_PER_STEP));
    let after = again.last;
    for (let from = 2 * ROWS_PER_STEP; from < entry.rows; from += ROWS_PER_STEP)
      after = (await loadDrillPart(env, backupId, { table: "contacts", file: 0, from, count: ROWS_PER_STEP, line: from, after })).last;
    expect((await env.DB_RESTORE_DRILL.prepare("select count(*) as n from contacts").first<{ n: number }>())!.n).toBe(entry.rows);
    expect(await drilledContacts()).toEqual(live);
  }, 120_000);

  it("starts from the Backup tab's button and answers at once, the drill running after the answer, not in the request", async () => {
    const adminUser = await createUser(env.DB, { role: "admin" });
    const admin = await signInAs(adminUser);
    let request: Env | null = null;
    const job = await runDurableJob(env.RESTORE_DRILL_WORKFLOW, "restore-drill", async () => {
      request = limitD1({ ...testEnv }, "POST /operations");
      const response = await admin.using(request).post("/operations?tab=backup", { intent: "drill" });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/operations?tab=backup");
      const page = await admin.follow(response);
      expect(page.html).toContain("Drill started");
      return (await db.select().from(durableJobs).where(eq(durableJobs.startedBy, adminUser.id)).get())!;
    });
    // The request's own queries: a handful, none of them the drill's (which ran one step per part, after the answer).
    const report = d1MeterOf(request!.DB)!.report();
    expect(report.steps.map((s) => s.step)).toEqual(["POST /operations"]);
    expect(report.queries).toBeLessThan(40);
    expect(job).toMatchObject({ kind: "restore-drill", status: "succeeded", startedBy: adminUser.id });
    expect(job.result).toMatch(/^[\d,]+ rows restored and checked in \d+\.\d s\.$/);
  }, 120_000);

  it("shows a running drill's step and rows done on the Backup tab, and nothing of it once it has ended", async () => {
    const adminUser = await createUser(env.DB, { role: "admin" });
    const admin = await signInAs(adminUser);
    const id = crypto.randomUUID();
    await db.insert(durableJobs).values({
      id,
      kind: "restore-drill",
      startedBy: adminUser.id,
      subject: backupId,
      status: "running",
      step: "Loading contacts",
      done: 3_000,
      total: 7_284,
      createdAt: Date.now(),
      startedAt: Date.now(),
    });
    try {
      const page = (await admin.page("/operations?tab=backup")).replace(/<!-- -->/g, "");
      expect(page).toContain("Drill running: Loading contacts, 3,000 of 7,284 rows.");
      expect(page).toMatch(/<progress aria-label="Drill progress" value="41" max="100"/);
    } finally {
      await db.update(durableJobs).set({ status: "failed", error: "test over", finishedAt: Date.now() }).where(eq(durableJobs.id, id));
    }
    expect((await admin.page("/operations?tab=backup")).replace(/<!-- -->/g, "")).not.toContain("Drill running");
  });
});

describe("the backup as a durable job", () => {
  const runBackup = (modify?: Parameters<typeof runDurableJob>[3]) =>
    runDurableJob(
      env.BACKUP_WORKFLOW,
      "backup",
      async () => {
        const started = await startBackup(env, db, "manual", null, { rowsPerPart: ROWS_PER_STEP });
        return started ? ((await db.select().from(durableJobs).where(eq(durableJobs.id, started.jobId)).get()) ?? null) : null;
      },
      modify,
    );
  /** A manifest's tables but the backups' own bookkeeping (the backups and jobs rows change from one backup to the next). */
  const files = async (id: string) =>
    (await readManifest(env.BACKUPS, id))!.tables
      .filter((t) => !["backups", "durable_jobs"].includes(t.table))
      .map(({ table, rows, bytes, sha256 }) => ({ table, rows, bytes, sha256 }));

  it("resumes a part that failed part-way and writes the same files, the job and the backup completed", async () => {
    const agent = (await createUser(env.DB)).id;
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into contacts (id, user_id, name) select ? || '-' || i, ?, 'Lead ' || i from n",
    )
      .bind(CONTACTS, `backup-${agent}`, agent)
      .run();
    const first = await runBackup();
    expect(first).toMatchObject({ status: "succeeded", error: null });
    // The contacts' second part fails once, as a Worker stopped mid-step would: the workflow retries that step alone.
    const second = await runBackup((m) => m.mockStepError({ name: "read contacts part 2" }, new Error("the Worker stopped"), 1));
    expect(second).toMatchObject({ status: "succeeded", error: null, result: expect.stringMatching(/^\d+ tables, [\d,]+ rows\.$/) });
    expect(await files(second.subject!)).toEqual(await files(first.subject!));
    const contacts = (await files(second.subject!)).find((t) => t.table === "contacts")!;
    expect(contacts.rows).toBeGreaterThan(2 * ROWS_PER_STEP);
    expect((await db.select().from(backups).where(eq(backups.id, second.subject!)).get())!.status).toBe("completed");
  }, 120_000);
});
