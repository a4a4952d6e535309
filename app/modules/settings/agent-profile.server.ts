import { agentProfiles } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import type { AgentProfileInput } from "./agent-profile.schema";

export async function getAgentProfile(context: RequestContext, userId: UserId): Promise<Required<AgentProfileInput>> {
  const row = await context.db
    .select({
      agentName: agentProfiles.agentName,
      brokerage: agentProfiles.brokerage,
      market: agentProfiles.market,
      licenseNumber: agentProfiles.licenseNumber,
      signature: agentProfiles.signature,
      postalAddress: agentProfiles.postalAddress,
    })
    .from(agentProfiles)
    .where(ownedBy(agentProfiles, userId))
    .get();
  return row ?? { agentName: null, brokerage: null, market: null, licenseNumber: null, signature: null, postalAddress: null };
}

export async function saveAgentProfile(context: RequestContext, userId: UserId, input: AgentProfileInput) {
  await context.db
    .insert(agentProfiles)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: agentProfiles.userId, set: { ...input, updatedAt: new Date() } });
}
