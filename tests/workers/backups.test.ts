import { DAY_MS } from "~/lib/dates";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { backups, durableJobs, type Backup } from "~/db/schema";
import { startBackup, writeBackupPart } from "~/modules/backups/backup-job.server";
import {
  automaticBackupDue,
  BACKUP_RETENTION_DAYS,
  backupKey,
  backupStorage,
  backupTables,
  createBackup,
  pruneBackups,
  readManifest,
  tableFiles,
  type BackupManifest,
  type TableManifest,
} from "~/modules/backups/backup.server";
import { fileSlices, partsDigest } from "~/modules/backups/table-file.server";
import { drillDue, loadOrder, startRestoreDrill } from "~/modules/backups/drill.server";
import { runAgentRestore, runDurableJob } from "../factories/durable-jobs";
import { eraseCrmData } from "~/modules/data/erase.server";
import { JOBS } from "../../workers/cron";
import { agentWithData } from "../factories/agent-data";
import { signInAs } from "../factories/browser";
import { createUser } from "../factories/users";

// Backups: every table as gzip NDJSON in R2 with a manifest of row counts and checksums, listed and
// downloadable in Operations Center → Backup, taken daily by the cron and kept 30 days.

const db = createDb(env.DB);

async function gunzip(body: ReadableStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream)).arrayBuffer());
}
const sha256 = async (bytes: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, "0")).join("");
const lines = (bytes: Uint8Array) =>
  new TextDecoder()
    .decode(bytes)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { table: string; row: Record<string, unknown> });

