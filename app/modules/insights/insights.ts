import { differenceInCalendarDays, parseISO } from "date-fns";
import { formatDay, formatMoneyCompact, type DisplayPreferences } from "~/lib/format";

// Smart insights (spec sections 3 and 9): rules over the agent's own contacts and deals, judged on
// their calendar day. Pure: modules/insights/insights.server.ts loads the inputs, the per-user Durable Object
// caches the result. No default figures stand in for missing data: an insight without a budget or a value
// says so instead of showing the spec's placeholder amounts.

export type InsightType = "urgent" | "opportunity" | "market" | "follow_up";
export type InsightPriority = "high" | "medium" | "low";

export interface Insight {
  /** Stable for the same fact (rule and record), so the page can key on it. */
  id: string;
  type: InsightType;
  priority: InsightPriority;
  title: string;
  description: string;
  /** The next step, as a button label. */
  action: string;
  /** Where the action goes. */
  href: string;
  /** What is at stake, in money or time; null when the data gives no honest figure. */
  impact: string | null;
  contactId?: string;
  dealId?: string;
}

/** Hot contacts quiet for more than this many days need a follow-up (spec section 9). */
export const HOT_QUIET_DAYS = 7;
/** Commission estimate on a hot lead: this percent of their maximum budget (spec section 9). */
const HOT_COMMISSION_PCT = 3;
/** Under-contract deals closing within this many days (spec section 9). */
const CLOSING_SOON_DAYS = 15;
/** An open deal in the same stage for longer than this is stalling. */
const STALE_STAGE_DAYS = 30;
/** An open deal with no activity for this long (and at least this old) is going quiet. */
const QUIET_DEAL_DAYS = 14;
/** A key date (inspection, appraisal, financing) this close or passed on a deal not yet closed. */
const KEY_DATE_DAYS = 3;
/** The page shows this many (spec: at most 5). */
export const INSIGHTS_SHOWN = 5;
/** The cache keeps a few more than it shows (the dashboard shows fewer). */
export const INSIGHTS_KEPT = 12;

interface HotContactInput {
  id: string;
  name: string;
  /** Whole currency units, null when not given. */
  budgetMax: number | null;
  /** The agent's calendar day of the latest activity (or of creation when none). */
  lastActivityDay: string;
}

export interface OpenDealInput {
  id: string;
  title: string;
  stage: string;
  stageName: string;
  valueCents: number;
  /** Percent. */
  commissionRate: number;
  /** Percent. */
  probability: number;
  expectedCloseDate: string | null;
  keyDates: { label: string; day: string }[];
  /** The agent's calendar day the deal entered its stage. */
  stageChangedDay: string;
  createdDay: string;
  /** The agent's calendar day of the deal's latest activity, null when none. */
  lastActivityDay: string | null;
  contactName: string | null;
}

/** A deal's key dates that are set, named as the risk texts name them. */
export function keyDatesOf(deal: {
  inspectionDate: string | null;
  appraisalDate: string | null;
  financingDate: string | null;
}): { label: string; day: string }[] {
  return [
    { label: "Inspection", day: deal.inspectionDate },
    { label: "Appraisal", day: deal.appraisalDate },
    { label: "Financing deadline", day: deal.financingDate },
  ].filter((key): key is { label: string; day: string } => key.day !== null);
}

interface LocationInput {
  location: string;
  hotOrWarm: number;
}

export interface InsightInputs {
  /** The agent's calendar day, YYYY-MM-DD. */
  today: string;
  prefs: Pick<DisplayPreferences, "currency" | "dateFormat">;
  /** Hot contacts whose last activity day is before today − HOT_QUIET_DAYS, most overdue first (a few). */
  hotQuiet: HotContactInput[];
  /** How many hot contacts are quiet in all. */
  hotQuietCount: number;
  /** Every deal in an open stage (not won or lost). */
  openDeals: OpenDealInput[];
  /** The locations most hot and warm contacts look in, largest first. */
  locations: LocationInput[];
}

const PRIORITY_ORDER: Record<InsightPriority, number> = { high: 0, medium: 1, low: 2 };

