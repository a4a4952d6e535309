import type { InviteRole } from "~/db/enums";
// What the team screens and the invitation page say. Shared by the server and the UI.
export const TEAM_MESSAGES = {
  alreadyTeam: "You are already on the Team plan.",
  memberOfAnother: "You are a member of a team. Leave it before starting a team of your own.",
  notLive: "Switching plans needs a subscription in good standing. Open Billing to subscribe or fix the payment.",
  enterprise: "Enterprise plans are changed with our sales team: write to hello@porchlight.app.",
  ownerOnly: "Only the team's owner can do that.",
  managersOnly: "Only the team's owner and admins can do that.",
  notAMember: "That person is not a member of your team.",
  isaSharesDeals: (name: string, n: number) =>
    `${name} shares ${n === 1 ? "a deal" : `${n} deals`} with teammates. An ISA has no part in the team's deals: take ${name} off ${n === 1 ? "that deal" : "those deals"} (and their co-agents off theirs) first, on each deal's page.`,
  cannotRemoveOwner: "The owner cannot be removed from the team.",
  ownerRemovesAdmins: "Only the owner can remove an admin.",
  ownerCannotLeave: "The owner cannot leave the team. Switch to the Solo plan once you are the only member.",
  downgradeWithMembers: (others: number) =>
    `Your team still has ${others === 1 ? "1 other member" : `${others} other members`}. Remove ${others === 1 ? "them" : "them all"} before switching to the Solo plan.`,
  ownerInvitesAdmins: "Only the owner can invite an admin.",
  noSuchInvitation: "That invitation is no longer pending.",
  invitesOff: "Invitations are not available on this server.",
  alreadyInTeam: "That person is already a member of your team.",
  inviteLimit: "Too many invitations sent in the last hour. Please try again later.",
  handOverTo: "Choose another member of your team to take over their work.",
  handOverRunning: "A handover of this member's work is already under way: wait for it to finish (the Team page shows how far it has got).",
  reassignToMember: "Choose a member of your team, other than the one you remove, to take over their data.",
  ownerReassigns: "Only the owner can move a removed member's data to someone else. Remove them keeping their data, or ask the owner.",
  offerToMember: "Choose a member of your team to offer ownership to.",
  noOffer: "There is no ownership offer for you to answer. The owner may have withdrawn it.",
  ownerNeedsSubscription:
    "The team's owner pays for its seats, and you have no subscription of your own yet. Start one (the button below), then come back and accept.",
  ownerClosesWithMembers: (others: number) =>
    `You own a team with ${others === 1 ? "1 other member" : `${others} other members`}, who work on your subscription. Transfer ownership to one of them (Team → Transfer ownership) or remove them, then delete your account. Your account was not deleted.`,
  ownerNeedsTeamablePlan: "Your own subscription is an Enterprise plan, which our sales team changes: write to hello@porchlight.app.",
} as const;

export const OWNERSHIP_COPY = {
  offered: (owner: string, team: string) => `${owner} offers you ownership of ${team}.`,
  terms: (seats: number) =>
    `As the owner you pay for the team: its ${seats} seats move to your own subscription on the Team plan, at the Team price from your next billing period. The current owner stays on as an admin, and their own subscription ends with the period they have paid.`,
} as const;

export const INVITE_LINK_MESSAGES = {
  invalid: "This invitation link is not valid. Ask the person who invited you to send a new one.",
  expired: "This invitation has expired. Ask the person who invited you to send a new one.",
  used: "This invitation has already been accepted.",
  revoked: "This invitation was withdrawn. Ask the person who invited you if you should have a new one.",
  unverified: "Confirm your e-mail address first (open the link we e-mailed you), then open this invitation again.",
  wrongEmail: (email: string) => `This invitation is for ${email}. Sign in with that address to accept it.`,
  inAnotherTeam: "You are already a member of a team. Leave it before joining another.",
  ownsTeam: "You own a team. A team's owner cannot join another team.",
  moving: "Your account is already moving to a team's database. Wait for that move to finish.",
} as const;

export const ROLE_NAMES = { owner: "Owner", admin: "Admin", agent: "Agent", isa: "Inside sales (ISA)" } as const;
/** The roles a member can be given, as a select's options. */
export const ROLE_OPTIONS: [InviteRole, string][] = [
  ["agent", ROLE_NAMES.agent],
  ["isa", ROLE_NAMES.isa],
  ["admin", ROLE_NAMES.admin],
];
/** What each role does, in one paragraph under the role choice. */
export const ROLE_HELP =
  "Agents work their own book and the team's leads. An ISA (inside sales) works the team's new leads and the pond and hands them to agents, with no part in the team's deals or commissions. Admins also manage members and the team's leads.";
/** A role in a sentence ("as an admin"). */
export const ROLE_ARTICLES = { owner: "the owner", admin: "an admin", agent: "an agent", isa: "an inside sales agent (ISA)" } as const;
