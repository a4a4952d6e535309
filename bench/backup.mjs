// The backup and the restore drill of the whole seeded database (issue 18, ADR 0027), run the way production
// runs them: the five-minute cron's scheduled handler, in the bench's workerd. Timed from the backup's own row
// (started, finished, drill time); memory is the workerd process's resident set, sampled every 50 ms: its
// rise during the backup shows whether the backup streams (a backup that held the database would rise by the
// database's size). The process also holds the in-memory databases, so the drill's rise includes the copy it
// loads into DB_RESTORE_DRILL.
import { readFileSync, readdirSync } from "node:fs";

/** The workerd process Miniflare started for this bench (a child of this Node process). */
function workerdPid() {
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

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return line ? Number(line.replace(/\D+/g, "")) / 1024 : 0;
};

export async function benchBackup(mf) {
  const pid = workerdPid();
  const samples = [];
  const timer = pid ? setInterval(() => samples.push({ at: Date.now(), mb: rssMb(pid) }), 50) : null;
  const before = pid ? rssMb(pid) : null;
  const worker = await mf.getWorker();
  await worker.scheduled({ cron: "*/5 * * * *", scheduledTime: new Date() });
  if (timer) clearInterval(timer);
  const db = await mf.getD1Database("DB");
  const row = await db.prepare("select * from backups order by started_at desc limit 1").first();
  if (!row || row.status !== "completed") throw new Error(`the backup did not complete: ${JSON.stringify(row)}`);
  if (row.drill_status !== "passed") throw new Error(`the restore drill did not pass: ${row.drill_error}`);
  const manifest = await (await (await mf.getR2Bucket("BACKUPS")).get(`backups/${row.id}/manifest.json`)).json();
  const uncompressed = manifest.tables.reduce((sum, t) => sum + t.bytes, 0);
  const peak = (from, to) => Math.max(0, ...samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.mb));
  const drillStart = row.drill_at - row.drill_ms;
  const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
  return [
    `Backup of the whole seeded database (${row.table_count} tables, ${row.row_count.toLocaleString("en-US")} rows, ${mb(uncompressed)} of NDJSON): ` +
      `${((row.finished_at - row.started_at) / 1000).toFixed(1)} s, ${mb(row.size_bytes)} stored (gzip).`,
    `Restore drill of it into the scratch database, every table checked: ${(row.drill_ms / 1000).toFixed(1)} s.`,
    before === null
      ? "workerd's memory could not be sampled here."
      : `workerd resident memory: ${before.toFixed(0)} MB before; peak ${peak(row.started_at, row.finished_at).toFixed(0)} MB during the backup; ` +
        `peak ${peak(drillStart, row.drill_at).toFixed(0)} MB during the drill (which loads a second copy of the database into memory).`,
  ].join("\n");
}
