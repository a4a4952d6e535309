import { DAY_MS } from "~/lib/dates";
import { env } from "cloudflare:workers";
import { and, eq, gte } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { backupRestores, backups, durableJobs } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { startBackup } from "~/modules/backups/backup-job.server";
import { automaticBackupDue, readManifest, tableFiles } from "~/modules/backups/backup.server";
import { drillDue, startRestoreDrill } from "~/modules/backups/drill.server";
import { abandonStaleRestores } from "~/modules/backups/restore.server";
import { eraseCrmData } from "~/modules/data/erase.server";
import { accountDatabases } from "~/modules/shards/databases.server";
import { agentOnShard1 } from "../factories/shards";
import { signInAs } from "../factories/browser";
import { runDurableJob } from "../factories/durable-jobs";
import { createUser } from "../factories/users";

// Backups of every account database (ADR 0060, ADR 0027): each database is backed up as a whole on its own, named on
// its backup's row and manifest; the daily backup and the weekly drill go through every database in turn.

const db = createDb(env.DB);

/** Every row id of a table in a backup, read from its files. */
async function idsIn(backupId: string, table: string): Promise<string[]> {
  const entry = (await readManifest(env.BACKUPS, backupId))!.tables.find((t) => t.table === table)!;
  const ids: string[] = [];
  for (const file of tableFiles(entry)) {
    const text = await new Response(
      (await env.BACKUPS.get(file.key))!.body.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream),
    ).text();
    for (const line of text.split("\n").filter(Boolean)) ids.push(String((JSON.parse(line) as { row: { id: string } }).row.id));
  }
  return ids;
}

describe("backups of every account database", () => {
  it("backs up database 1 as a whole, its accounts' rows and not the home database's, and the drill passes", async () => {
    const away = await agentOnShard1();
    const home = await createUser(env.DB);
    const awayContact = `away-${crypto.randomUUID()}`;
    const homeContact = `home-${crypto.randomUUID()}`;
    await env.DB_SHARD_1.prepare("insert into contacts (id, user_id, name) values (?, ?, 'Away Buyer')").bind(awayContact, away.id).run();
    await env.DB.prepare("insert into contacts (id, user_id, name) values (?, ?, 'Home Buyer')").bind(homeContact, home.id).run();

    const job = await runDurableJob(env.BACKUP_WORKFLOW, "backup", async () => {
      const started = await startBackup(env, db, "manual", null, { shard: 1, rowsPerPart: 50 });
      return started ? ((await db.select().from(durableJobs).where(eq(durableJobs.id, started.jobId)).get()) ?? null) : null;
    });
    expect(job).toMatchObject({ kind: "backup", status: "succeeded", error: null });
    const backup = (await db.select().from(backups).where(eq(backups.id, job.subject!)).get())!;
    expect(backup).toMatchObject({ status: "completed", shard: 1 });
    expect((await readManifest(env.BACKUPS, backup.id))!.shard).toBe(1);

    const contacts = await idsIn(backup.id, "contacts");
    expect(contacts).toContain(awayContact);
    expect(contacts).not.toContain(homeContact);
    const users = await idsIn(backup.id, "users");
    expect(users).toContain(away.id);
    expect(users).not.toContain(home.id);
    const { n } = (await env.DB_SHARD_1.prepare("select count(*) as n from contacts").first<{ n: number }>())!;
    expect(contacts).toHaveLength(n);

    const drilled = await runDurableJob(env.RESTORE_DRILL_WORKFLOW, "restore-drill", () => startRestoreDrill(env, db, backup.id, null));
    expect(drilled).toMatchObject({ status: "succeeded", error: null });
    expect((await db.select().from(backups).where(eq(backups.id, backup.id)).get())!.drillStatus).toBe("passed");
  }, 120_000);

  it("is due once a day for each database on its own", async () => {
    const at = Date.UTC(2036, 2, 1);
    const id = `auto-home-${crypto.randomUUID().slice(0, 8)}`;
    await db.insert(backups).values({ id, type: "automatic", status: "completed", startedAt: at, shard: 0 });
    expect(await automaticBackupDue(db, at + 60_000, 0)).toBe(false);
    // The home database's backup does not count for database 1.
    expect(await automaticBackupDue(db, at + 60_000, 1)).toBe(true);
    const away = `auto-away-${crypto.randomUUID().slice(0, 8)}`;
    await db.insert(backups).values({ id: away, type: "automatic", status: "completed", startedAt: at + 60_000, shard: 1 });
    expect(await automaticBackupDue(db, at + 120_000, 1)).toBe(false);
    expect(await automaticBackupDue(db, at + 60_000 + DAY_MS, 1)).toBe(true);
    await db.delete(backups).where(gte(backups.startedAt, at));
  });

  it("drills each database weekly: the first whose newest drill is older than a week", async () => {
    const at = Date.UTC(2036, 5, 1);
    const ids = { home: `drill-home-${crypto.randomUUID().slice(0, 8)}`, away: `drill-away-${crypto.randomUUID().slice(0, 8)}` };
    await db.insert(backups).values([
      { id: ids.home, type: "automatic", status: "completed", startedAt: at, shard: 0, drillStatus: "passed", drillAt: at + 60_000 },
      { id: ids.away, type: "automatic", status: "completed", startedAt: at, shard: 1 },
    ]);
    // The home database was drilled a minute ago; database 1 never was.
    expect(await drillDue(db, at + 120_000, 2)).toBe(ids.away);
    // With one database bound, only the home database counts.
    expect(await drillDue(db, at + 120_000, 1)).toBeNull();
    await db
      .update(backups)
      .set({ drillStatus: "passed", drillAt: at + 90_000 })
      .where(eq(backups.id, ids.away));
    expect(await drillDue(db, at + 120_000, 2)).toBeNull();
    // A week on, the home database comes first again.
    expect(await drillDue(db, at + 90_000 + 7 * DAY_MS + 1, 2)).toBe(ids.home);
    await db.delete(backups).where(gte(backups.startedAt, at));
  });
});

