import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { raiseLeadAlert } from "~/modules/push/lead-alerts.server";
import { settleExpiredOffers } from "~/modules/team/leads.server";

/**
 * First to claim (ADR 0038): leads whose claim window has passed go to the next available agent by round
 * robin (or back to the team's pond when nobody is available), with the new-lead alert to that agent.
 */
export async function leadOffersJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const config = getConfig(env);
  const settled = await settleExpiredOffers({ db, alert: async (agentId, contact) => void (await raiseLeadAlert({ db, config }, agentId, contact)) });
  if (settled > 0) console.log(JSON.stringify({ event: "lead_offers_settled", settled }));
  return `${count(settled, "expired offer")} settled`;
}