describe("a backup", () => {
  let backup: Backup;
  let manifest: BackupManifest;
  let agent: Awaited<ReturnType<typeof agentWithData>>;

  beforeAll(async () => {
    agent = await agentWithData("Tove");
    // Another agent's 120 contacts, so that a table spans several parts.
    const other = await createUser(env.DB);
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < 120) insert into contacts (id, user_id, name) select ? || '-' || i, ?, 'Lead ' || i from n",
    )
      .bind(`parts-${other.id}`, other.id)
      .run();
    // As the cron and the Backup tab take it: a durable job, here in parts of 50 rows so that tables span several.
    const job = await runBackup({ rowsPerPart: 50 });
    expect(job).toMatchObject({ kind: "backup", status: "succeeded", error: null });
    backup = (await db.select().from(backups).where(eq(backups.id, job.subject!)).get())!;
    manifest = (await readManifest(env.BACKUPS, backup.id))!;
  }, 60_000);

  it("holds every table of the schema but the search index, with the schema version", async () => {
    expect(backup).toMatchObject({ type: "manual", status: "completed", errorMessage: null });
    const tables = manifest.tables.map((t) => t.table);
    expect(tables).toEqual(await backupTables(env.DB));
    expect(tables).toEqual(expect.arrayContaining(["users", "contacts", "deals", "crm_tasks", "crm_activities", "subscribers", "gdpr_requests"]));
    expect(tables.some((t) => t.startsWith("contacts_fts") || t.startsWith("sqlite_") || t === "d1_migrations")).toBe(false);
    expect(manifest.schema_version).toMatch(/^\d{4}_/);
    expect(backup.schemaVersion).toBe(manifest.schema_version);
    expect(backup.tableCount).toBe(tables.length);
    expect(backup.rowCount).toBe(manifest.tables.reduce((sum, t) => sum + t.rows, 0));
  });

  /** A table's text as the backup holds it: its files (its parts, or its one file) unzipped, one after another. */
  async function tableText(entry: TableManifest): Promise<Uint8Array> {
    const parts = await Promise.all(tableFiles(entry).map(async (file) => gunzip((await env.BACKUPS.get(file.key))!.body)));
    return new Uint8Array(await new Blob(parts as Uint8Array<ArrayBuffer>[]).arrayBuffer());
  }

  it("holds the same rows as a backup taken in one go, each table in parts of the step's rows listed in order", async () => {
    const inline = (await readManifest(env.BACKUPS, (await createBackup(env, db, "manual")).id))!;
    // The backup's own bookkeeping changed in between (the two backups' rows and the job's); every other table is equal.
    for (const entry of manifest.tables.filter((t) => !["backups", "durable_jobs"].includes(t.table))) {
      const one = inline.tables.find((t) => t.table === entry.table)!;
      expect(one.parts, entry.table).toBeUndefined();
      expect({ rows: entry.rows, bytes: entry.bytes, create: entry.create, indexes: entry.indexes }, entry.table).toEqual({
        rows: one.rows,
        bytes: one.bytes,
        create: one.create,
        indexes: one.indexes,
      });
      expect(await sha256(await tableText(entry)), entry.table).toBe(one.sha256);
      // Parts of 50 rows exactly, the last one shorter; a table without rows has its one empty part.
      expect(
        entry.parts!.map((p) => p.rows),
        entry.table,
      ).toEqual(entry.rows === 0 ? [0] : Array.from({ length: Math.ceil(entry.rows / 50) }, (_, i) => Math.min(50, entry.rows - 50 * i)));
      expect(entry.sha256, entry.table).toBe(await partsDigest(entry.parts!));
    }
    expect(manifest.tables.find((t) => t.table === "contacts")!.parts!.length).toBeGreaterThan(2);
  });

  it("stores each table as gzip NDJSON whose lines and SHA-256 match the manifest, with the agent's rows in it", async () => {
    for (const table of manifest.tables) {
      expect(
        tableFiles(table).reduce((sum, f) => sum + f.stored, 0),
        table.table,
      ).toBe(table.stored);
      for (const file of tableFiles(table)) {
        const object = await env.BACKUPS.get(file.key);
        expect(object, file.key).not.toBeNull();
        expect(object!.size, file.key).toBe(file.stored);
        const bytes = await gunzip(object!.body);
        expect(bytes.byteLength, file.key).toBe(file.bytes);
        expect(await sha256(bytes), file.key).toBe(file.sha256);
        const rows = lines(bytes);
        expect(rows, file.key).toHaveLength(file.rows);
        expect(rows.every((r) => r.table === table.table)).toBe(true);
      }
    }
    const contacts = lines(await tableText(manifest.tables.find((t) => t.table === "contacts")!));
    const hers = contacts
      .filter((c) => c.row.user_id === agent.user.id)
      .map((c) => c.row.name)
      .sort();
    expect(hers).toEqual(["Tove Buyer", "Tove Seller"]);
    // Stored as the database holds it: JSON columns as their text, times as numbers.
    expect(typeof contacts.find((c) => c.row.id === agent.contact.id)!.row.tags).toBe("string");
    expect(backup.sizeBytes).toBe(
      manifest.tables.reduce((sum, t) => sum + t.stored, 0) + (await env.BACKUPS.head(backupKey(backup.id, "manifest.json")))!.size,
    );
  });

  it("writes no empty part after rows that fill the last part exactly", async () => {
    const owner = await createUser(env.DB);
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < 100) insert into contacts (id, user_id, name) select ? || '-' || i, ?, 'Even ' || i from n",
    )
      .bind(`even-${owner.id}`, owner.id)
      .run();
    const id = `even-${crypto.randomUUID().slice(0, 8)}`;
    const mine = { column: "user_id", userId: owner.id };
    const first = await writeBackupPart(env, id, "contacts", 1, 0, 50, mine);
    expect(first).toMatchObject({ rows: 50, more: true, file: { rows: 50 } });
    const second = await writeBackupPart(env, id, "contacts", 2, first.last, 50, mine);
    expect(second).toMatchObject({ rows: 50, more: true, file: { rows: 50 } });
    expect(await writeBackupPart(env, id, "contacts", 3, second.last, 50, mine)).toMatchObject({ rows: 0, more: false, file: null });
    expect((await env.BACKUPS.list({ prefix: backupKey(id, "parts/") })).objects).toHaveLength(2);
    // A table without rows keeps its one, empty, part.
    expect(await writeBackupPart(env, id, "contacts", 1, second.last, 50, mine)).toMatchObject({ rows: 0, more: false, file: { rows: 0 } });
  });

  it("drills a step per part, and fails a drill when a part was changed or the parts were reordered", async () => {
    const contacts = manifest.tables.find((t) => t.table === "contacts")!;
    expect(fileSlices(contacts, 50)).toEqual(contacts.parts!.map((p, i) => ({ file: i, from: 0, count: p.rows, line: 50 * i })));
    const total = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    expect(await drill(backup.id, { rowsPerStep: 50 })).toMatchObject({ status: "succeeded", error: null, done: total, total });

    /** A copy of the manifest under another id whose contacts entry is `change`d (the objects stay where they are). */
    const copy = async (change: (entry: TableManifest) => Promise<TableManifest>) => {
      const id = `parted-${crypto.randomUUID().slice(0, 8)}`;
      const tables = await Promise.all(manifest.tables.map((t) => (t.table === "contacts" ? change(t) : t)));
      await env.BACKUPS.put(backupKey(id, "manifest.json"), JSON.stringify({ ...manifest, id, tables }));
      await db.insert(backups).values({ id, type: "manual", status: "completed", startedAt: Date.now() - 60_000 });
      return id;
    };
    const changed = await copy(async (entry) => {
      const text = new TextDecoder().decode(await gunzip((await env.BACKUPS.get(entry.parts![1]!.key))!.body));
      const edited = text.replace('"name":"', '"name":"Changed ');
      expect(edited).not.toBe(text);
      const key = `${entry.parts![1]!.key}.edited`;
      const gz = await new Response(
        new Blob([edited]).stream().pipeThrough(new CompressionStream("gzip") as unknown as TransformStream),
      ).arrayBuffer();
      await env.BACKUPS.put(key, gz);
      return { ...entry, parts: entry.parts!.map((p, i) => (i === 1 ? { ...p, key } : p)) };
    });
    expect(await drill(changed, { rowsPerStep: 50 })).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^contacts: the file does not match its manifest/),
    });
    const reordered = await copy(async (entry) => ({ ...entry, parts: [entry.parts![1]!, entry.parts![0]!, ...entry.parts!.slice(2)] }));
    expect(await drill(reordered, { rowsPerStep: 50 })).toMatchObject({ status: "failed", error: "contacts: its parts do not match its manifest" });
  }, 120_000);

  it("restores an agent from its parts, a step per part, to the rows it held, with the safety copy in parts too", async () => {
    const mine = async () =>
      (await env.DB.prepare("select id, name, tags from contacts where user_id = ? order by id").bind(agent.user.id).all()).results;
    const held = await mine();
    expect(held).toHaveLength(2);
    await eraseCrmData(env.DB, agent.user.id);
    expect(await mine()).toEqual([]);
    const done = await runAgentRestore({ backupId: backup.id, userId: agent.user.id, requestedBy: null }, { rowsPerStep: 50, rowsPerPart: 50 });
    expect(done).toMatchObject({ status: "completed", errorMessage: null });
    expect(await mine()).toEqual(held);
    const safety = (await readManifest(env.BACKUPS, done.safetyBackupId!))!;
    expect(safety.tables.length).toBeGreaterThan(0);
    expect(safety.tables.every((t) => Array.isArray(t.parts) && t.parts.length > 0)).toBe(true);
  }, 120_000);

  it("downloads for an admin as one gzip file: the manifest, then every row", async () => {
    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    const response = await admin.get(`/operations/backups/${backup.id}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="porchlight-backup-${backup.id}.ndjson.gz"`);
    const text = new TextDecoder()
      .decode(await gunzip(response.body!))
      .split("\n")
      .filter(Boolean);
    expect(JSON.parse(text[0]!).manifest).toEqual(manifest);
    expect(text).toHaveLength(1 + manifest.tables.reduce((sum, t) => sum + t.rows, 0));

    const agentBrowser = await signInAs(await createUser(env.DB));
    expect((await agentBrowser.get(`/operations/backups/${backup.id}/download`)).status).toBe(404);
    expect((await admin.get("/operations/backups/no-such-backup/download")).status).toBe(404);
    expect((await admin.get("/operations/backups/..%2F..%2Fetc/download")).status).toBe(404);
  });

  it("shows on the Backup tab with the storage R2 reports", async () => {
    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    const page = (await admin.page("/operations?tab=backup")).replace(/<!-- -->/g, "");
    expect(page).toContain("Storage used");
    const storage = await backupStorage(env.BACKUPS);
    expect(storage.objects).toBeGreaterThanOrEqual(manifest.tables.length + 1);
    expect(page).toContain(`${storage.objects.toLocaleString("en-US")} objects in R2`);
    expect(page).toContain(`/operations/backups/${backup.id}/download`);
    expect((await (await signInAs(await createUser(env.DB))).get("/operations?tab=backup")).status).toBe(404);
  });
});

