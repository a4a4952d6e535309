import { DAY_MS } from "~/lib/dates";
import type { ContactSource, ContactStatus } from "~/db/enums";
import type { LeadScoreFactor } from "~/db/schema";

// Lead score: a score 0–100 for each contact, with the factors shown. Pure: the server computes it
// (lead-score.server.ts) and the UI only shows what was stored. Every point comes from one of seven factors,
// each with a ceiling, and the ceilings add up to 100, so an agent can read any score as a sum:
//
//   status      30  hot 30 · warm 18 · cold 5
//   recency     20  last activity 0–3 days ago 20, then evenly by whole days from 19 (day 4) to 1 (day 59), 0 from day 60
//   engagement  15  activities in the last 90 days (stage changes excluded): 0→0, 1→4, 2→7, 3→10, 4→12, 5→14, 6+→15
//   budget      10  a range 10 · only a maximum 8 · only a minimum 5 · none 0 (a ceiling says they know what they can pay)
//   source      10  referral 10 · open house 8 · website 6 · social media 5 · cold call 3 · other 2
//   deals       10  at least one open deal (not won or lost) 10
//   reachable    5  e-mail and phone 5 · one of them 3 · neither 0
//
// Time enters only through recency and the 90-day window, so a score is recomputed when an input changes
// (triggers, migration 0010) and at least daily (the cron's aging sweep).

export interface LeadScoreInput {
  status: ContactStatus;
  budgetMin: number | null;
  budgetMax: number | null;
  /** ms since the epoch */
  lastActivity: number;
  /** ms since the epoch */
  createdAt: number;
  /** Activities (other than stage changes) in the last 90 days. */
  activityCount90d: number;
  source: ContactSource;
  /** Deals in a stage that is neither won nor lost. */
  openDeals: number;
  hasEmail: boolean;
  hasPhone: boolean;
}

export interface LeadScore {
  score: number;
  factors: LeadScoreFactor[];
}

export const ENGAGEMENT_WINDOW_DAYS = 90;

export const LEAD_SCORE_MAX = {
  status: 30,
  recency: 20,
  engagement: 15,
  budget: 10,
  source: 10,
  deals: 10,
  reachable: 5,
} as const satisfies Record<LeadScoreFactor["key"], number>;

const STATUS_POINTS: Record<ContactStatus, number> = { hot: 30, warm: 18, cold: 5 };
const STATUS_REASONS: Record<ContactStatus, string> = { hot: "Hot status", warm: "Warm status", cold: "Cold status" };

// A portal's lead asked about a listing of their own accord: as warm as a website enquiry.
const SOURCE_POINTS: Record<ContactSource, number> = {
  referral: 10,
  open_house: 8,
  website: 6,
  zillow: 6,
  realtor_com: 6,
  homes_com: 6,
  redfin: 6,
  trulia: 6,
  social_media: 5,
  cold_call: 3,
  other: 2,
};
const SOURCE_REASONS: Record<ContactSource, string> = {
  referral: "Came by referral",
  open_house: "Met at an open house",
  website: "Came through the website",
  social_media: "Came through social media",
  cold_call: "Came from a cold call",
  zillow: "Asked about a listing on Zillow",
  realtor_com: "Asked about a listing on Realtor.com",
  homes_com: "Asked about a listing on Homes.com",
  redfin: "Asked about a listing on Redfin",
  trulia: "Asked about a listing on Trulia",
  other: "Other source",
};

/** Points by number of activities in the window; the last entry holds for that many and more. */
const ENGAGEMENT_POINTS = [0, 4, 7, 10, 12, 14, 15] as const;

/** Full recency points up to this many days since the last activity; none from RECENCY_ZERO_DAYS on. */
const RECENCY_FULL_DAYS = 3;
const RECENCY_ZERO_DAYS = 60;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function statusFactor(status: ContactStatus): LeadScoreFactor {
  return { key: "status", points: STATUS_POINTS[status], max: LEAD_SCORE_MAX.status, reason: STATUS_REASONS[status] };
}

function budgetFactor(min: number | null, max: number | null): LeadScoreFactor {
  const [points, reason] =
    max != null && min != null
      ? [10, "Budget range given"]
      : max != null
        ? [8, "Maximum budget given"]
        : min != null
          ? [5, "Only a minimum budget given"]
          : [0, "No budget given"];
  return { key: "budget", points, max: LEAD_SCORE_MAX.budget, reason };
}

/** Whole days from `at` to `now`; an instant in the future counts as today. */
function daysSince(at: number, now: number): number {
  return Math.max(0, Math.floor((now - at) / DAY_MS));
}

/** Recency points for a last activity `days` whole days ago. */
export function recencyPoints(days: number): number {
  if (days <= RECENCY_FULL_DAYS) return LEAD_SCORE_MAX.recency;
  if (days >= RECENCY_ZERO_DAYS) return 0;
  // In between, evenly from 19 (day 4) down to 1 (day 59): about one point every three days.
  const last = RECENCY_ZERO_DAYS - 1;
  const first = RECENCY_FULL_DAYS + 1;
  return 1 + Math.round(((LEAD_SCORE_MAX.recency - 2) * (last - days)) / (last - first));
}

