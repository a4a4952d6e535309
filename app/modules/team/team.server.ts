import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import {
  agentProfiles,
  dealShares,
  profiles,
  subscribers,
  teamLeads,
  teamMembers,
  teams,
  users,
  type MemberRecordAccess,
  type InviteRole,
  type TeamRole,
  INVITE_ROLES,
} from "~/db/schema";
import type { Db } from "~/db/client.server";
import { memoize, type RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import type { SessionUser, UserId } from "~/modules/auth/session.server";
import { liveSubscription, setPlanAndSeats, type PlanChangeResult } from "~/modules/billing/plan-change.server";
import { planName, seatsFor, TEAM_MIN_SEATS } from "~/modules/billing/plans";
import { TEAM_MESSAGES } from "./team.messages";
import { emailRemoval } from "./emails.server";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { launchHandover, recordHandover } from "./handover.server";
import { userName } from "./names.server";
import { auditPerson, auditStatement, auditWhere, teamSettingsAudit, type AuditWhere } from "~/modules/audit/audit.server";

// Teams (ADR 0033): who is in which team, with which role. The owner's subscription is the team's; each
// member takes a seat. Every change of membership asks Stripe for the seats first (plan-change.server.ts), so the
// team never has more members than it pays for, nor pays for members it no longer has.

export interface Membership {
  teamId: string;
  teamName: string;
  role: TeamRole;
  ownerId: UserId;
  /** What the owner and admins may do with every member's contacts, timelines and tasks (visibility.server.ts). */
  memberRecords: MemberRecordAccess;
  /** The owner requires two-factor sign-in of every member (ADR 0074). */
  requireTwoFactor: boolean;
}

const nameOf = (context: RequestContext, userId: string) => userName(context.db, userId, "A teammate");

/** The user's team and role, or null (a Solo agent). Once per request. */
export function getMembership(context: RequestContext, userId: UserId): Promise<Membership | null> {
  return memoize(context, `team:${userId}`, async () => {
    const row = await context.db
      .select({
        teamId: teams.id,
        teamName: teams.name,
        role: teamMembers.role,
        ownerId: teams.ownerId,
        memberRecords: teams.memberRecords,
        requireTwoFactor: teams.requireTwoFactor,
      })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(eq(teamMembers.userId, userId))
      .get();
    return row ? { ...row, ownerId: row.ownerId as UserId } : null;
  });
}

/** Owners and admins run the team: invitations, members, roles below their own. */
export const canManage = (membership: Membership | null): membership is Membership => membership?.role === "owner" || membership?.role === "admin";

/**
 * SQL for a write's own relationship check (app/db/write-guard.server.ts): `userId` is a member of `teamId`, with one of
 * `roles` when given. Read by the database inside the write's batch, so a member who has just left fails it.
 */
export function isMemberSql(teamId: string, userId: string, roles?: readonly TeamRole[]): SQL {
  const role = roles ? inArray(teamMembers.role, [...roles]) : undefined;
  return sql`exists (select 1 from ${teamMembers} where ${and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), role)})`;
}

/** The roles that run the team, for isMemberSql. */
export const MANAGER_ROLES = ["owner", "admin"] as const satisfies readonly TeamRole[];

/** The roles that work the team's new leads: add them, and hand them to agents (an ISA, ADR 0080). */
const LEAD_DESK_ROLES = ["owner", "admin", "isa"] as const satisfies readonly TeamRole[];

/** The roles that sell: every role but an ISA's (for isMemberSql). */
export const SELLER_ROLES = ["owner", "admin", "agent"] as const satisfies readonly TeamRole[];

/** Owners, admins and ISAs add the team's leads and hand them to agents. */
export const worksLeadDesk = (membership: Membership | null): membership is Membership =>
  membership !== null && (LEAD_DESK_ROLES as readonly TeamRole[]).includes(membership.role);

/** Whether a role sells: every role but an ISA's (ADR 0080). */
export const isSellerRole = (role: TeamRole): boolean => (SELLER_ROLES as readonly TeamRole[]).includes(role);

/**
 * The team's deals and commissions (the team pipeline and board, shared deals, the leaderboard) are for those who sell:
 * everyone but an ISA (ADR 0080).
 */
export const sellsOnTeam = (membership: Membership | null): membership is Membership => membership !== null && isSellerRole(membership.role);

export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  role: TeamRole;
  joinedAt: number;
}

