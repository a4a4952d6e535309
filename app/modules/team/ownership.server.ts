import { and, eq, sql, type SQL } from "drizzle-orm";
import { teamMembers, teams } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { SessionUser, UserId } from "~/modules/auth/session.server";
import { endAtPeriodEnd, liveSubscription, setPlanAndSeats, type PlanChangeResult } from "~/modules/billing/plan-change.server";
import { seatsFor } from "~/modules/billing/plans";
import { emailOwnershipOffer } from "./emails.server";
import { getMembership, listMembers, memberCount } from "./team.server";
import { auditStatement, recordAudit, type AuditWhere } from "~/modules/audit/audit.server";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { OWNERSHIP_COPY, TEAM_MESSAGES } from "./team.messages";

// Transferring a team's ownership (ADR 0039). The owner is the one who pays: the team's seats are the
// quantity of the owner's own subscription. So ownership is offered, and the member who accepts takes the bill with
// it: their own subscription becomes the Team plan with the team's seats (the Team price from their next billing
// period, as every plan switch), and the former owner's subscription ends with the period they have paid. The former
// owner stays on as an admin, their seat now on the new owner's bill. Stripe is asked first at each step; if the
// second step fails the first is undone, so nobody ends up paying for the team twice or not at all.

export interface OwnershipOffer {
  to: string;
  at: number;
}

/** The team's pending offer, if any. */
export async function pendingOffer(context: RequestContext, teamId: string): Promise<OwnershipOffer | null> {
  const row = await context.db.select({ to: teams.pendingOwnerId, at: teams.pendingOwnerAt }).from(teams).where(eq(teams.id, teamId)).get();
  return row?.to ? { to: row.to, at: row.at?.getTime() ?? 0 } : null;
}

/**
 * The owner offers ownership to another member (one offer at a time: a new one replaces the last); the member is
 * e-mailed the offer and what accepting means (links to `origin`).
 */
