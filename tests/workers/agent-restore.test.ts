import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { backupRestores, backups, commissionPlans, contacts, dealStageHistory, durableJobs } from "~/db/schema";
import { backupKey, createBackup, readManifest } from "~/modules/backups/backup.server";
import { drillDue } from "~/modules/backups/drill.server";
import { abandonStaleRestores, RESTORE_CONFIRM, swapRestore } from "~/modules/backups/restore.server";
import { eraseCrmData } from "~/modules/data/erase.server";
import { RESTORE_SKIPPED, RESTORE_TABLES } from "~/modules/data/tables";
import { agentWithData, tablesWithAnAgentsId } from "../factories/agent-data";
import { signInAs } from "../factories/browser";
import { runAgentRestore, runDurableJob } from "../factories/durable-jobs";
import { createUser } from "../factories/users";

// Restoring one agent's account from a backup ("I wiped my contacts"), with a safety copy first and one
// batch that swaps the rows in (ADR 0029).

const db = createDb(env.DB);
const RESTORED = RESTORE_TABLES.map((t) => t.table);
/** Trigger-kept tables: not restored as rows, rebuilt as the rows go in, so they must come back equal too. */
const DERIVED = ["contact_tags", "contact_status_counts", "contact_tag_counts", "contact_source_days", "lead_source_days"];

/** Every row of the agent in the restored and derived tables, without SQLite's own row numbers, in a stable order. */
async function snapshot(userId: string): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of [...RESTORED, ...DERIVED]) {
    const { results: columns } = await env.DB.prepare("select name, type, pk from pragma_table_info(?)")
      .bind(table)
      .all<{ name: string; type: string; pk: number }>();
    const alias =
      columns.filter((c) => c.pk > 0).length === 1 ? columns.find((c) => c.pk === 1 && c.type.toUpperCase() === "INTEGER")?.name : undefined;
    const names = columns.map((c) => c.name).filter((c) => c !== alias);
    const { results } = await env.DB.prepare(`select ${names.map((c) => `"${c}"`).join(", ")} from "${table}" where user_id = ?`)
      .bind(userId)
      .all<Record<string, unknown>>();
    // A counter that went down to 0 stays as a row saying 0: the same as no row.
    const kept = results.filter((r) => !(DERIVED.includes(table) && r.n === 0));
    out[table] = kept
      .map((r) => JSON.stringify(r))
      .sort()
      .map((r) => JSON.parse(r) as Record<string, unknown>);
  }
  return out;
}

const sha256 = async (value: unknown) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(value))))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

describe("the restore's map of tables", () => {
  it("places every table holding an agent's id: restored, or left as it is with a reason", async () => {
    const found = [...(await tablesWithAnAgentsId()).keys()];
    const placed = new Set([...RESTORED, ...Object.keys(RESTORE_SKIPPED)]);
    expect(
      found.filter((t) => !placed.has(t)),
      "tables the restore does not place",
    ).toEqual([]);
    expect(RESTORED.filter((t) => t in RESTORE_SKIPPED)).toEqual([]);
    expect(new Set(RESTORED).size).toBe(RESTORED.length);
    for (const { table, owner } of RESTORE_TABLES) {
      const { results } = await env.DB.prepare("select name from pragma_table_info(?)").bind(table).all<{ name: string }>();
      expect(
        results.map((r) => r.name),
        table,
      ).toContain(owner);
    }
  });
});