const ROLE_ORDER = sql`case ${teamMembers.role} when 'owner' then 0 when 'admin' then 1 when 'agent' then 2 else 3 end`;

/** The team's members, owner first, each with the name they go by. Once per request (team views ask more than once). */
export function listMembers(context: RequestContext, teamId: string): Promise<MemberRow[]> {
  return memoize(context, `team-members:${teamId}`, () => readMembers(context, teamId));
}

async function readMembers(context: RequestContext, teamId: string): Promise<MemberRow[]> {
  const rows = await context.db
    .select({
      userId: teamMembers.userId,
      role: teamMembers.role,
      joinedAt: teamMembers.joinedAt,
      email: users.email,
      agentName: agentProfiles.agentName,
      fullName: profiles.fullName,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .leftJoin(agentProfiles, eq(agentProfiles.userId, teamMembers.userId))
    .leftJoin(profiles, eq(profiles.userId, teamMembers.userId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(ROLE_ORDER, asc(users.email));
  return rows.map((row) => ({
    userId: row.userId,
    name: row.agentName?.trim() || row.fullName?.trim() || row.email,
    email: row.email,
    role: row.role,
    joinedAt: row.joinedAt.getTime(),
  }));
}

/** The seats the team pays for (its owner's subscription). */
export async function paidSeats(context: RequestContext, team: Pick<Membership, "ownerId">): Promise<number> {
  const row = await context.db.select({ seats: subscribers.seats }).from(subscribers).where(eq(subscribers.userId, team.ownerId)).get();
  return row?.seats ?? 0;
}

export async function memberCount(context: RequestContext, teamId: string): Promise<number> {
  const row = await context.db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId)).get();
  return row?.n ?? 0;
}

/**
 * Solo → Team: the agent's subscription moves to the Team plan (TEAM_MIN_SEATS seats, the new price from the next
 * billing cycle) and a team is made with the agent as its owner. All their data stays as it is: it is theirs.
 */
export async function switchToTeam(context: RequestContext, user: SessionUser, name: string, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, user.id);
  if (membership) return { ok: false, message: membership.role === "owner" ? TEAM_MESSAGES.alreadyTeam : TEAM_MESSAGES.memberOfAnother };
  const subscription = await liveSubscription(context, user.id);
  if (!subscription) return { ok: false, message: TEAM_MESSAGES.notLive };
  if (subscription.plan === "enterprise") return { ok: false, message: TEAM_MESSAGES.enterprise };
  const changed = await setPlanAndSeats(context, user.id, "team", TEAM_MIN_SEATS, false);
  if (!changed.ok) return changed;
  const teamId = newId();
  const now = new Date();
  const me = { id: user.id, label: await nameOf(context, user.id) };
  await context.db.batch([
    context.db.insert(teams).values({ id: teamId, ownerId: user.id, name, createdAt: now, updatedAt: now }),
    context.db.insert(teamMembers).values({ teamId, userId: user.id, role: "owner", joinedAt: now }),
    auditStatement(context, {
      action: "billing.plan_changed",
      teamId,
      actor: me,
      subject: me,
      details: { from: planName(subscription.plan), to: "Team", seats: TEAM_MIN_SEATS },
      where,
      at: now,
    }),
  ]);
  context.memo.delete(`team:${user.id}`);
  return { ok: true };
}

/**
 * Team → Solo, for an owner alone in the team: refused while anyone else is a member. The Solo price applies from the
 * next billing cycle; pending invitations go with the team.
 */
export async function switchToSolo(context: RequestContext, user: SessionUser, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, user.id);
  if (!membership || membership.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly };
  const members = await memberCount(context, membership.teamId);
  if (members > 1) return { ok: false, message: TEAM_MESSAGES.downgradeWithMembers(members - 1) };
  const changed = await setPlanAndSeats(context, user.id, "solo", 1, false);
  if (!changed.ok) return changed;
  const me = { id: user.id, label: await nameOf(context, user.id) };
  // The team's log goes with the team (ADR 0073), so the change is the owner's own record.
  await context.db.batch([
    context.db.delete(teams).where(and(eq(teams.id, membership.teamId), eq(teams.ownerId, user.id))),
    auditStatement(context, {
      action: "billing.plan_changed",
      teamId: null,
      actor: me,
      subject: me,
      details: { from: "Team", to: "Solo", seats: 1 },
      where,
      at: Date.now(),
    }),
  ]);
  context.memo.delete(`team:${user.id}`);
  return { ok: true };
}

