import { and, eq, inArray } from "drizzle-orm";
import { dealShares, durableJobs, teamHandovers } from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import type { RequestContext } from "~/lib/context.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { auditStatement, type AuditWhere } from "~/modules/audit/audit.server";
import type { PlanChangeResult } from "~/modules/billing/plan-change.server";
import { launchHandover, recordHandover } from "./handover.server";
import { TEAM_MESSAGES } from "./team.messages";
import { getMembership, isMemberSql, listMembers } from "./team.server";

// Handing a member's work to a teammate while they stay on the team (vacation, a leave, a member about to go): the
// removal's handover (ADR 0039, a durable job) without the removal. The owner decides, after the dialog has said what
// moves to whom; the batch that records it re-checks that the owner still owns the team and both are still members.

/** The owner hands `memberId`'s contacts, deals, tasks, activities and held team leads to `to`; the member stays. */
export async function handOverWork(
  context: RequestContext,
  actor: SessionUser,
  memberId: string,
  to: string,
  where: AuditWhere,
): Promise<PlanChangeResult> {
  const membership = await getMembership(context, actor.id);
  if (membership?.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly };
  const members = await listMembers(context, membership.teamId);
  const from = members.find((m) => m.userId === memberId);
  const taker = members.find((m) => m.userId === to);
  if (!from || from.role === "owner") return { ok: false, message: TEAM_MESSAGES.notAMember };
  if (!taker || to === memberId) return { ok: false, message: TEAM_MESSAGES.handOverTo };
  // One handover of a member's work at a time: a second would race the first over the same rows.
  const running = await context.db
    .select({ id: teamHandovers.id })
    .from(teamHandovers)
    .innerJoin(durableJobs, eq(durableJobs.id, teamHandovers.id))
    .where(
      and(eq(teamHandovers.teamId, membership.teamId), eq(teamHandovers.fromUserId, memberId), inArray(durableJobs.status, ["queued", "running"])),
    )
    .get();
  if (running) return { ok: false, message: TEAM_MESSAGES.handOverRunning };
  const handover = { jobId: crypto.randomUUID(), teamId: membership.teamId, from: memberId, to };
  const at = Date.now();
  const done = await guardedBatch(() =>
    context.db.batch([
      requireInBatch(
        context.db,
        and(isMemberSql(membership.teamId, actor.id, ["owner"]), isMemberSql(membership.teamId, memberId), isMemberSql(membership.teamId, to))!,
      ),
      ...recordHandover(context.db, { ...handover, startedBy: actor.id }, at),
      // As on a removal, the deals they share with co-agents stop being shared: the deal's agent changes under the share.
      context.db.delete(dealShares).where(eq(dealShares.ownerId, memberId)),
      auditStatement(context, {
        action: "team.handover",
        teamId: membership.teamId,
        actor: { id: actor.id, label: members.find((m) => m.userId === actor.id)?.name ?? actor.email },
        subject: { id: memberId, label: from.name },
        target: { type: "user", id: to, label: taker.name },
        details: { stays: true },
        where,
        at,
      }),
    ]),
  );
  if (!done.ok) return { ok: false, message: TEAM_MESSAGES.notAMember };
  await launchHandover(context.cloudflare.env, context.db, handover);
  return { ok: true };
}
