// The backup and the restore drill of the whole seeded database (ADR 0027), run the way production
// runs them: started by the five-minute cron's scheduled handler as durable jobs (ADR 0058), in the bench's workerd. Timed from the backup's own row
// (started, finished, drill time); memory is the workerd process's resident set, sampled every 50 ms: its
// rise during the backup shows whether the backup streams (a backup that held the database would rise by the
// database's size). The process also holds the in-memory databases, so the drill's rise includes the copy it
// loads into DB_RESTORE_DRILL.
import { readFileSync, readdirSync } from "node:fs";

/** The workerd process Miniflare started for this bench (a child of this Node process). */
export function workerdPid() {
  const children = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  const mine = children.filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd");
    } catch {
      return false;
    }
  });
  return mine.length > 0 ? Number(mine[mine.length - 1]) : null;
}

export const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : 0;
};

/**
 * A waiter for the newest job of `kind`, made before the job starts: it waits for the job to end, printing its step
 * every 30 s, and throws after `limitMs` with the job's row, so a job that stopped moving ends the bench with what it
 * was doing rather than a wait without end.
 */
async function jobWaiter(mf, kind) {
  // The statement is made here, before the job starts. Miniflare's proxy makes `prepare` and `bind` synchronous calls
  // that block this thread until workerd answers; workerd, writing a running job's logs (the limits harness's report of
  // each step) to a pipe this blocked thread does not read, stops until it is read: each waited for the other and the
  // bench hung. `first()` is asynchronous, so polling with it leaves the logs flowing.
  const statement = async () =>
    (await mf.getD1Database("DB"))
      .prepare("select status, step, done, total, error from durable_jobs where kind = ? order by created_at desc limit 1")
      .bind(kind);
  let query = await statement();
  return async function ended(limitMs = 30 * 60_000) {
    const started = Date.now();
    let said = started;
    for (;;) {
      let job;
      try {
        job = await Promise.race([query.first(), new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 60 s")), 60_000))]);
      } catch (error) {
        // A long local step (20 s for a part of the large drill) can outlast Miniflare's proxy connection, which then
        // closes or never answers. The job goes on; ask again on a new one.
        if (!/other side closed|fetch failed|no answer in/i.test(`${error?.message} ${error?.cause?.message}`)) throw error;
        console.log(`  (the bench's connection to workerd was lost while waiting for the ${kind} job; asking again)`);
        query = await statement();
        continue;
      }
      if (job && (job.status === "succeeded" || job.status === "failed")) return job;
      if (Date.now() - said >= 30_000) {
        said = Date.now();
        console.log(
          `  ${kind}: ${job ? `${job.status}, ${job.step ?? ""} (${job.done ?? 0} of ${job.total ?? "?"} rows)` : "not started"} after ${Math.round((said - started) / 1000)} s`,
        );
      }
      if (Date.now() - started > limitMs) throw new Error(`the ${kind} job did not end within ${limitMs / 60_000} min: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  };
}

export async function benchBackup(mf) {
  const pid = workerdPid();
  const samples = [];
  const timer = pid ? setInterval(() => samples.push({ at: Date.now(), mb: rssMb(pid) }), 50) : null;
  const before = pid ? rssMb(pid) : null;
  const worker = await mf.getWorker();
  const db = await mf.getD1Database("DB");
  // The cron starts the backup and the drill as durable jobs (ADR 0058) and returns: the bench waits for each job's row
  // to end. The drill starts on the cron run after the backup completed (it drills the newest completed backup).
  const backupEnded = await jobWaiter(mf, "backup");
  const drillEnded = await jobWaiter(mf, "restore-drill");
  await worker.scheduled({ cron: "*/5 * * * *", scheduledTime: new Date() });
  const backupJob = await backupEnded();
  console.log(`  backup job: ${backupJob.status}${backupJob.error ? `: ${backupJob.error}` : ""}`);
  await worker.scheduled({ cron: "*/5 * * * *", scheduledTime: new Date() });
  await drillEnded();
  if (timer) clearInterval(timer);
  // The home database's (the large account's): the second cron run also starts database 1's own backup (ADR 0060).
  const row = await db.prepare("select * from backups where shard = 0 and user_id is null order by started_at desc limit 1").first();
  if (!row || row.status !== "completed") throw new Error(`the backup did not complete: ${JSON.stringify(row)}`);
  if (row.drill_status !== "passed") throw new Error(`the restore drill did not pass: ${row.drill_error}`);
  const manifest = await (await (await mf.getR2Bucket("BACKUPS")).get(`backups/${row.id}/manifest.json`)).json();
  const uncompressed = manifest.tables.reduce((sum, t) => sum + t.bytes, 0);
  // Peak over the samples inside a window, or "not sampled" when none fell in it (workerd's clock, which the backup's
  // row and the drill's times come from, only moves with I/O, so a window can miss the bench's samples).
  const peak = (from, to) => {
    const inside = samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.mb);
    return inside.length === 0 ? "not sampled" : `${Math.max(...inside).toFixed(0)} MB`;
  };
  const drillStart = row.drill_at - row.drill_ms;
  const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
  return [
    `Backup of the whole seeded database (${row.table_count} tables, ${row.row_count.toLocaleString("en-US")} rows, ${mb(uncompressed)} of NDJSON): ` +
      `${((row.finished_at - row.started_at) / 1000).toFixed(1)} s, ${mb(row.size_bytes)} stored (gzip).`,
    `Restore drill of it into the scratch database, every table checked: ${(row.drill_ms / 1000).toFixed(1)} s.`,
    before === null
      ? "workerd's memory could not be sampled here."
      : `workerd resident memory: ${before.toFixed(0)} MB before; peak ${peak(row.started_at, row.finished_at)} during the backup; ` +
        `peak ${peak(drillStart, row.drill_at)} during the drill (which loads a second copy of the database into memory).`,
  ].join("\n");
}

/**
 * One agent's account restored from that backup (ADR 0029), through Operations Center → Backup → Restore as an
 * admin sends it: the bench's large account (every contact, deal, task and activity it has) replaced by the
 * backup's rows, the safety copy of its current rows included, run to its end as a durable job. Timed from the
 * restore's own log row.
 */
export async function benchAgentRestore(mf, origin, sessionCookie, email) {
  const db = await mf.getD1Database("DB");
  const user = await db.prepare("select id, role from users where email = ?").bind(email).first();
  const backup = await db
    .prepare("select id from backups where status = 'completed' and user_id is null and shard = 0 order by started_at desc limit 1")
    .first();
  const counts = async () => {
    const out = {};
    for (const table of ["contacts", "deals", "crm_tasks", "crm_activities"])
      out[table] = (await db.prepare(`select count(*) as n from ${table} where user_id = ?`).bind(user.id).first()).n;
    return out;
  };
  const before = await counts();
  await db.prepare("update users set role = 'admin' where id = ?").bind(user.id).run();
  const pid = workerdPid();
  const samples = [];
  const timer = pid ? setInterval(() => samples.push(rssMb(pid)), 50) : null;
  const rssBefore = pid ? rssMb(pid) : null;
  const restoreEnded = await jobWaiter(mf, "agent-restore");
  const response = await fetch(`${origin}/operations?tab=backup`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: sessionCookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "10.200.0.9" },
    body: new URLSearchParams({ intent: "restore", backupId: backup.id, email }),
  });
  // The POST starts the restore as a durable job (ADR 0058) and answers: the bench waits for the job's row to end.
  if (response.status === 302) await restoreEnded();
  if (timer) clearInterval(timer);
  await db.prepare("update users set role = ? where id = ?").bind(user.role, user.id).run();
  const row = await db.prepare("select * from backup_restores order by started_at desc limit 1").first();
  if (response.status !== 302 || row?.status !== "completed")
    throw new Error(`the agent restore did not complete (${response.status}): ${row?.error_message}`);
  const after = await counts();
  if (JSON.stringify(after) !== JSON.stringify(before))
    throw new Error(`the restored account differs: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  const safety = await db.prepare("select size_bytes from backups where id = ?").bind(row.safety_backup_id).first();
  return (
    `Restore of the large account from that backup (${row.row_count.toLocaleString("en-US")} rows: ${Object.entries(after)
      .map(([t, n]) => `${n.toLocaleString("en-US")} ${t}`)
      .join(", ")}), ` +
    `safety copy (${(safety.size_bytes / 1048576).toFixed(1)} MB) and one swap batch included: ${((row.finished_at - row.started_at) / 1000).toFixed(1)} s` +
    (rssBefore === null ? "." : `; workerd resident memory ${rssBefore.toFixed(0)} MB before, peak ${Math.max(rssBefore, ...samples).toFixed(0)} MB.`)
  );
}