describe("restoring one agent from a backup", () => {
  let rhea: Awaited<ReturnType<typeof agentWithData>>;
  let otto: Awaited<ReturnType<typeof agentWithData>>;
  let before: Record<string, Record<string, unknown>[]>;
  let backupId: string;

  beforeAll(async () => {
    rhea = await agentWithData("Rhea");
    otto = await agentWithData("Otto");
    await db
      .insert(dealStageHistory)
      .values({ userId: rhea.user.id, dealId: rhea.deal.id, stage: "offer", enteredAt: new Date(Date.now() - 3_600_000) });
    before = await snapshot(rhea.user.id);
    backupId = (await createBackup(env, db, "manual")).id;
  }, 60_000);

  it("puts back exactly the rows the agent had, after a wipe, and keeps what they had in a safety copy", async () => {
    expect(before.contacts).toHaveLength(2);
    expect(before.deal_stage_history).toContainEqual(expect.objectContaining({ deal_id: rhea.deal.id, stage: "offer", left_at: null }));
    // "I wiped my contacts": everything CRM gone, a setting changed, one contact made since.
    await eraseCrmData(env.DB, rhea.user.id);
    await db.update(commissionPlans).set({ brokerageSplitPct: 10 }).where(eq(commissionPlans.userId, rhea.user.id));
    await db.insert(contacts).values({ id: `after-${crypto.randomUUID()}`, userId: rhea.user.id, name: "Made After Backup" });
    const ottoBefore = await snapshot(otto.user.id);
    const wiped = await snapshot(rhea.user.id);
    expect(wiped.contacts!.map((c) => c.name)).toEqual(["Made After Backup"]);

    const admin = await createUser(env.DB, { role: "admin" });
    const done = await runAgentRestore({ backupId, userId: rhea.user.id, requestedBy: admin.id });
    expect(done).toMatchObject({ status: "completed", errorMessage: null, userId: rhea.user.id, requestedBy: admin.id });
    const after = await snapshot(rhea.user.id);
    expect(after).toEqual(before);
    expect(await sha256(after)).toBe(await sha256(before));
    expect(done.rowCount).toBe(RESTORED.reduce((sum, t) => sum + before[t]!.length, 0));
    // Another agent is untouched; staging is empty.
    expect(await snapshot(otto.user.id)).toEqual(ottoBefore);
    expect((await env.DB.prepare("select count(*) as n from restore_rows").first<{ n: number }>())!.n).toBe(0);
    // Search finds the restored contacts (the full-text index is kept by triggers).
    const found = await env.DB.prepare("select count(*) as n from contacts_fts where contacts_fts match ?").bind('"Rhea"').first<{ n: number }>();
    expect(found!.n).toBeGreaterThanOrEqual(2);

    // The safety copy holds what she had just before, only hers, and restoring it undoes the restore.
    const safety = await db.select().from(backups).where(eq(backups.id, done.safetyBackupId!)).get();
    expect(safety).toMatchObject({ type: "safety", status: "completed", userId: rhea.user.id });
    const manifest = (await readManifest(env.BACKUPS, safety!.id))!;
    expect(manifest.user_id).toBe(rhea.user.id);
    expect(manifest.tables.map((t) => t.table).sort()).toEqual([...RESTORED].sort());
    expect(manifest.tables.find((t) => t.table === "contacts")!.rows).toBe(1);
    const undo = await runAgentRestore({ backupId: safety!.id, userId: rhea.user.id, requestedBy: admin.id });
    expect(undo.status).toBe("completed");
    expect(await snapshot(rhea.user.id)).toEqual(wiped);
    // A safety copy is never drilled as if it were the whole database.
    expect(await drillDue(db, Date.now() + 30 * 86_400_000)).not.toBe(safety!.id);
  }, 60_000);

  it("refuses a safety copy for another agent, a backup that does not exist, and an account that does not", async () => {
    const safety = await createBackup(env, db, "safety", Date.now(), { userId: otto.user.id, tables: RESTORE_TABLES });
    const other = await runAgentRestore({ backupId: safety.id, userId: rhea.user.id, requestedBy: null });
    expect(other).toMatchObject({ status: "failed", errorMessage: "That safety copy holds another agent's rows.", safetyBackupId: null });
    expect(await runAgentRestore({ backupId: "no-such-backup", userId: rhea.user.id, requestedBy: null })).toMatchObject({
      status: "failed",
      errorMessage: "That backup does not exist or did not complete.",
    });
    expect(await runAgentRestore({ backupId, userId: "no-such-user", requestedBy: null })).toMatchObject({
      status: "failed",
      userId: null,
      errorMessage: "That agent's account no longer exists.",
    });
  });

  it("restores nothing from a file changed after the backup, and takes no safety copy", async () => {
    const manifest = (await readManifest(env.BACKUPS, backupId))!;
    const copy = `tampered-${crypto.randomUUID().slice(0, 8)}`;
    const tables = [];
    for (const entry of manifest.tables) {
      const key = backupKey(copy, `${entry.table}.ndjson.gz`);
      let bytes = new Uint8Array(await (await env.BACKUPS.get(entry.key))!.arrayBuffer());
      if (entry.table === "deals") {
        const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream)).text();
        const edited = text.replace("Rhea 12 Oak St", "Rhea 13 Oak St");
        expect(edited).not.toBe(text);
        bytes = new Uint8Array(
          await new Response(new Blob([edited]).stream().pipeThrough(new CompressionStream("gzip") as unknown as TransformStream)).arrayBuffer(),
        );
      }
      await env.BACKUPS.put(key, bytes);
      tables.push({ ...entry, key });
    }
    await env.BACKUPS.put(backupKey(copy, "manifest.json"), JSON.stringify({ ...manifest, id: copy, tables }));
    await db.insert(backups).values({ id: copy, type: "manual", status: "completed", startedAt: Date.now() - 60_000 });

    const current = await snapshot(rhea.user.id);
    const safetyCopies = (await db.select().from(backups).where(eq(backups.userId, rhea.user.id))).length;
    const failed = await runAgentRestore({ backupId: copy, userId: rhea.user.id, requestedBy: null });
    expect(failed.status).toBe("failed");
    expect(failed.errorMessage).toMatch(/^deals: the file does not match its manifest/);
    expect(await snapshot(rhea.user.id)).toEqual(current);
    expect((await db.select().from(backups).where(eq(backups.userId, rhea.user.id))).length).toBe(safetyCopies);
    expect((await env.DB.prepare("select count(*) as n from restore_rows where restore_id = ?").bind(failed.id).first<{ n: number }>())!.n).toBe(0);
  }, 60_000);

  it("marks a restore cut off part-way as failed and drops its staged rows", async () => {
    const id = crypto.randomUUID();
    await db.insert(backupRestores).values({ id, backupId, userId: rhea.user.id, startedAt: Date.now() - 2 * 3_600_000 });
    await env.DB.prepare("insert into restore_rows (restore_id, tbl, seq, data) values (?, 'contacts', 1, '{}')").bind(id).run();
    expect(await abandonStaleRestores(db, [db])).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(backupRestores).where(eq(backupRestores.id, id)).get()).toMatchObject({ status: "failed" });
    expect((await env.DB.prepare("select count(*) as n from restore_rows where restore_id = ?").bind(id).first<{ n: number }>())!.n).toBe(0);
  });
});