describe("the Backup tab with two databases", () => {
  it("names each backup's database, backs up the one chosen, and refuses one that is not bound", async () => {
    const adminUser = await createUser(env.DB, { role: "admin" });
    const admin = await signInAs(adminUser);
    const page = (await admin.page("/operations?tab=backup")).replace(/<!-- -->/g, "");
    expect(page).toContain('name="shard"');
    expect(page).toContain("Database 0 (home)");
    expect(page).toContain("Database 1");

    const refused = await admin.follow(await admin.post("/operations?tab=backup", { intent: "backup", shard: "7" }));
    expect(refused.html).toContain("There is no database 7 to back up.");
    expect(await db.select().from(durableJobs).where(eq(durableJobs.startedBy, adminUser.id))).toEqual([]);

    const job = await runDurableJob(env.BACKUP_WORKFLOW, "backup", async () => {
      const response = await admin.post("/operations?tab=backup", { intent: "backup", shard: "1" });
      expect((await admin.follow(response)).html).toContain("Database 1: its progress shows under Backups");
      return (await db.select().from(durableJobs).where(eq(durableJobs.startedBy, adminUser.id)).get())!;
    });
    expect(job).toMatchObject({ status: "succeeded" });
    expect(
      await db
        .select({ shard: backups.shard })
        .from(backups)
        .where(and(eq(backups.id, job.subject!))),
    ).toEqual([{ shard: 1 }]);
  }, 60_000);
});