function recencyFactor(lastActivity: number, createdAt: number, activityCount: number, now: number): LeadScoreFactor {
  // A new contact carries its creation time as its last activity (the column's default), and an activity dated
  // before the contact was added says nothing newer than the adding: both count from the day it was added.
  const fromAdding = lastActivity - createdAt < 1_000;
  const days = daysSince(Math.max(lastActivity, createdAt), now);
  const when = days === 0 ? "today" : days === 1 ? "yesterday" : `${days} days ago`;
  const reason = fromAdding ? `Added ${when}${activityCount === 0 ? ", no activity yet" : ""}` : `Last activity ${when}`;
  return { key: "recency", points: recencyPoints(days), max: LEAD_SCORE_MAX.recency, reason };
}

function engagementFactor(count: number): LeadScoreFactor {
  const n = Math.max(0, Math.floor(count));
  const points = ENGAGEMENT_POINTS[Math.min(n, ENGAGEMENT_POINTS.length - 1)]!;
  const reason =
    n === 0
      ? `No activities in the last ${ENGAGEMENT_WINDOW_DAYS} days`
      : `${plural(n, "activity", "activities")} in the last ${ENGAGEMENT_WINDOW_DAYS} days`;
  return { key: "engagement", points, max: LEAD_SCORE_MAX.engagement, reason };
}

function sourceFactor(source: ContactSource): LeadScoreFactor {
  return {
    key: "source",
    points: SOURCE_POINTS[source] ?? SOURCE_POINTS.other,
    max: LEAD_SCORE_MAX.source,
    reason: SOURCE_REASONS[source] ?? SOURCE_REASONS.other,
  };
}

function dealsFactor(open: number): LeadScoreFactor {
  return open > 0
    ? { key: "deals", points: LEAD_SCORE_MAX.deals, max: LEAD_SCORE_MAX.deals, reason: `${plural(open, "open deal")}` }
    : { key: "deals", points: 0, max: LEAD_SCORE_MAX.deals, reason: "No open deals" };
}

function reachableFactor(email: boolean, phone: boolean): LeadScoreFactor {
  const [points, reason] =
    email && phone
      ? [5, "E-mail and phone on file"]
      : email
        ? [3, "E-mail on file, no phone"]
        : phone
          ? [3, "Phone on file, no e-mail"]
          : [0, "No e-mail or phone"];
  return { key: "reachable", points, max: LEAD_SCORE_MAX.reachable, reason };
}

/** The score (0–100) and its factors, largest ceiling first (the order the profile lists them in). */
export function scoreLead(input: LeadScoreInput, now: number): LeadScore {
  const factors = [
    statusFactor(input.status),
    recencyFactor(input.lastActivity, input.createdAt, input.activityCount90d, now),
    engagementFactor(input.activityCount90d),
    budgetFactor(input.budgetMin, input.budgetMax),
    sourceFactor(input.source),
    dealsFactor(input.openDeals),
    reachableFactor(input.hasEmail, input.hasPhone),
  ];
  const total = factors.reduce((sum, f) => sum + f.points, 0);
  return { score: Math.min(100, Math.max(0, Math.round(total))), factors };
}

/**
 * The score columns for a contact being inserted now: no activities and no deals yet, added and last active
 * now. Create and import write these with the row, so a new contact never waits for a refresh.
 */
export function newContactScore(
  contact: {
    status?: ContactStatus | null;
    budgetMin?: number | null;
    budgetMax?: number | null;
    source?: ContactSource | null;
    email?: string | null;
    phone?: string | null;
  },
  now: number,
): { leadScore: number; leadScoreFactors: LeadScoreFactor[]; leadScoredAt: Date } {
  const { score, factors } = scoreLead(
    {
      status: contact.status ?? "cold",
      budgetMin: contact.budgetMin ?? null,
      budgetMax: contact.budgetMax ?? null,
      lastActivity: now,
      createdAt: now,
      activityCount90d: 0,
      source: contact.source ?? "other",
      openDeals: 0,
      hasEmail: Boolean(contact.email),
      hasPhone: Boolean(contact.phone),
    },
    now,
  );
  return { leadScore: score, leadScoreFactors: factors, leadScoredAt: new Date(now) };
}

/** The band a score falls in: the list's badge colour and its words. */
export type LeadScoreBand = "high" | "medium" | "low";
export function leadScoreBand(score: number): LeadScoreBand {
  return score >= 70 ? "high" : score >= 40 ? "medium" : "low";
}
export const LEAD_SCORE_BAND_LABELS: Record<LeadScoreBand, string> = { high: "High", medium: "Medium", low: "Low" };
