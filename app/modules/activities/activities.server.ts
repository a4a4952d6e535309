import { crmActivities } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import type { UserId } from "~/modules/auth/session.server";

// crm_activities writers. Issue 6 records stage changes; issue 7 adds logging, timelines and feeds.

export interface StageChange {
  dealId: string;
  contactId: string | null;
  from: { key: string; name: string };
  to: { key: string; name: string };
  lostReason?: string | null;
}

/** The insert for a stage change, to run in the same batch as the move itself. */
export function stageChangeInsert(context: RequestContext, userId: UserId, change: StageChange, at = new Date()) {
  return context.db.insert(crmActivities).values({
    id: newId(),
    userId,
    dealId: change.dealId,
    contactId: change.contactId,
    type: "stage_change",
    occurredAt: at,
    notes: change.lostReason ?? null,
    meta: { from: change.from.key, fromName: change.from.name, to: change.to.key, toName: change.to.name, lostReason: change.lostReason ?? null },
  });
}