describe("an agent's restore in database 1", () => {
  const away = createDb(env.DB_SHARD_1);
  const contactsOf = async (userId: string) =>
    (await env.DB_SHARD_1.prepare("select id, name from contacts where user_id = ? order by id").bind(userId).all()).results;

  it("restores the agent's rows there from database 1's backup, with the restore and its safety copy in that database", async () => {
    const agent = await agentOnShard1();
    for (const name of ["Away One", "Away Two"])
      await env.DB_SHARD_1.prepare("insert into contacts (id, user_id, name) values (?, ?, ?)")
        .bind(`away-${crypto.randomUUID()}`, agent.id, name)
        .run();
    const held = await contactsOf(agent.id);
    const backupJob = await runDurableJob(env.BACKUP_WORKFLOW, "backup", async () => {
      const started = await startBackup(env, db, "manual", null, { shard: 1 });
      return started ? ((await db.select().from(durableJobs).where(eq(durableJobs.id, started.jobId)).get()) ?? null) : null;
    });
    expect(backupJob).toMatchObject({ status: "succeeded" });
    await eraseCrmData(env.DB_SHARD_1, agent.id);
    expect(await contactsOf(agent.id)).toEqual([]);

    const adminUser = await createUser(env.DB, { role: "admin" });
    const admin = await signInAs(adminUser);
    const job = await runDurableJob(env.AGENT_RESTORE_WORKFLOW, "agent-restore", async () => {
      const response = await admin.post("/operations?tab=backup", { intent: "restore", backupId: backupJob.subject!, email: agent.email });
      expect(response.status).toBe(302);
      return (await db
        .select()
        .from(durableJobs)
        .where(and(eq(durableJobs.startedBy, adminUser.id), eq(durableJobs.kind, "agent-restore")))
        .get())!;
    });
    expect(job).toMatchObject({ status: "succeeded", error: null });
    expect(await contactsOf(agent.id)).toEqual(held);

    // The restore's row and its safety copy live with the agent, not at home.
    const restore = await away.select().from(backupRestores).where(eq(backupRestores.id, job.subject!)).get();
    expect(restore).toMatchObject({ status: "completed", userId: agent.id, rowCount: expect.any(Number) });
    expect(await db.select().from(backupRestores).where(eq(backupRestores.id, job.subject!)).get()).toBeUndefined();
    const safety = await away.select().from(backups).where(eq(backups.id, restore!.safetyBackupId!)).get();
    expect(safety).toMatchObject({ type: "safety", status: "completed", userId: agent.id, shard: 1 });
    const staged = await env.DB_SHARD_1.prepare("select count(*) as n from restore_rows where restore_id = ?")
      .bind(restore!.id)
      .first<{ n: number }>();
    expect(staged!.n).toBe(0);
    const page = (await admin.page("/operations?tab=backup")).replace(/<!-- -->/g, "");
    expect(page).toContain(agent.email);
    expect(page).toContain(`/operations/backups/${safety!.id}/download`);
    expect((await admin.get(`/operations/backups/${safety!.id}/download`)).status).toBe(200);

    // The safety copy undoes it, from database 1 too: the agent is back to what they had just before (no contacts).
    const undo = await runDurableJob(env.AGENT_RESTORE_WORKFLOW, "agent-restore", async () => {
      const response = await admin.post("/operations?tab=backup", { intent: "restore", backupId: safety!.id, email: agent.email });
      expect(response.status).toBe(302);
      const jobs = await db
        .select()
        .from(durableJobs)
        .where(and(eq(durableJobs.startedBy, adminUser.id), eq(durableJobs.kind, "agent-restore")));
      return jobs.find((j) => j.id !== job.id)!;
    });
    expect(undo).toMatchObject({ status: "succeeded", error: null });
    expect(await contactsOf(agent.id)).toEqual([]);
  }, 120_000);

  it("gives up a restore of database 1 cut off part-way and drops its staging there", async () => {
    const agent = await agentOnShard1();
    const cut = crypto.randomUUID();
    await away.insert(backupRestores).values({ id: cut, backupId: "some-backup", userId: agent.id, startedAt: Date.now() - 2 * 3_600_000 });
    await env.DB_SHARD_1.prepare("insert into restore_rows (restore_id, tbl, seq, data) values (?, 'contacts', 1, '{}')").bind(cut).run();
    // The home database's pass alone does not reach it.
    await abandonStaleRestores(db, [db]);
    expect(await away.select({ status: backupRestores.status }).from(backupRestores).where(eq(backupRestores.id, cut)).get()).toEqual({
      status: "in_progress",
    });
    expect(await abandonStaleRestores(db, accountDatabases(env as Env))).toBeGreaterThanOrEqual(1);
    expect(await away.select({ status: backupRestores.status }).from(backupRestores).where(eq(backupRestores.id, cut)).get()).toEqual({
      status: "failed",
    });
    const left = await env.DB_SHARD_1.prepare("select count(*) as n from restore_rows where restore_id = ?").bind(cut).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});
