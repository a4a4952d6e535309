import { and, eq, ne } from "drizzle-orm";
import type { ContactSource } from "~/db/enums";
import { teamMembers, users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { actionEmail, sendEmail } from "~/lib/mailer.server";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";

// E-mails of the team's own events: leads waiting for the members who may claim them, an offer of ownership, a
// removal. Each is recorded in the outbox (and sent when a provider is set), linked by the app's full address.

export interface WaitingLead {
  name: string;
  source: ContactSource;
  addedBy: string | null;
}

export interface WaitingNotice {
  teamId: string;
  teamName: string;
  /** Minutes each lead is offered for (first to claim), or null: it waits in the pond. */
  claimMinutes: number | null;
}

/**
 * New leads waiting for an agent, e-mailed to every member available for leads (not to whoever added them): one
 * e-mail for a lead or a whole import. Agents see a waiting lead's name and source, not how to reach them: the
 * e-mail says the same. Sent after the response (`waitUntil`); a failure is logged, never the request's.
 */
export function emailWaitingLeadsLater(context: RequestContext, origin: string, notice: WaitingNotice, leads: readonly WaitingLead[]): void {
  if (leads.length === 0) return;
  context.cloudflare.ctx.waitUntil(
    emailWaitingLeads(context, origin, notice, leads).catch((error: unknown) =>
      console.error(JSON.stringify({ event: "waiting_lead_email_failed", message: String(error) })),
    ),
  );
}

async function emailWaitingLeads(
  context: Pick<RequestContext, "db" | "config">,
  origin: string,
  notice: WaitingNotice,
  leads: readonly WaitingLead[],
): Promise<number> {
  const addedBy = leads.every((l) => l.addedBy === leads[0]!.addedBy) ? leads[0]!.addedBy : null;
  const members = await context.db
    .select({ id: users.id, email: users.email })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, notice.teamId), eq(teamMembers.available, true), addedBy ? ne(teamMembers.userId, addedBy) : undefined));
  const [first] = leads;
  const names = leads.length === 1 ? `${first!.name} (${SOURCE_LABELS[first!.source]})` : `${leads.length} new leads`;
  const subject =
    notice.claimMinutes !== null
      ? leads.length === 1
        ? `New lead to claim: ${first!.name}`
        : `${leads.length} new leads to claim at ${notice.teamName}`
      : leads.length === 1
        ? `New lead in ${notice.teamName}'s pond: ${first!.name}`
        : `${leads.length} new leads in ${notice.teamName}'s pond`;
  const listed =
    leads.length > 1
      ? ` ${leads
          .slice(0, 5)
          .map((l) => `${l.name} (${SOURCE_LABELS[l.source]})`)
          .join(", ")}${leads.length > 5 ? ` and ${leads.length - 5} more` : ""}.`
      : "";
  const intro =
    notice.claimMinutes !== null
      ? `${names} ${leads.length === 1 ? "is" : "are"} offered to every available agent at ${notice.teamName} for ${notice.claimMinutes} minutes. The first to claim ${leads.length === 1 ? "it" : "one"} gets it; after that, round robin decides.${listed}`
      : `${names} ${leads.length === 1 ? "is" : "are"} waiting in ${notice.teamName}'s pond. Claim ${leads.length === 1 ? "it" : "one"}, or the owner or an admin will assign ${leads.length === 1 ? "it" : "them"}.${listed}`;
  const body = actionEmail({
    heading: subject,
    intro,
    action: "Open Team leads",
    url: `${origin}/team/leads`,
    outro: "You get these because you are available for new leads. Pause on Team leads to stop them while you are away.",
  });
  for (const member of members) await sendEmail(context, { kind: "team_lead_waiting", to: member.email, userId: member.id, subject, ...body });
  return members.length;
}

/** The member the owner offers the team to hears of it, with what accepting means. */
export async function emailOwnershipOffer(
  context: RequestContext,
  origin: string,
  offer: { teamName: string; ownerName: string; to: { id: string; email: string }; terms: string },
) {
  const body = actionEmail({
    heading: `${offer.ownerName} offers you ownership of ${offer.teamName}`,
    intro: offer.terms,
    action: "Answer on the Team page",
    url: `${origin}/team`,
    outro: "Nothing changes until you accept. You can also decline, and the owner can withdraw the offer.",
  });
  await sendEmail(context, {
    kind: "team_ownership_offer",
    to: offer.to.email,
    userId: offer.to.id,
    subject: `${offer.ownerName} offers you ownership of ${offer.teamName}`,
    ...body,
  });
}

/** A removed member hears of it: where their work is, and how to go on using Porchlight. */
export async function emailRemoval(
  context: RequestContext,
  origin: string,
  removal: { teamName: string; member: { id: string; email: string }; movedTo: string | null },
) {
  const intro =
    removal.movedTo === null
      ? `You are no longer a member of ${removal.teamName}. Your account and everything in it are yours, as they were.`
      : `You are no longer a member of ${removal.teamName}. The team's owner gave your contacts, deals, tasks, activities and leads to ${removal.movedTo}. Your settings, trash and backups stay in your account.`;
  const body = actionEmail({
    heading: `You were removed from ${removal.teamName}`,
    intro,
    action: "Choose a plan of your own",
    url: `${origin}/pricing`,
    outro: "Your seat on the team's subscription has ended. To keep using Porchlight, start a plan of your own: your account is there when you do.",
  });
  await sendEmail(context, {
    kind: "team_removal",
    to: removal.member.email,
    userId: removal.member.id,
    subject: `You were removed from ${removal.teamName}`,
    ...body,
  });
}