export async function offerOwnership(
  context: RequestContext,
  actor: SessionUser,
  memberId: string,
  origin: string,
  where: AuditWhere,
): Promise<PlanChangeResult> {
  const membership = await getMembership(context, actor.id);
  if (membership?.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly };
  if (memberId === actor.id) return { ok: false, message: TEAM_MESSAGES.offerToMember };
  const updated = await context.db
    .update(teams)
    .set({ pendingOwnerId: memberId, pendingOwnerAt: new Date() })
    .where(
      and(
        eq(teams.id, membership.teamId),
        eq(teams.ownerId, actor.id),
        sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = ${membership.teamId} and ${teamMembers.userId} = ${memberId})`,
      ),
    )
    .returning({ id: teams.id });
  if (!updated.length) return { ok: false, message: TEAM_MESSAGES.offerToMember };
  const members = await listMembers(context, membership.teamId);
  const to = members.find((m) => m.userId === memberId);
  const owner = members.find((m) => m.userId === actor.id);
  await recordAudit(context, {
    action: "team.ownership_offered",
    teamId: membership.teamId,
    actor: { id: actor.id, label: owner?.name ?? actor.email },
    subject: { id: memberId, label: to?.name ?? "A teammate" },
    where,
    at: Date.now(),
  });
  if (to) {
    const terms = OWNERSHIP_COPY.terms(seatsFor(members.length));
    await emailOwnershipOffer(context, origin, {
      teamName: membership.teamName,
      ownerName: owner?.name ?? actor.email,
      to: { id: to.userId, email: to.email },
      terms,
    });
  }
  return { ok: true };
}

/**
 * Ends the offer to `to`, if it still stands, and writes its audit row in the same batch (a second click, or an offer
 * already taken or ended, writes nothing).
 */
async function endOffer(
  context: RequestContext,
  team: { teamId: string },
  to: string,
  onlyIf: SQL,
  audit: Omit<Parameters<typeof auditStatement>[1], "teamId" | "at">,
): Promise<boolean> {
  const db = context.db;
  const still = and(eq(teams.id, team.teamId), eq(teams.pendingOwnerId, to), onlyIf);
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, sql`exists (select 1 from ${teams} where ${still})`),
      db.update(teams).set({ pendingOwnerId: null, pendingOwnerAt: null }).where(still),
      auditStatement(context, { ...audit, teamId: team.teamId, at: Date.now() }),
    ]),
  );
  return done.ok;
}

/** The owner withdraws the offer (recorded in the team's audit log). */
export async function withdrawOffer(context: RequestContext, actor: SessionUser, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, actor.id);
  if (membership?.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly };
  const offer = await pendingOffer(context, membership.teamId);
  if (!offer) return { ok: true };
  const members = await listMembers(context, membership.teamId);
  const nameOf = (id: string, fallback: string) => members.find((m) => m.userId === id)?.name ?? fallback;
  await endOffer(context, membership, offer.to, eq(teams.ownerId, actor.id), {
    action: "team.ownership_withdrawn",
    actor: { id: actor.id, label: nameOf(actor.id, actor.email) },
    subject: { id: offer.to, label: nameOf(offer.to, "A teammate") },
    where,
  });
  return { ok: true };
}

/** The member offered ownership turns it down (recorded in the team's audit log). */
export async function declineOwnership(context: RequestContext, user: SessionUser, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, user.id);
  if (!membership) return { ok: false, message: TEAM_MESSAGES.noOffer };
  const members = await listMembers(context, membership.teamId);
  const me = { id: user.id, label: members.find((m) => m.userId === user.id)?.name ?? user.email };
  const declined = await endOffer(context, membership, user.id, sql`1`, { action: "team.ownership_declined", actor: me, subject: me, where });
  return declined ? { ok: true } : { ok: false, message: TEAM_MESSAGES.noOffer };
}

/** Whether the member has a live subscription of their own, the one the team's seats would move to. */
export async function canTakeTheBill(context: RequestContext, userId: UserId): Promise<boolean> {
  return (await liveSubscription(context, userId)) !== null;
}

/** The member offered ownership accepts it: the bill moves first (Stripe), then the roles. */
export async function acceptOwnership(context: RequestContext, user: SessionUser, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, user.id);
  const offer = membership ? await pendingOffer(context, membership.teamId) : null;
  if (!membership || membership.role === "owner" || offer?.to !== user.id) return { ok: false, message: TEAM_MESSAGES.noOffer };
  const own = await liveSubscription(context, user.id);
  if (!own) return { ok: false, message: TEAM_MESSAGES.ownerNeedsSubscription };
  if (own.plan === "enterprise") return { ok: false, message: TEAM_MESSAGES.ownerNeedsTeamablePlan };
  const formerOwner = membership.ownerId;

  const taken = await setPlanAndSeats(context, user.id, "team", seatsFor(await memberCount(context, membership.teamId)), false);
  if (!taken.ok) return taken;
  const ended = await endAtPeriodEnd(context, formerOwner, true);
  if (!ended.ok) {
    // Put the new owner's subscription back as it was: the team keeps one payer.
    const undone = await setPlanAndSeats(context, user.id, own.plan, own.seats, false);
    if (!undone.ok) console.error(JSON.stringify({ event: "ownership_undo_failed", userId: user.id, teamId: membership.teamId }));
    return ended;
  }
  const members = await listMembers(context, membership.teamId);
  const nameOf = (id: string) => members.find((m) => m.userId === id)?.name ?? "A teammate";
  const db = context.db;
  const moved = await guardedBatch(() =>
    db.batch([
      // The offer still stands (not withdrawn meanwhile): else nothing of the batch lands.
      requireInBatch(
        db,
        sql`exists (select 1 from ${teams} where ${and(eq(teams.id, membership.teamId), eq(teams.ownerId, formerOwner), eq(teams.pendingOwnerId, user.id))})`,
      ),
      context.db
        .update(teams)
        .set({ ownerId: user.id, pendingOwnerId: null, pendingOwnerAt: null, updatedAt: new Date() })
        .where(and(eq(teams.id, membership.teamId), eq(teams.ownerId, formerOwner), eq(teams.pendingOwnerId, user.id)))
        .returning({ id: teams.id }),
      context.db
        .update(teamMembers)
        .set({ role: sql`case ${teamMembers.userId} when ${user.id} then 'owner' else 'admin' end` })
        .where(
          and(
            eq(teamMembers.teamId, membership.teamId),
            sql`${teamMembers.userId} in (${user.id}, ${formerOwner})`,
            sql`exists (select 1 from ${teams} where ${teams.id} = ${membership.teamId} and ${teams.ownerId} = ${user.id})`,
          ),
        ),
      auditStatement(context, {
        action: "team.ownership_transferred",
        teamId: membership.teamId,
        actor: { id: user.id, label: nameOf(user.id) },
        subject: { id: user.id, label: nameOf(user.id) },
        details: { from: nameOf(formerOwner) },
        where,
        at: Date.now(),
      }),
    ]),
  );
  if (!moved.ok) {
    // The offer was withdrawn meanwhile: the bill goes back to the owner.
    await Promise.all([setPlanAndSeats(context, user.id, own.plan, own.seats, false), endAtPeriodEnd(context, formerOwner, false)]);
    return { ok: false, message: TEAM_MESSAGES.noOffer };
  }
  context.memo.delete(`team:${user.id}`);
  context.memo.delete(`team:${formerOwner}`);
  context.memo.delete(`subscription:${user.id}`);
  context.memo.delete(`subscription:${formerOwner}`);
  return { ok: true };
}

/** A member offered ownership who has no live subscription of their own yet: checkout stays open to them. */
export async function needsOwnSubscriptionForOffer(context: RequestContext, userId: UserId): Promise<boolean> {
  const offered = await context.db.select({ id: teams.id }).from(teams).where(eq(teams.pendingOwnerId, userId)).get();
  return offered ? !(await canTakeTheBill(context, userId)) : false;
}