/** Takes a backup as the cron and the Backup tab's button do (a durable job) and waits for the workflow to end. */
const runBackup = (options: { rowsPerPart?: number } = {}) =>
  runDurableJob(env.BACKUP_WORKFLOW, "backup", async () => {
    const started = await startBackup(env, db, "manual", null, options);
    return started ? ((await db.select().from(durableJobs).where(eq(durableJobs.id, started.jobId)).get()) ?? null) : null;
  });

/** Drills a backup as the Backup tab's button does (a durable job) and waits for the workflow to end. */
const drill = (backupId: string, options: { rowsPerStep?: number } = {}) =>
  runDurableJob(env.RESTORE_DRILL_WORKFLOW, "restore-drill", () => startRestoreDrill(env, db, backupId, null, options));

describe("the restore drill", () => {
  let manifest: BackupManifest;
  let id: string;
  beforeAll(async () => {
    id = (await createBackup(env, db, "manual")).id;
    manifest = (await readManifest(env.BACKUPS, id))!;
  }, 60_000);

  /** A copy of the backup under another id, with one table's stored bytes changed by `change`. */
  async function tampered(table: string, change: (gz: Uint8Array) => Promise<Uint8Array>) {
    const copy = `tampered-${crypto.randomUUID().slice(0, 8)}`;
    const tables = [];
    for (const entry of manifest.tables) {
      const key = backupKey(copy, `${entry.table}.ndjson.gz`);
      let bytes: Uint8Array = new Uint8Array(await (await env.BACKUPS.get(entry.key))!.arrayBuffer());
      if (entry.table === table) bytes = await change(bytes);
      await env.BACKUPS.put(key, bytes);
      tables.push({ ...entry, key });
    }
    await env.BACKUPS.put(backupKey(copy, "manifest.json"), JSON.stringify({ ...manifest, id: copy, tables }));
    await db.insert(backups).values({ id: copy, type: "manual", status: "completed", startedAt: Date.now() - 60_000 });
    return copy;
  }

  it("loads parents before children", () => {
    const order = loadOrder(manifest.tables);
    for (const [parent, child] of [
      ["users", "contacts"],
      ["contacts", "deals"],
      ["deals", "deal_stage_history"],
      ["users", "gdpr_requests"],
    ]) {
      expect(order.indexOf(parent!), `${parent} before ${child}`).toBeLessThan(order.indexOf(child!));
    }
    expect([...order].sort()).toEqual(manifest.tables.map((t) => t.table).sort());
  });

  it("restores a whole backup into the scratch database, every table equal to the manifest, and records it", async () => {
    const job = await drill(id);
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    expect(job).toMatchObject({ kind: "restore-drill", subject: id, status: "succeeded", error: null, step: null, done: rows, total: rows });
    expect(job.result).toMatch(new RegExp(`^${rows.toLocaleString("en-US")} rows restored and checked in \\d+\\.\\d s\\.$`));
    for (const entry of manifest.tables) {
      const row = await env.DB_RESTORE_DRILL.prepare(`select count(*) as n from "${entry.table}"`).first<{ n: number }>();
      expect(row!.n, entry.table).toBe(entry.rows);
    }
    const [recorded] = await db.select().from(backups).where(eq(backups.id, id));
    expect(recorded).toMatchObject({ drillStatus: "passed", drillError: null });
    expect(recorded!.drillMs).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it("fails a backup whose file was changed or cut short, and says which table", async () => {
    const changed = await tampered("users", async (gz) => {
      const text = new TextDecoder().decode(await gunzip(new Blob([gz as Uint8Array<ArrayBuffer>]).stream()));
      const edited = text.replace(/"role":"user"/, '"role":"admin"');
      expect(edited).not.toBe(text);
      return new Uint8Array(
        await new Response(new Blob([edited]).stream().pipeThrough(new CompressionStream("gzip") as unknown as TransformStream)).arrayBuffer(),
      );
    });
    const bad = await drill(changed);
    expect(bad.status).toBe("failed");
    expect(bad.error).toMatch(/^users: the file does not match its manifest/);
    expect((await db.select().from(backups).where(eq(backups.id, changed)))[0]).toMatchObject({ drillStatus: "failed", drillError: bad.error });

    const cut = await tampered("users", async (gz) => gz.slice(0, Math.floor(gz.byteLength / 2)));
    const short = await drill(cut);
    expect(short.status).toBe("failed");
    expect(short.error).toMatch(/^users: /);

    const missing = await drill("no-such-backup");
    expect(missing).toMatchObject({ status: "failed", error: "The backup's manifest is missing or unreadable." });
  }, 60_000);

  it("is due weekly for the newest completed backup, and a drill from a clock ahead does not hold it off", async () => {
    const now = Date.now();
    await db
      .update(backups)
      .set({ drillAt: now - 60_000 })
      .where(eq(backups.id, id));
    expect(await drillDue(db, now)).toBeNull();
    expect(await drillDue(db, now + 8 * DAY_MS)).not.toBeNull();
  });
});

describe("Create backup", () => {
  it("takes a manual backup from the Backup tab and says so", async () => {
    const adminUser = await createUser(env.DB, { role: "admin" });
    const admin = await signInAs(adminUser);
    const before = Date.now();
    const job = await runDurableJob(env.BACKUP_WORKFLOW, "backup", async () => {
      const response = await admin.post("/operations?tab=backup", { intent: "backup" });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/operations?tab=backup");
      const page = await admin.follow(response);
      expect(page.html).toContain("Backup started");
      return (await db.select().from(durableJobs).where(eq(durableJobs.startedBy, adminUser.id)).get())!;
    });
    expect(job).toMatchObject({ kind: "backup", status: "succeeded" });
    const made = (await db.select().from(backups)).filter((b) => b.type === "manual" && b.startedAt >= before);
    expect(made.map((b) => b.id)).toEqual([job.subject]);
    expect(made[0]).toMatchObject({ status: "completed" });
  }, 60_000);
});

describe("retention and the daily backup", () => {
  it("deletes backups older than 30 days, objects and rows, and keeps newer ones", async () => {
    const now = Date.now();
    const ids = { old: `old-${crypto.randomUUID().slice(0, 8)}`, recent: `recent-${crypto.randomUUID().slice(0, 8)}` };
    await db.insert(backups).values([
      { id: ids.old, type: "automatic", status: "completed", startedAt: now - (BACKUP_RETENTION_DAYS + 1) * DAY_MS },
      { id: ids.recent, type: "automatic", status: "completed", startedAt: now - (BACKUP_RETENTION_DAYS - 1) * DAY_MS },
    ]);
    for (const id of Object.values(ids)) {
      await env.BACKUPS.put(backupKey(id, "manifest.json"), "{}");
      await env.BACKUPS.put(backupKey(id, "users.ndjson.gz"), "x");
    }
    expect(await pruneBackups(env, db, now)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(backups).where(eq(backups.id, ids.old))).toEqual([]);
    expect((await env.BACKUPS.list({ prefix: `backups/${ids.old}/` })).objects).toEqual([]);
    expect(await db.select().from(backups).where(eq(backups.id, ids.recent))).toHaveLength(1);
    expect((await env.BACKUPS.list({ prefix: `backups/${ids.recent}/` })).objects).toHaveLength(2);
  });

  it("is due a day after the last automatic backup, and runs from the five-minute cron", async () => {
    const at = Date.UTC(2035, 0, 1);
    const id = `auto-${crypto.randomUUID().slice(0, 8)}`;
    await db.insert(backups).values({ id, type: "automatic", status: "completed", startedAt: at });
    expect(await automaticBackupDue(db, at + DAY_MS - 60_000)).toBe(false);
    expect(await automaticBackupDue(db, at + DAY_MS)).toBe(true);
    // A clock that went back does not wait for the "future" backup.
    expect(await automaticBackupDue(db, at - DAY_MS)).toBe(true);
    await db.delete(backups).where(eq(backups.id, id));
    expect(JOBS["*/5 * * * *"]?.map((job) => job.name)).toContain("backupJob");
  });
});

describe("rows bound as JSON arrays (the drill's load and a restore's staging)", () => {
  it("keeps every row once, in order, at most 500 rows and about 500,000 characters an array", async () => {
    const { jsonArrays } = await import("~/modules/backups/json-arrays");
    expect(jsonArrays([])).toEqual([]);
    const small = Array.from({ length: 1_201 }, (_, i) => JSON.stringify([i, `row ${i}`]));
    const arrays = jsonArrays(small);
    expect(arrays.map((a) => (JSON.parse(a) as unknown[]).length)).toEqual([500, 500, 201]);
    expect(arrays.flatMap((a) => JSON.parse(a) as unknown[])).toEqual(small.map((row) => JSON.parse(row)));
    // Wide rows: the character cap closes an array before 500 rows; a row over the cap still goes, alone.
    const wide = Array.from({ length: 10 }, (_, i) => JSON.stringify([i, "x".repeat(200_000)]));
    expect(jsonArrays(wide).map((a) => (JSON.parse(a) as unknown[]).length)).toEqual([2, 2, 2, 2, 2]);
    expect(jsonArrays([JSON.stringify(["y".repeat(600_000)])])).toHaveLength(1);
  });
});
