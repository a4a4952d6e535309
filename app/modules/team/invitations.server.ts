import type { InviteRole } from "~/db/enums";
import { ROLE_ARTICLES } from "./team.messages";
import { DAY_MS } from "~/lib/dates";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { teamInvitations, teamMembers, teams, users } from "~/db/schema";
import { createDb } from "~/db/client.server";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { actionEmail, sendEmail } from "~/lib/mailer.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { readLink, signLink } from "~/modules/auth/tokens.server";
import { linkIdOn, requestShard, shardDatabases, shardOfLinkId } from "~/lib/shards.server";
import { startAccountMove } from "~/modules/shards/account-move.server";
import { userName } from "./names.server";
import { canManage, getMembership, memberCount, seatsForMembers, type Membership } from "./team.server";
import { INVITE_LINK_MESSAGES, TEAM_MESSAGES } from "./team.messages";
import { INVITE_DAYS } from "./team.schema";
import { auditStatement, auditWhere, type AuditWhere } from "~/modules/audit/audit.server";

// Invitations by e-mail (ADR 0033): a signed link that expires in INVITE_DAYS, works once, and only for an
// account with the invited address. A resend gives the invitation a new secret (the older link stops working); a
// revoke ends it. Sent through the outbox like every e-mail. The TEAM_INVITES flag turns them on.
// The invitation's row id names the team's database (ADR 0060), so the link is read there whichever database the
// invitee's account is in; an invitee whose account is in another database joins by moving it (account-move.server.ts).

const PURPOSE = "team_invite";

export type InviteResult = { ok: true } | { ok: false; message: string };

const nameOf = (context: Pick<RequestContext, "db">, userId: string) => userName(context.db, userId, "A teammate");

async function mailInvitation(
  context: RequestContext,
  request: Request,
  actor: SessionUser,
  team: Membership,
  email: string,
  role: InviteRole,
  token: string,
) {
  const inviter = await nameOf(context, actor.id);
  const url = `${appOrigin(context, request)}/team/join?token=${encodeURIComponent(token)}`;
  const body = actionEmail({
    heading: `Join ${team.teamName} on Porchlight`,
    intro: `${inviter} invited you to join ${team.teamName} on Porchlight as ${ROLE_ARTICLES[role]}. Porchlight is the CRM for real estate agents: contacts, pipeline, commissions and AI help.`,
    action: "Accept the invitation",
    url,
    outro: `The link works once and expires in ${INVITE_DAYS} days. Sign in (or create an account) with ${email} to accept. If you were not expecting it, ignore this e-mail.`,
  });
  await sendEmail(context, { kind: "team_invite", to: email, subject: `${inviter} invited you to ${team.teamName} on Porchlight`, ...body });
}

/** Who may invite, and whom: owners invite admins and agents, admins invite agents. */
async function inviter(
  context: RequestContext,
  actor: SessionUser,
  role?: InviteRole,
): Promise<{ ok: true; team: Membership } | { ok: false; message: string }> {
  if (!context.config.FEATURE_FLAGS.TEAM_INVITES) return { ok: false, message: TEAM_MESSAGES.invitesOff };
  const team = await getMembership(context, actor.id);
  if (!canManage(team)) return { ok: false, message: TEAM_MESSAGES.managersOnly };
  if (role === "admin" && team.role !== "owner") return { ok: false, message: TEAM_MESSAGES.ownerInvitesAdmins };
  return { ok: true, team };
}

const pending = (teamId: string) => and(eq(teamInvitations.teamId, teamId), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt));

/** Sends an invitation (or a fresh link for the same address's pending one, with the role asked for now). */
export async function inviteMember(
  context: RequestContext,
  request: Request,
  actor: SessionUser,
  input: { email: string; role: InviteRole },
): Promise<InviteResult> {
  const allowed = await inviter(context, actor, input.role);
  if (!allowed.ok) return allowed;
  const { team } = allowed;
  const email = input.email.trim().toLowerCase();
  const member = await context.db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, team.teamId), eq(sql`lower(${users.email})`, email)))
    .get();
  if (member) return { ok: false, message: TEAM_MESSAGES.alreadyInTeam };
  const limit = await hitRateLimit(context.cloudflare.env.KV, "team-invite", team.teamId, RATE_LIMITS.teamInvite);
  if (!limit.allowed) return { ok: false, message: TEAM_MESSAGES.inviteLimit };
  const expiresAt = Date.now() + INVITE_DAYS * DAY_MS;
  const existing = await context.db
    .select({ id: teamInvitations.id })
    .from(teamInvitations)
    .where(and(pending(team.teamId), eq(teamInvitations.email, email)))
    .get();
  const id = existing?.id ?? linkIdOn(requestShard(context.cloudflare.env), newId());
  const { secretHash, token } = await signLink(context, PURPOSE, id, expiresAt);
  const db = context.db;
  // The invitation and its audit row land together (a fresh link for a pending invitation is sent again, and says so).
  const audit = auditStatement(context, {
    action: "team.invitation_sent",
    teamId: team.teamId,
    actor: { id: actor.id, label: await nameOf(context, actor.id) },
    target: { type: "invitation", id, label: email },
    details: { role: input.role, ...(existing ? { again: true } : {}) },
    where: auditWhere(request),
    at: Date.now(),
  });
  await db.batch([
    existing
      ? db
          .update(teamInvitations)
          .set({ secretHash, role: input.role, expiresAt: new Date(expiresAt), invitedBy: actor.id, updatedAt: new Date() })
          .where(eq(teamInvitations.id, id))
      : db
          .insert(teamInvitations)
          .values({ id, teamId: team.teamId, email, role: input.role, secretHash, invitedBy: actor.id, expiresAt: new Date(expiresAt) }),
    audit,
  ]);
  await mailInvitation(context, request, actor, team, email, input.role, token);
  return { ok: true };
}

