import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { AUDIT_RETENTION_DAYS, pruneAuditEvents } from "~/modules/audit/retention.server";

/**
 * Deletes audit log rows older than a year (ADR 0073), oldest first, a bounded number of statements a run; what is left
 * goes on the next run. The scheduled time is the clock.
 */
export async function auditRetentionJob(_db: Db, controller: ScheduledController, env: Env): Promise<string> {
  const deleted = await pruneAuditEvents(env.DB, controller.scheduledTime);
  if (deleted > 0) console.log(JSON.stringify({ event: "audit_retention", deleted, days: AUDIT_RETENTION_DAYS }));
  return `${count(deleted, "audit row")} older than ${AUDIT_RETENTION_DAYS} days deleted`;
}
