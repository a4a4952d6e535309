import type { SubscriptionStatus } from "~/db/enums";

export const TRIAL_DAYS = 14;

// Spec section 9: Solo Agent, $40 a month, or $32 a month billed yearly ($384, 20% off, $96 saved).
export const SOLO_PRICES = {
  monthly: { amountCents: 4000, perMonth: 40, billed: "$40 billed monthly", interval: "month" as const },
  yearly: { amountCents: 38400, perMonth: 32, billed: "$384 billed yearly", interval: "year" as const },
};
export type BillingPeriod = keyof typeof SOLO_PRICES;

// decisions.md, Team: $35 per member a month, or $336 per member a year (20% off), at least two members.
export const TEAM_PRICES = {
  monthly: { amountCents: 3500, perMonth: 35, billed: "$35 per member, billed monthly", interval: "month" as const },
  yearly: { amountCents: 33600, perMonth: 28, billed: "$336 per member, billed yearly", interval: "year" as const },
};
export const TEAM_MIN_SEATS = 2;

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: cents % 100 ? 2 : 0 })}`;

/** What switching a Solo subscription to the Team plan costs, in words, for the confirmation before it happens. */
export function teamSwitchTerms(period: BillingPeriod, from: string | null): string {
  const solo = SOLO_PRICES[period];
  const team = TEAM_PRICES[period];
  const per = period === "yearly" ? "year" : "month";
  const starting = from ? `From your next billing period (${from})` : "From your next billing period";
  return `${starting} the Team plan costs ${dollars(team.amountCents)} a seat per ${per}, at least ${TEAM_MIN_SEATS} seats: ${dollars(team.amountCents * TEAM_MIN_SEATS)} a ${per} instead of ${dollars(solo.amountCents)} a ${per} on the Solo plan. Each member you add takes a seat, prorated. Everything in your account stays as it is.`;
}

/** The plan in words, as the billing tab and e-mails name it. */
export function planName(plan: string | null | undefined): string {
  if (plan === "team") return "Team";
  if (plan === "enterprise") return "Enterprise";
  return "Solo Agent";
}

/** Seats a team pays for: one per member, never fewer than the plan's minimum. */
export function seatsFor(members: number): number {
  return Math.max(TEAM_MIN_SEATS, members);
}

/**
 * The date the agent is next charged. While trialing it is the trial's end: the first charge happens
 * then (Stripe also sets current_period_end to trial_end during a trial, but an older stored row or the
 * test checkout may hold a later period end, so the trial end wins).
 */
export function nextBillingDate(sub: { status: string | null; trialEndsAt: Date | null; currentPeriodEnd: Date | null }): Date | null {
  if (sub.status === "trialing") return sub.trialEndsAt ?? sub.currentPeriodEnd;
  if (sub.status === "active") return sub.currentPeriodEnd;
  return null;
}

/**
 * The key one trial per customer is counted by: lower-case, trimmed, without a +tag, and for Gmail without
 * dots (Gmail ignores both, so they are the same inbox).
 */
export function trialEmailKey(email: string): string {
  const [local = "", domain = ""] = email.trim().toLowerCase().split("@");
  let name = local.split("+")[0]!;
  const gmail = domain === "gmail.com" || domain === "googlemail.com";
  if (gmail) name = name.replace(/\./g, "");
  return `${name}@${gmail ? "gmail.com" : domain}`;
}

/** Stripe's subscription statuses, in Porchlight's terms (spec section 3). */
export function statusFromStripe(status: string): SubscriptionStatus {
  switch (status) {
    case "trialing":
      return "trialing";
    case "active":
      return "active";
    // A paused subscription is a trial that ended without a payment method: payment is what it needs.
    case "paused":
    case "past_due":
    case "unpaid":
      return "past_due";
    case "canceled":
      return "canceled";
    case "incomplete":
      return "pending_checkout";
    default:
      return "inactive";
  }
}