/** A new link for a pending invitation of the actor's team; the older link stops working. */
export async function resendInvitation(context: RequestContext, request: Request, actor: SessionUser, invitationId: string): Promise<InviteResult> {
  const allowed = await inviter(context, actor);
  if (!allowed.ok) return allowed;
  const row = await context.db
    .select()
    .from(teamInvitations)
    .where(and(pending(allowed.team.teamId), eq(teamInvitations.id, invitationId)))
    .get();
  if (!row) return { ok: false, message: TEAM_MESSAGES.noSuchInvitation };
  return inviteMember(context, request, actor, { email: row.email, role: row.role });
}

/** Withdraws a pending invitation of the actor's team: its link stops working. */
export async function revokeInvitation(context: RequestContext, actor: SessionUser, invitationId: string, where: AuditWhere): Promise<InviteResult> {
  const allowed = await inviter(context, actor);
  if (!allowed.ok) return allowed;
  const db = context.db;
  const which = and(pending(allowed.team.teamId), eq(teamInvitations.id, invitationId));
  const row = await db.select({ email: teamInvitations.email, role: teamInvitations.role }).from(teamInvitations).where(which).get();
  if (!row) return { ok: false, message: TEAM_MESSAGES.noSuchInvitation };
  const actorLabel = await nameOf(context, actor.id);
  const done = await guardedBatch(() =>
    db.batch([
      // Still pending (not accepted or withdrawn meanwhile): else neither the withdrawal nor its audit row lands.
      requireInBatch(db, sql`exists (select 1 from ${teamInvitations} where ${which})`),
      db.update(teamInvitations).set({ revokedAt: new Date(), updatedAt: new Date() }).where(which),
      auditStatement(context, {
        action: "team.invitation_revoked",
        teamId: allowed.team.teamId,
        actor: { id: actor.id, label: actorLabel },
        target: { type: "invitation", id: invitationId, label: row.email },
        details: { role: row.role },
        where,
        at: Date.now(),
      }),
    ]),
  );
  return done.ok ? { ok: true } : { ok: false, message: TEAM_MESSAGES.noSuchInvitation };
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: InviteRole;
  expiresAt: number;
  expired: boolean;
}

/** The team's invitations not yet accepted or withdrawn, newest first (expired ones say so, and can be resent). */
export async function listInvitations(context: RequestContext, teamId: string): Promise<PendingInvitation[]> {
  const now = Date.now();
  const rows = await context.db.select().from(teamInvitations).where(pending(teamId)).orderBy(desc(teamInvitations.createdAt)).limit(200);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt.getTime(),
    expired: row.expiresAt.getTime() <= now,
  }));
}

export interface InvitationView {
  id: string;
  /** The team's database. */
  shard: number;
  teamId: string;
  teamName: string;
  ownerId: string;
  inviter: string;
  email: string;
  role: InviteRole;
  secretHash: string;
}

export type InvitationCheck = { ok: true; invitation: InvitationView } | { ok: false; message: string };

/**
 * The team's database as a request context: the request's own when the team is in the request's database, else a
 * plain handle on the team's (an invitee of another database reads the invitation there; null when none is bound).
 */
function teamContext(context: RequestContext, shard: number): RequestContext | null {
  const { env } = context.cloudflare;
  if (shard === requestShard(env)) return context;
  const d1 = shardDatabases(env)[shard];
  return d1 ? { ...context, db: createDb(d1), memo: new Map() } : null;
}