/** Asks Stripe for the seats `members` members need (prorated), before the membership changes. */
export function seatsForMembers(context: RequestContext, team: Pick<Membership, "ownerId">, members: number): Promise<PlanChangeResult> {
  return setPlanAndSeats(context, team.ownerId, "team", seatsFor(members), true);
}

/**
 * Removes a member. Owners remove anyone but themselves; admins remove agents. What the member made stays theirs
 * (their own account, which goes back to Solo: they need a subscription of their own to use it), unless the owner
 * names a teammate to take it over (`reassignTo`, ADR 0039): then the batch that ends the membership also records the
 * handover, and a durable job (handover.server.ts) moves their contacts, deals, tasks, activities and leads to that
 * teammate a part at a time, its progress on the Team page. The seat goes first, in Stripe.
 */
export async function removeMember(
  context: RequestContext,
  actor: SessionUser,
  memberId: string,
  reassignTo: string | undefined,
  origin: string,
  where: AuditWhere,
): Promise<PlanChangeResult> {
  const membership = await getMembership(context, actor.id);
  if (!canManage(membership)) return { ok: false, message: TEAM_MESSAGES.managersOnly };
  if (reassignTo && membership.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerReassigns };
  const roles = await context.db
    .select({ userId: teamMembers.userId, role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, membership.teamId), inArray(teamMembers.userId, [memberId, reassignTo ?? memberId])));
  const target = roles.find((r) => r.userId === memberId);
  if (!target) return { ok: false, message: TEAM_MESSAGES.notAMember };
  if (target.role === "owner") return { ok: false, message: TEAM_MESSAGES.cannotRemoveOwner };
  if (target.role === "admin" && membership.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerRemovesAdmins };
  if (reassignTo && (reassignTo === memberId || !roles.some((r) => r.userId === reassignTo)))
    return { ok: false, message: TEAM_MESSAGES.reassignToMember };
  // Checked again inside the batch: the remover still runs the team (admins remove agents only), and whoever takes the
  // work is still a member, so a role change or a departure in between moves nothing.
  const checks = [
    membership.role === "owner"
      ? isMemberSql(membership.teamId, actor.id, ["owner"])
      : and(isMemberSql(membership.teamId, actor.id, MANAGER_ROLES), isMemberSql(membership.teamId, memberId, ["agent", "isa"]))!,
    ...(reassignTo ? [isMemberSql(membership.teamId, reassignTo)] : []),
  ];
  const members = await listMembers(context, membership.teamId);
  const handover = reassignTo ? { jobId: crypto.randomUUID(), teamId: membership.teamId, from: memberId, to: reassignTo } : null;
  const at = Date.now();
  const person = (id: string) => ({ id, label: members.find((m) => m.userId === id)?.name ?? "A teammate" });
  const audit = { teamId: membership.teamId, actor: person(actor.id), subject: person(memberId), where, at };
  const removed = await leave(context, membership, memberId, checks, {
    handover: handover ? recordHandover(context.db, { ...handover, startedBy: actor.id }, at) : [],
    // One row for the removal and, with a handover, one for the handover: both land with the batch or neither.
    audit: [
      auditStatement(context, { ...audit, action: "team.member_removed", details: { role: target.role } }),
      ...(reassignTo
        ? [auditStatement(context, { ...audit, action: "team.handover", target: { type: "user", id: reassignTo, label: person(reassignTo).label } })]
        : []),
    ],
  });
  if (removed.ok && handover) await launchHandover(context.cloudflare.env, context.db, handover);
  const member = members.find((m) => m.userId === memberId);
  if (removed.ok && member) {
    const movedTo = reassignTo
      ? reassignTo === actor.id
        ? (members.find((m) => m.userId === actor.id)?.name ?? actor.email)
        : (members.find((m) => m.userId === reassignTo)?.name ?? "a teammate")
      : null;
    await emailRemoval(context, origin, { teamName: membership.teamName, member: { id: member.userId, email: member.email }, movedTo });
  }
  return removed;
}

