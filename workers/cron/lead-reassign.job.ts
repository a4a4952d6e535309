import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { raiseLeadAlert } from "~/modules/push/lead-alerts.server";
import type { UserId } from "~/modules/auth/session.server";
import { autoReassign } from "~/modules/team/auto-reassign.server";

/**
 * Auto-reassign (ADR 0078): leads given automatically that their agent has not contacted within the team's minutes
 * hop to the next agent by the same route (a bounded pass), with the new-lead alert to that agent.
 */
export async function leadReassignJob(db: Db, controller: ScheduledController, env: Env): Promise<string> {
  const config = getConfig(env);
  const alert = async (agentId: string, contact: { id: string; name: string; phone: string | null; email: string | null }) =>
    void (await raiseLeadAlert({ db, config }, agentId as UserId, contact, controller.scheduledTime));
  const moved = await autoReassign({ db, alert }, new Date(controller.scheduledTime));
  if (moved > 0) console.log(JSON.stringify({ event: "leads_reassigned", moved }));
  return `${count(moved, "lead")} reassigned`;
}