/** Reads an invitation link without using it: the team, who sent it, the role; or why it does not work. */
export async function peekInvitation(context: RequestContext, token: string): Promise<InvitationCheck> {
  const link = await readLink(context, token, PURPOSE);
  if (!link.ok) return { ok: false, message: INVITE_LINK_MESSAGES[link.reason] };
  const shard = shardOfLinkId(link.id);
  const team = teamContext(context, shard);
  if (!team) return { ok: false, message: INVITE_LINK_MESSAGES.invalid };
  const row = await team.db
    .select({ invitation: teamInvitations, teamName: teams.name, ownerId: teams.ownerId })
    .from(teamInvitations)
    .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
    .where(and(eq(teamInvitations.id, link.id), eq(teamInvitations.secretHash, link.secretHash)))
    .get();
  if (!row) return { ok: false, message: INVITE_LINK_MESSAGES.invalid };
  const { invitation } = row;
  if (invitation.acceptedAt) return { ok: false, message: INVITE_LINK_MESSAGES.used };
  if (invitation.revokedAt) return { ok: false, message: INVITE_LINK_MESSAGES.revoked };
  if (invitation.expiresAt.getTime() <= Date.now()) return { ok: false, message: INVITE_LINK_MESSAGES.expired };
  return {
    ok: true,
    invitation: {
      id: invitation.id,
      shard,
      teamId: invitation.teamId,
      teamName: row.teamName,
      ownerId: row.ownerId,
      inviter: invitation.invitedBy ? await nameOf(team, invitation.invitedBy) : row.teamName,
      email: invitation.email,
      role: invitation.role,
      secretHash: invitation.secretHash,
    },
  };
}

/** Why this signed-in user cannot accept the invitation, or null. */
export async function acceptRefusal(context: RequestContext, user: SessionUser, invitation: InvitationView): Promise<string | null> {
  if (user.email.trim().toLowerCase() !== invitation.email) return INVITE_LINK_MESSAGES.wrongEmail(invitation.email);
  if (!user.emailVerified) return INVITE_LINK_MESSAGES.unverified;
  const membership = await getMembership(context, user.id);
  if (membership?.role === "owner") return INVITE_LINK_MESSAGES.ownsTeam;
  if (membership) return INVITE_LINK_MESSAGES.inAnotherTeam;
  return null;
}

/**
 * Accepts an invitation for the signed-in user: the seat is added in Stripe first, then the link is used up (at most
 * once, even for two clicks at the same moment) and the user joins with the invited role.
 */
export async function acceptInvitation(
  context: RequestContext,
  user: SessionUser,
  token: string,
  where: AuditWhere,
): Promise<InviteResult & { teamName?: string; moving?: boolean }> {
  const check = await peekInvitation(context, token);
  if (!check.ok) return check;
  const { invitation } = check;
  const refusal = await acceptRefusal(context, user, invitation);
  if (refusal) return { ok: false, message: refusal };
  const team = { ownerId: invitation.ownerId as Membership["ownerId"] };
  const teamDb = teamContext(context, invitation.shard)!;
  const seats = await seatsForMembers(teamDb, team, (await memberCount(teamDb, invitation.teamId)) + 1);
  if (!seats.ok) return seats;
  const { env } = context.cloudflare;
  if (invitation.shard !== requestShard(env)) {
    // The invitee's account is in another database: it moves to the team's, as a durable job; the membership is added
    // when the rows are there (ADR 0060).
    const move = { userId: user.id, email: user.email, from: requestShard(env), to: invitation.shard, invitation };
    const started = await startAccountMove(env, move);
    if (started.ok) return { ok: true, teamName: invitation.teamName, moving: true };
    await seatsForMembers(teamDb, team, await memberCount(teamDb, invitation.teamId));
    return { ok: false, message: started.reason === "used" ? INVITE_LINK_MESSAGES.used : INVITE_LINK_MESSAGES.moving };
  }
  const now = new Date();
  const used = await context.db
    .update(teamInvitations)
    .set({ acceptedAt: now, acceptedBy: user.id, updatedAt: now })
    .where(
      and(
        eq(teamInvitations.id, invitation.id),
        eq(teamInvitations.secretHash, invitation.secretHash),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
        gt(teamInvitations.expiresAt, now),
      ),
    )
    .returning({ id: teamInvitations.id });
  if (used.length === 0) return { ok: false, message: INVITE_LINK_MESSAGES.used };
  const me = { id: user.id, label: await nameOf(context, user.id) };
  await context.db.batch([
    context.db.insert(teamMembers).values({ teamId: invitation.teamId, userId: user.id, role: invitation.role, joinedAt: now }).onConflictDoNothing(),
    auditStatement(context, {
      action: "team.member_joined",
      teamId: invitation.teamId,
      actor: me,
      subject: me,
      details: { role: invitation.role },
      where,
      at: now,
    }),
  ]);
  context.memo.delete(`team:${user.id}`);
  // Two acceptances at the same moment each asked for one more seat than before: settle on the members there are.
  await seatsForMembers(context, team, await memberCount(context, invitation.teamId));
  return { ok: true, teamName: invitation.teamName };
}