/** A member (not the owner) leaves the team of their own accord. */
export async function leaveTeam(context: RequestContext, user: Pick<SessionUser, "id">, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, user.id);
  if (!membership) return { ok: false, message: TEAM_MESSAGES.notAMember };
  if (membership.role === "owner") return { ok: false, message: TEAM_MESSAGES.ownerCannotLeave };
  const me = { id: user.id, label: await nameOf(context, user.id) };
  const left = auditStatement(context, {
    action: "team.member_left",
    teamId: membership.teamId,
    actor: me,
    subject: me,
    details: { role: membership.role },
    where,
    at: Date.now(),
  });
  return leave(context, membership, user.id, [], { handover: [], audit: [left] });
}

/**
 * Ends a non-owner's membership: the seat first (Stripe), then one batch that re-checks `checks` and that they are still
 * a member, writes its audit rows, hands over their work if asked, ends their shares and any ownership offer to them, and detaches them from
 * the team's lead records (a lead they held stays their contact; the team may give it to someone else as a new one).
 */
async function leave(
  context: RequestContext,
  team: Membership,
  memberId: string,
  checks: SQL[],
  writes: { handover: ReturnType<typeof recordHandover> | []; audit: ReturnType<typeof auditStatement>[] },
): Promise<PlanChangeResult> {
  const members = await memberCount(context, team.teamId);
  const seats = await seatsForMembers(context, team, members - 1);
  if (!seats.ok) return seats;
  const db = context.db;
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, and(isMemberSql(team.teamId, memberId, INVITE_ROLES), ...checks)!),
      ...writes.handover,
      ...writes.audit,
      ...membershipEnds(db, team.teamId, memberId, writes.handover.length > 0),
    ]),
  );
  if (!done.ok) {
    // The membership changed meanwhile (removed twice, a role changed): give the seat back as it was.
    await seatsForMembers(context, team, await memberCount(context, team.teamId));
    return { ok: false, message: TEAM_MESSAGES.notAMember };
  }
  context.memo.delete(`team:${memberId}`);
  return { ok: true };
}

/** What ends with a membership, in the batch that ends it (a handover moves or detaches their team leads itself). */
function membershipEnds(db: Db, teamId: string, memberId: string, handingOver: boolean) {
  return [
    // Their shared deals end with their membership, as co-agent and as the deal's agent: a share is between
    // teammates (ADR 0037).
    db.delete(dealShares).where(or(eq(dealShares.agentId, memberId), eq(dealShares.ownerId, memberId))),
    // An ownership offer to them lapses.
    db
      .update(teams)
      .set({ pendingOwnerId: null, pendingOwnerAt: null })
      .where(and(eq(teams.id, teamId), eq(teams.pendingOwnerId, memberId))),
    // The team's record of a lead they held no longer points into their account; with a handover, the job gives it to
    // the teammate with the contact (or detaches it if the handover stops first).
    ...(handingOver
      ? []
      : [
          db
            .update(teamLeads)
            .set({ contactId: null, heldBy: null })
            .where(and(eq(teamLeads.teamId, teamId), eq(teamLeads.heldBy, memberId))),
        ]),
    db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, memberId), sql`${teamMembers.role} <> 'owner'`)),
  ] as const;
}

/** The shares `memberId` is in, as co-agent or as the deal's agent. */
const sharesOf = (memberId: string) => or(eq(dealShares.agentId, memberId), eq(dealShares.ownerId, memberId));

/**
 * The owner makes a member an admin, an agent or an ISA; the change and its audit row land together, or neither. An ISA
 * has no part in the team's deals (ADR 0080), so a member who shares a deal with a teammate becomes one only once those
 * shares are taken off: nothing of anyone's split changes behind the owner's back.
 */