describe("Operations Center → Backup → Restore", () => {
  it("is for admins only, checks its input, and restores by the agent's e-mail", async () => {
    const agent = await agentWithData("Vera");
    const id = (await createBackup(env, db, "manual")).id;
    await eraseCrmData(env.DB, agent.user.id);

    const stranger = await signInAs(await createUser(env.DB));
    const refused = await stranger.post("/operations?tab=backup", { intent: "restore", backupId: id, email: agent.user.email });
    expect([403, 404]).toContain(refused.status);
    expect((await db.select().from(contacts).where(eq(contacts.userId, agent.user.id))).length).toBe(0);

    const adminUser = await createUser(env.DB, { role: "admin" });
    const adminId = adminUser.id;
    const admin = await signInAs(adminUser);
    const page = await admin.get("/operations?tab=backup");
    expect(await page.text()).toContain(RESTORE_CONFIRM);
    for (const [body, message] of [
      [{ intent: "restore", backupId: id, email: "not an e-mail" }, "Enter the agent&#x27;s e-mail address."],
      [{ intent: "restore", backupId: id, email: "nobody-here@example.com" }, "No account has that e-mail address."],
      [{ intent: "restore", backupId: "", email: agent.user.email }, "Choose a backup to restore."],
    ] as const) {
      const response = await admin.post("/operations?tab=backup", body);
      expect(response.status, message).toBe(400);
      expect(await response.text()).toContain(message);
    }
    const unknown = await admin.post("/operations?tab=backup", { intent: "restore", backupId: "x".repeat(64), email: agent.user.email });
    expect(unknown.status).toBe(302);
    expect((await db.select().from(contacts).where(eq(contacts.userId, agent.user.id))).length).toBe(0);

    // The POST only starts the restore and answers; the job swaps the rows in after the answer.
    const before = new Set((await db.select().from(durableJobs).where(eq(durableJobs.startedBy, adminId))).map((j) => j.id));
    const job = await runDurableJob(env.AGENT_RESTORE_WORKFLOW, "agent-restore", async () => {
      const response = await admin.post("/operations?tab=backup", { intent: "restore", backupId: id, email: agent.user.email.toUpperCase() });
      expect(response.status).toBe(302);
      expect((await admin.follow(response)).html).toContain("Restore started");
      // The newest of the admin's restores: the unknown backup above started one of its own, which failed.
      const theirs = await db.select().from(durableJobs).where(eq(durableJobs.startedBy, adminId));
      return theirs.find((j) => !before.has(j.id))!;
    });
    expect(job).toMatchObject({ kind: "agent-restore", status: "succeeded", error: null });
    expect(job.result).toMatch(/^[\d,]+ rows restored\.$/);
    expect((await db.select().from(contacts).where(eq(contacts.userId, agent.user.id))).map((c) => c.name).sort()).toEqual([
      "Vera Buyer",
      "Vera Seller",
    ]);
    const listed = await (await admin.get("/operations?tab=backup")).text();
    expect(listed).toContain("Safety copy");
    expect(listed).toContain(agent.user.email);
  }, 60_000);
});

describe("an agent's restore as a durable job, at its edges", () => {
  it("swaps nothing when the swap step runs again after its batch committed", async () => {
    const agent = (await createUser(env.DB)).id;
    const backupId = (await createBackup(env, db, "manual")).id;
    const id = crypto.randomUUID();
    await db.insert(contacts).values({ id: `kept-${id}`, userId: agent, name: "Kept After The Swap" });
    // The restore's row as the committed swap left it (completed), and a retry of the step with the staged tables.
    await db.insert(backupRestores).values({ id, backupId, userId: agent, status: "completed", rowCount: 1, startedAt: Date.now() });
    const again = await swapRestore(env, db, { restoreId: id, userId: agent }, [{ table: "contacts", owner: "user_id", rows: 0, columns: [] }]);
    expect(again).toMatchObject({ id, status: "completed", rowCount: 1 });
    expect((await db.select().from(contacts).where(eq(contacts.userId, agent))).map((c) => c.name)).toEqual(["Kept After The Swap"]);
  });
});
