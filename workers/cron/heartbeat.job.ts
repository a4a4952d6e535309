import { cronRuns } from "~/db/schema";
import type { Db } from "~/db/client.server";

/** Records that the scheduler ran; the Operations Center shows the last run. */
export async function heartbeatJob(db: Db, controller: Pick<ScheduledController, "cron" | "scheduledTime">) {
  const started = new Date();
  await db.insert(cronRuns).values({
    job: "heartbeat",
    cron: controller.cron,
    scheduledAt: new Date(controller.scheduledTime),
    startedAt: started,
    finishedAt: new Date(),
    status: "ok",
  });
}
