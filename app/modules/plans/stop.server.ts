import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { planRunEvents, planRuns } from "~/db/schema";
import { newId } from "~/lib/crypto";

// Stopping a contact's action plans (ADR 0072) when something the plan cannot talk past happens: they replied, they
// unsubscribed, their address bounced, their deal reached a stage the plan stops at, or the agent stopped it. Kept
// apart from the runner so the e-mail side can call it without importing the runner (which sends e-mail).

/** The stop reason of a run a person's reply stopped: the runner and the reply path write it, Reports counts it. */
export const REPLIED_STOP_REASON = "The contact replied.";

/** Stops the contact's live runs (of one plan, or all); each gets its history's "stopped" with the reason. How many. */
export async function stopPlanRuns(
  db: Db,
  userId: string,
  contactId: string,
  reason: string,
  at = new Date(),
  only?: { runId?: string; stage?: string },
) {
  const stopped = await db
    .update(planRuns)
    .set({ status: "stopped", stopReason: reason, endedAt: at, nextAt: null, remainingMs: null, updatedAt: at })
    .where(
      and(
        eq(planRuns.userId, userId),
        eq(planRuns.contactId, contactId),
        inArray(planRuns.status, ["running", "paused"]),
        only?.runId ? eq(planRuns.id, only.runId) : undefined,
        only?.stage ? sql`exists (select 1 from json_each(${planRuns.stopStages}) where value = ${only.stage})` : undefined,
      ),
    )
    .returning({ id: planRuns.id });
  if (stopped.length > 0) {
    await db.insert(planRunEvents).values(stopped.map((r) => ({ id: newId(), runId: r.id, userId, kind: "stopped" as const, detail: reason, at })));
  }
  return stopped.length;
}
