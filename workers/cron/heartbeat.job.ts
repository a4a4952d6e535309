import type { Db } from "~/db/client.server";

/**
 * The scheduler's heartbeat: its run is recorded like every job's (runScheduled), under "heartbeat", which the cron
 * probe and the QA check read to see that the scheduler runs and how late.
 */
export async function heartbeatJob(_db: Db, controller: Pick<ScheduledController, "scheduledTime">): Promise<string> {
  const late = Math.max(0, Date.now() - controller.scheduledTime) / 1000;
  return `started ${late < 1 ? "on time" : `${Math.round(late).toLocaleString("en-US")} s late`}`;
}