/** Insights sorted high, medium, low (spec section 4); ties keep the rules' own order (most pressing first). */
export function sortInsights(insights: Insight[]): Insight[] {
  return insights
    .map((insight, index) => ({ insight, index }))
    .sort((a, b) => PRIORITY_ORDER[a.insight.priority] - PRIORITY_ORDER[b.insight.priority] || a.index - b.index)
    .map(({ insight }) => insight);
}

const days = (from: string, to: string) => differenceInCalendarDays(parseISO(to), parseISO(from));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function closingSoon(input: InsightInputs): Insight[] {
  return input.openDeals
    .filter((deal) => deal.stage === "under_contract" && deal.expectedCloseDate !== null)
    .map((deal) => ({ deal, left: days(input.today, deal.expectedCloseDate!) }))
    .filter(({ left }) => left >= 0 && left <= CLOSING_SOON_DAYS)
    .sort((a, b) => a.left - b.left)
    .map(({ deal, left }) => {
      const gross = (deal.valueCents / 100) * (deal.commissionRate / 100);
      const when = left === 0 ? "today" : left === 1 ? "tomorrow" : `in ${left} days`;
      return {
        id: `closing:${deal.id}`,
        type: "urgent" as const,
        priority: "high" as const,
        title: `${deal.title} closes ${when}`,
        description: `Under contract${deal.contactName ? ` with ${deal.contactName}` : ""}, expected to close on ${formatDay(deal.expectedCloseDate!, input.prefs)}. Confirm the closing checklist: final walk-through, funds and documents.`,
        action: "Open deal",
        href: `/deals/${deal.id}`,
        impact: gross > 0 ? `${formatMoneyCompact(gross, input.prefs)} gross commission at ${deal.commissionRate}%` : null,
        dealId: deal.id,
      };
    });
}

function hotFollowUps(input: InsightInputs): Insight[] {
  const shown = input.hotQuiet.slice(0, 3).map((contact): Insight => {
    const quiet = days(contact.lastActivityDay, input.today);
    const estimate = contact.budgetMax !== null && contact.budgetMax > 0 ? (contact.budgetMax * HOT_COMMISSION_PCT) / 100 : null;
    return {
      id: `hot:${contact.id}`,
      type: "follow_up",
      priority: "high",
      title: `Follow up with ${contact.name}`,
      description: `A hot lead with no activity for ${plural(quiet, "day")} (last on ${formatDay(contact.lastActivityDay, input.prefs)}). Hot leads cool quickly: call or send a short note today.`,
      action: "Draft follow-up",
      href: `/ai-assistant?quick=follow_up&contact=${encodeURIComponent(contact.id)}`,
      impact:
        estimate !== null
          ? `About ${formatMoneyCompact(estimate, input.prefs)} commission (${HOT_COMMISSION_PCT}% of a ${formatMoneyCompact(contact.budgetMax!, input.prefs)} budget)`
          : "No budget recorded yet: ask about it on the call",
      contactId: contact.id,
    };
  });
  const rest = input.hotQuietCount - shown.length;
  if (rest > 0) {
    shown.push({
      id: "hot:more",
      type: "follow_up",
      priority: "medium",
      title: `${plural(rest, "more hot lead")} waiting`,
      description: `${plural(rest, "other hot contact")} had no activity for more than ${HOT_QUIET_DAYS} days.`,
      action: "See hot contacts",
      href: "/contacts?status=hot&sort=activity",
      impact: null,
    });
  }
  return shown;
}

/** Why an open deal is at risk, most serious first; empty when it is not. */
export function dealRisks(deal: OpenDealInput, today: string): { reason: string; serious: boolean }[] {
  const risks: { reason: string; serious: boolean }[] = [];
  if (deal.expectedCloseDate !== null && deal.expectedCloseDate < today) {
    risks.push({ reason: `the expected close date passed ${plural(days(deal.expectedCloseDate, today), "day")} ago`, serious: true });
  }
  for (const key of deal.keyDates) {
    const left = days(today, key.day);
    if (left < 0) risks.push({ reason: `the ${key.label.toLowerCase()} date passed ${plural(-left, "day")} ago`, serious: true });
    else if (left <= KEY_DATE_DAYS)
      risks.push({
        reason: `the ${key.label.toLowerCase()} is ${left === 0 ? "today" : left === 1 ? "tomorrow" : `in ${left} days`}`,
        serious: false,
      });
  }
  const inStage = days(deal.stageChangedDay, today);
  if (inStage > STALE_STAGE_DAYS) risks.push({ reason: `${plural(inStage, "day")} in ${deal.stageName}`, serious: false });
  const quietSince = deal.lastActivityDay ?? deal.createdDay;
  const quiet = days(quietSince, today);
  if (quiet >= QUIET_DEAL_DAYS)
    risks.push({
      reason: deal.lastActivityDay ? `no activity for ${plural(quiet, "day")}` : `no activity logged since it was added ${plural(quiet, "day")} ago`,
      serious: false,
    });
  return risks;
}

