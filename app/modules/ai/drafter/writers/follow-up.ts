import type { DraftDeal, DraftTone } from "../../draft-types";
import { agentPoint } from "../agent-input";
import { pick, type Ctx } from "../context";
import { daysBetween, whenPhrase } from "../days";
import { describeHome, hasSearch, isSeller } from "../homes";
import { budgetPhrase } from "../money";
import {
  ACTIVITY_KINDS,
  EMAIL_CLOSINGS,
  GREETINGS,
  NEXT_STEPS,
  NO_SEARCH,
  OPENERS,
  PAST_SEARCH_LINES,
  type PastSearch,
  POINT_LEADS,
  SEARCH_LINES,
  SELLER_LINES,
  SELLER_STEPS,
  SINCE_CLOSING,
  SOURCE_OPENERS,
  type Step,
  SUBJECTS,
  WRAP_UPS,
} from "../phrases/follow-up";
import { clean } from "../text";

// The follow-up e-mail: subject, greeting, an opener about the last activity, the search (or sale, or closing), the
// agent's own point, the next step for the deal's stage, and the agent's signature.

function signature(ctx: Ctx, closings: Record<DraftTone, readonly string[]>): string {
  const { name, brokerage } = ctx.env.agent;
  const agent = clean(name ?? "", 80);
  const firm = clean(brokerage ?? "", 80);
  const lines = [pick(closings[ctx.tone], ctx.v, 1)];
  if (ctx.tone === "concise") {
    if (agent || firm) lines.push(agent || firm);
  } else {
    if (agent) lines.push(agent);
    if (firm) lines.push(firm);
  }
  return lines.join("\n");
}

interface ActivityRef {
  /** "the showing on Nov 12", "our call yesterday", "our last conversation". */
  ref: string;
  /** Something one thanks the client for (a showing, a call), not an e-mail one sent. */
  thankable: boolean;
  /** Whole days since, when known. */
  daysAgo: number | null;
  showing: boolean;
}

function lastActivity(ctx: Ctx): ActivityRef | null {
  const c = ctx.contact;
  if (!c || (!c.lastActivitySummary && !c.lastActivityDay)) return null;
  const summary = c.lastActivitySummary ?? "";
  // Only the kind of activity is used: the summary's note is the agent's, not something to quote to the client.
  const kind = ACTIVITY_KINDS.find(([re]) => re.test(summary.split(/[—–:]| - /)[0] ?? ""));
  const noun = kind?.[1] ?? "our last conversation";
  const when = whenPhrase(c.lastActivityDay, ctx.env.today);
  const daysAgo = daysBetween(c.lastActivityDay, ctx.env.today);
  const at = when && daysAgo !== null && daysAgo >= 0 ? ` ${when === "today" ? "earlier today" : when}` : "";
  return { ref: `${noun}${at}`, thankable: kind?.[2] ?? false, daysAgo, showing: noun === "the showing" };
}

function openerLine(ctx: Ctx): string {
  const activity = lastActivity(ctx);
  const table = OPENERS[ctx.tone];
  if (!activity) return SOURCE_OPENERS[ctx.tone][ctx.contact?.source ?? "other"];
  if (activity.daysAgo !== null && activity.daysAgo >= 30) return table.long(activity.ref);
  if (activity.thankable && ctx.v % 3 === 2) return table.thanks(activity.ref);
  return pick(table.any, ctx.v)(activity.ref);
}

/** The deal a follow-up is about: the first open one, else the first closed one. */
const primaryDeal = (ctx: Ctx): DraftDeal | null => ctx.openDeals[0] ?? ctx.env.deals[0] ?? null;