export async function setRole(
  context: RequestContext,
  actor: SessionUser,
  memberId: string,
  role: InviteRole,
  where: AuditWhere,
): Promise<PlanChangeResult> {
  const membership = await getMembership(context, actor.id);
  if (membership?.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly };
  const members = await listMembers(context, membership.teamId);
  const member = members.find((m) => m.userId === memberId && m.role !== "owner");
  if (!member) return { ok: false, message: TEAM_MESSAGES.notAMember };
  if (member.role === role) return { ok: true };
  const db = context.db;
  if (role === "isa") {
    const shared = await db.select({ n: count() }).from(dealShares).where(sharesOf(memberId)).get();
    if ((shared?.n ?? 0) > 0) return { ok: false, message: TEAM_MESSAGES.isaSharesDeals(member.name, shared!.n) };
  }
  const done = await guardedBatch(() =>
    db.batch([
      // Still the owner, and the member still has the role the change is from (else it is a stale page); an ISA-to-be
      // still shares no deal.
      requireInBatch(
        db,
        and(
          isMemberSql(membership.teamId, actor.id, ["owner"]),
          isMemberSql(membership.teamId, memberId, [member.role]),
          role === "isa" ? sql`not exists (select 1 from ${dealShares} where ${sharesOf(memberId)})` : undefined,
        )!,
      ),
      db
        .update(teamMembers)
        .set({ role })
        .where(and(eq(teamMembers.teamId, membership.teamId), eq(teamMembers.userId, memberId))),
      auditStatement(context, {
        action: "team.role_changed",
        teamId: membership.teamId,
        actor: { id: actor.id, label: members.find((m) => m.userId === actor.id)?.name ?? actor.email },
        subject: { id: memberId, label: member.name },
        details: { from: member.role, to: role },
        where,
        at: Date.now(),
      }),
    ]),
  );
  if (!done.ok) return { ok: false, message: TEAM_MESSAGES.notAMember };
  context.memo.delete(`team:${memberId}`);
  context.memo.delete(`team-members:${membership.teamId}`);
  return { ok: true };
}

/** The owner renames the team. */
export async function renameTeam(context: RequestContext, actor: SessionUser, name: string, where: AuditWhere): Promise<PlanChangeResult> {
  const membership = await getMembership(context, actor.id);
  if (membership?.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly };
  if (membership.teamName === name) return { ok: true };
  const at = new Date();
  await context.db.batch([
    context.db
      .update(teams)
      .set({ name, updatedAt: at })
      .where(and(eq(teams.id, membership.teamId), eq(teams.ownerId, actor.id))),
    auditStatement(context, {
      action: "team.renamed",
      teamId: membership.teamId,
      actor: { id: actor.id, label: await nameOf(context, actor.id) },
      details: { from: membership.teamName, to: name },
      where,
      at,
    }),
  ]);
  context.memo.delete(`team:${actor.id}`);
  return { ok: true };
}

/**
 * The owner requires two-factor sign-in of every member, or stops requiring it (ADR 0074). Anyone else is refused (403);
 * the write re-checks in its own statement that the actor is still the team's owner.
 */
export async function setTwoFactorRequired(
  context: RequestContext,
  request: Request,
  actor: SessionUser,
  on: boolean,
): Promise<PlanChangeResult & { status?: 403 }> {
  const membership = await getMembership(context, actor.id);
  if (membership?.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerOnly, status: 403 };
  const updated = await context.db
    .update(teams)
    .set({ requireTwoFactor: on, updatedAt: new Date() })
    .where(and(eq(teams.id, membership.teamId), eq(teams.ownerId, actor.id), isMemberSql(membership.teamId, actor.id, ["owner"])))
    .returning({ id: teams.id });
  if (updated.length === 0) return { ok: false, message: TEAM_MESSAGES.ownerOnly, status: 403 };
  if (membership.requireTwoFactor !== on) {
    const words = (required: boolean) => (required ? "required" : "not required");
    await teamSettingsAudit(context, {
      teamId: membership.teamId,
      actor: await auditPerson(context.db, actor.id),
      changes: [{ setting: "two-factor sign-in", from: words(membership.requireTwoFactor), to: words(on) }],
      where: auditWhere(request),
      at: Date.now(),
    });
  }
  context.memo.delete(`team:${actor.id}`);
  return { ok: true };
}