function atRisk(input: InsightInputs): Insight[] {
  return input.openDeals
    .map((deal) => ({ deal, risks: dealRisks(deal, input.today) }))
    .filter(({ risks }) => risks.length > 0)
    .map(({ deal, risks }) => ({ deal, risks, serious: risks.some((r) => r.serious), weight: (deal.valueCents / 100) * (deal.probability / 100) }))
    .sort((a, b) => Number(b.serious) - Number(a.serious) || b.risks.length - a.risks.length || b.weight - a.weight)
    .slice(0, 3)
    .map(({ deal, risks, serious, weight }): Insight => {
      const reasons = risks.map((r) => r.reason);
      const sentence = reasons.length > 1 ? `${reasons.slice(0, -1).join(", ")} and ${reasons.at(-1)}` : reasons[0]!;
      return {
        id: `risk:${deal.id}`,
        type: "urgent",
        priority: serious ? "high" : "medium",
        title: `${deal.title} is at risk`,
        description: `${sentence[0]!.toUpperCase()}${sentence.slice(1)}.${deal.contactName ? ` Check in with ${deal.contactName}.` : ""}`,
        action: "Review deal",
        href: `/deals/${deal.id}`,
        impact:
          weight > 0
            ? `${formatMoneyCompact(weight, input.prefs)} weighted value (${deal.probability}% of ${formatMoneyCompact(deal.valueCents / 100, input.prefs)})`
            : null,
        dealId: deal.id,
      };
    });
}

function weightedPipeline(input: InsightInputs): Insight[] {
  const valued = input.openDeals.filter((deal) => deal.valueCents > 0);
  if (valued.length === 0) return [];
  const weighted = valued.reduce((sum, deal) => sum + (deal.valueCents / 100) * (deal.probability / 100), 0);
  const total = valued.reduce((sum, deal) => sum + deal.valueCents / 100, 0);
  const missing = input.openDeals.length - valued.length;
  return [
    {
      id: "pipeline:weighted",
      type: "opportunity",
      priority: "medium",
      title: `Weighted pipeline: ${formatMoneyCompact(weighted, input.prefs)}`,
      description: `${plural(valued.length, "open deal")} worth ${formatMoneyCompact(total, input.prefs)}, each counted at its probability (closed won and lost excluded).${missing > 0 ? ` ${plural(missing, "open deal has", "open deals have")} no value yet and ${missing === 1 ? "is" : "are"} not counted.` : ""}`,
      action: "Open forecast",
      href: "/pipeline/commissions",
      impact: null,
    },
  ];
}

function marketFocus(input: InsightInputs): Insight[] {
  const top = input.locations[0];
  if (!top || top.hotOrWarm < 2) return [];
  return [
    {
      id: `market:${top.location.toLowerCase()}`,
      type: "market",
      priority: "low",
      title: `${top.location} is where your buyers look`,
      description: `${plural(top.hotOrWarm, "hot or warm contact")} want ${top.location}. A market update for that area gives you a reason to reach out to all of them.`,
      action: "Draft market insight",
      href: `/ai-assistant?quick=market&location=${encodeURIComponent(top.location)}`,
      impact: null,
    },
  ];
}

/** Every insight the rules find, sorted; the caller shows the first INSIGHTS_SHOWN. */
export function computeInsights(input: InsightInputs): Insight[] {
  // Rule order is the tie-break inside a priority: closings first, then cooling hot leads, then risks.
  return sortInsights([...closingSoon(input), ...hotFollowUps(input), ...atRisk(input), ...weightedPipeline(input), ...marketFocus(input)]).slice(
    0,
    INSIGHTS_KEPT,
  );
}