function nextStepLine(ctx: Ctx): string {
  const deal = primaryDeal(ctx);
  const activity = lastActivity(ctx);
  const key = deal ? (NEXT_STEPS[deal.stage] ? deal.stage : "custom") : activity?.showing ? "after_showing" : "none";
  const step = (isSeller(ctx.contact, ctx.env.deals) ? SELLER_STEPS[key] : undefined) ?? (NEXT_STEPS[key] as Step);
  const toClose = daysBetween(ctx.env.today, deal?.expectedCloseDate);
  const close = deal && toClose !== null && toClose >= 0 ? ` ${whenPhrase(deal.expectedCloseDate, ctx.env.today)}` : "";
  return (ctx.tone === "concise" ? step.short : pick(step.long, ctx.v, 2)).replace("{close}", close);
}

function subjectLine(ctx: Ctx): string {
  const deal = primaryDeal(ctx);
  const activity = lastActivity(ctx);
  const place = ctx.contact?.location ? clean(ctx.contact.location, 40) : null;
  let options: readonly string[];
  if (deal?.stage === "under_contract") options = SUBJECTS.under_contract;
  else if (deal?.stage === "closed_won") options = SUBJECTS.closed_won;
  else if (deal?.stage === "offer") options = SUBJECTS.offer;
  else if (activity?.showing) options = SUBJECTS.showing;
  else if (place) options = SUBJECTS.place(place);
  else options = SUBJECTS.none;
  const subject = pick(options, ctx.v);
  return ctx.tone === "enthusiastic" && !subject.endsWith("?") ? `${subject}!` : subject;
}

const isPastSearch = (stage: string): stage is PastSearch => stage === "offer" || stage === "under_contract";

/** What the client is looking for (or selling), or how things are since closing. */
function searchLine(ctx: Ctx): string {
  const contact = ctx.contact;
  const deal = primaryDeal(ctx);
  if (deal?.stage === "closed_won") return pick(SINCE_CLOSING[ctx.tone], ctx.v);
  // A client whose offer is in or who is under contract is not told the agent is still looking.
  if (deal && isPastSearch(deal.stage)) {
    const seller = isSeller(contact, ctx.env.deals);
    if (!contact || (!seller && !hasSearch(contact))) return "";
    return PAST_SEARCH_LINES[seller ? "seller" : "buyer"][deal.stage][ctx.tone](describeHome(contact, { article: !seller }));
  }
  if (contact && isSeller(contact, ctx.env.deals)) return pick(SELLER_LINES[ctx.tone], ctx.v, 1)(describeHome(contact, { article: false }));
  if (!hasSearch(contact)) return pick(NO_SEARCH[ctx.tone], ctx.v);
  const budget = budgetPhrase(contact.budgetMin, contact.budgetMax, ctx.env.currency);
  return pick(SEARCH_LINES[ctx.tone], ctx.v, 1)(describeHome(contact), budget ? ` ${budget}` : "");
}

export function writeFollowUp(ctx: Ctx): string {
  const greet = GREETINGS[ctx.tone];
  const greeting = ctx.first ? pick(greet.named, ctx.v).replace("{n}", ctx.first) : pick(greet.anon, ctx.v);
  const search = searchLine(ctx);
  const point = agentPoint(ctx.env.userInput, ctx.first, ctx.tone === "concise" ? 240 : 400);
  const wrapUp = WRAP_UPS[ctx.tone].length ? pick(WRAP_UPS[ctx.tone], ctx.v, 2) : "";
  const body =
    ctx.tone === "concise"
      ? [[openerLine(ctx), search].filter(Boolean).join(" "), point, nextStepLine(ctx)]
      : [
          [openerLine(ctx), search].filter(Boolean).join(" "),
          point ? `${pick(POINT_LEADS[ctx.tone], ctx.v)}${point}` : null,
          `${nextStepLine(ctx)}${wrapUp ? ` ${wrapUp}` : ""}`,
        ];
  return [`Subject: ${subjectLine(ctx)}`, "", greeting, "", body.filter(Boolean).join("\n\n"), "", signature(ctx, EMAIL_CLOSINGS)].join("\n");
}
