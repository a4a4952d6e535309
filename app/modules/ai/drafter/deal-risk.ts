import type { DraftDeal } from "../draft-types";
import type { Ctx } from "./context";
import { daysBetween, formatDay } from "./days";
import { DEAL_STEPS } from "./phrases/deal-review";
import { clean, plural } from "./text";

// How much risk each open deal carries (a late or near close date, a long stay in one stage, no recent activity, no
// value) and the next step for it: read by the at-risk review, the advice and the week plan.

/** dealValue × probability / 100, or null when either is missing. */
export function weightedValue(deal: DraftDeal): number | null {
  return deal.dealValue != null && deal.probability != null ? (deal.dealValue * deal.probability) / 100 : null;
}

export const dealName = (deal: DraftDeal) => clean(deal.title, 80) || "Untitled deal";
export const stageLabel = (deal: DraftDeal) => clean(deal.stageName, 40) || clean(deal.stage.replace(/_/g, " "), 40);

/** Days in a stage after which the review flags a deal: a coaching rule of thumb, stated as such in the text. */
const STAGE_PATIENCE: Record<string, number> = { lead: 30, qualified: 21, showing: 21, offer: 7, under_contract: 45 };

export interface DealRisk {
  deal: DraftDeal;
  score: number;
  issues: string[];
  weighted: number | null;
  nextStep: string;
}

function assessDeal(deal: DraftDeal, ctx: Ctx): DealRisk {
  const today = ctx.env.today;
  const issues: string[] = [];
  let score = 0;
  const toClose = daysBetween(today, deal.expectedCloseDate);
  const closeDay = formatDay(deal.expectedCloseDate, today);
  if (toClose === null) {
    score += 1;
    issues.push("no expected close date set");
  } else if (toClose < 0) {
    score += 4 + Math.min(3, Math.floor(-toClose / 7));
    issues.push(`expected close date (${closeDay}) passed ${plural(-toClose, "day")} ago`);
  } else if (toClose <= 7 && deal.stage !== "under_contract") {
    score += 3;
    issues.push(`expected to close ${toClose === 0 ? "today" : `in ${plural(toClose, "day")}`} (${closeDay}) but still at ${stageLabel(deal)}`);
  } else if (toClose <= 14) {
    score += 1;
    issues.push(`closing ${toClose === 0 ? "today" : `in ${plural(toClose, "day")}`} (${closeDay})`);
  }
  const patience = STAGE_PATIENCE[deal.stage] ?? 21;
  if (deal.daysInStage > patience) {
    score += deal.daysInStage > patience * 2 ? 3 : 2;
    issues.push(`${plural(deal.daysInStage, "day")} in ${stageLabel(deal)} (this review flags ${stageLabel(deal)} after ${patience})`);
  }
  const quiet = daysBetween(deal.lastActivityDay, today);
  if (quiet === null) {
    score += 2;
    issues.push("no activity logged yet");
  } else if (quiet >= 14) {
    score += 2;
    issues.push(`no activity for ${plural(quiet, "day")} (last ${formatDay(deal.lastActivityDay, today)})`);
  } else if (quiet >= 7) {
    score += 1;
    issues.push(`quiet for ${plural(quiet, "day")}`);
  }
  if (deal.dealValue == null) {
    score += 0.5;
    issues.push("no deal value, so it is missing from your forecast");
  }
  return { deal, score, issues, weighted: weightedValue(deal), nextStep: dealNextStep(deal, toClose, quiet) };
}

function dealNextStep(deal: DraftDeal, toClose: number | null, quiet: number | null): string {
  const who = clean(deal.contactName ?? "", 60) || "the client";
  if (toClose !== null && toClose < 0)
    return `Agree a realistic close date with ${who} and update it, or move the deal to Closed Lost if it has fallen through.`;
  const steps = DEAL_STEPS[deal.stage];
  const isQuiet = quiet === null || quiet >= 14;
  if (!steps)
    return isQuiet
      ? `Call ${who} this week and put a dated task on the next step for ${stageLabel(deal)}.`
      : `Decide the next step for ${stageLabel(deal)} with ${who} and put a dated task on it.`;
  return isQuiet ? steps.quiet(who) : steps.active(who);
}

export function riskLevel(score: number): "high" | "medium" | "low" {
  return score >= 5 ? "high" : score >= 2 ? "medium" : "low";
}

const rankings = new WeakMap<Ctx, DealRisk[]>();
/** The open deals, riskiest first (computed once per draft). */
export function rankDeals(ctx: Ctx): DealRisk[] {
  let ranked = rankings.get(ctx);
  if (!ranked) {
    ranked = ctx.openDeals
      .map((deal) => assessDeal(deal, ctx))
      .sort((a, b) => b.score - a.score || (b.weighted ?? 0) - (a.weighted ?? 0) || a.deal.title.localeCompare(b.deal.title));
    rankings.set(ctx, ranked);
  }
  return ranked;
}

/** "$650,000 at 60% = $390,000 weighted", or what is missing. */
export function weightedLine(deal: DraftDeal, ctx: Ctx): string {
  if (deal.dealValue == null) return "not set";
  const value = ctx.money(deal.dealValue);
  if (deal.probability == null) return `${value}, probability not set`;
  if (deal.probability === 0) return `${value} at 0% probability, so nothing weighted`;
  return `${value} at ${deal.probability}% = ${ctx.money(weightedValue(deal) ?? 0)} weighted`;
}
