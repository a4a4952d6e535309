import type { DraftDeal } from "../../draft-types";
import { checkFairHousing } from "../../fair-housing";
import { agentSentences } from "../agent-input";
import { pick, type Ctx } from "../context";
import { dealName, rankDeals, stageLabel, weightedLine } from "../deal-risk";
import { daysBetween, whenPhrase } from "../days";
import { describeHome, hasSearch, isSeller } from "../homes";
import { budgetRange } from "../money";
import { ADVICE_INTROS, DATA_HEADINGS, STEPS_HEADINGS } from "../phrases/advice";
import { clean, plural } from "../text";

// Advice: the agent's question sorted by intent, answered from the facts, with the data behind it and numbered steps.

type Intent = "open_house" | "negotiation" | "objection" | "referral" | "at_risk" | "listing" | "follow_up" | "market" | "plan" | "general";
const INTENTS: [Intent, RegExp][] = [
  ["open_house", /open[\s-]?house/i],
  ["negotiation", /negotiat|counter[\s-]?offer|lowball|multiple offers|bidding war|concession|inspection (?:issues|repairs)|offer/i],
  [
    "objection",
    /objection|push ?back|too expensive|commission|hesitat|not ready|think about it|wait(?:ing)? (?:for|until)|rates? (?:are|is) too high/i,
  ],
  ["referral", /referr|past clients?|sphere|word of mouth|testimonial|reviews?\b/i],
  ["at_risk", /stall|stuck|at[\s-]risk|slipping|losing|going cold|gone cold|ghost|falling through|fell through/i],
  ["listing", /listing|description|remarks|write[\s-]?up|\bmls\b/i],
  ["follow_up", /follow[\s-]?up|e-?mail|reach out|check in|touch base|haven'?t heard|text (?:him|her|them)/i],
  ["market", /price|pricing|market|comps?\b|valuation|worth|\bcma\b|interest rates?/i],
  ["plan", /plan|week|priorit|schedule|today|focus|organi[sz]e|time management/i],
];

function adviceIntent(question: string): Intent {
  return INTENTS.find(([, re]) => re.test(question))?.[0] ?? "general";
}

/** The deal the question is most likely about: one at the stage the intent names, else the riskiest. */
function focusDeal(intent: Intent, ctx: Ctx): DraftDeal | null {
  if (intent === "negotiation")
    return (
      ctx.openDeals.find((d) => d.stage === "offer") ?? ctx.openDeals.find((d) => d.stage === "under_contract") ?? rankDeals(ctx)[0]?.deal ?? null
    );
  return rankDeals(ctx)[0]?.deal ?? null;
}

/** One or two sentences that answer the question from the facts, before the steps. */
function adviceAnswer(intent: Intent, ctx: Ctx): string {
  const c = ctx.contact;
  const name = ctx.fullName;
  const top = rankDeals(ctx)[0] ?? null;
  const closed = ctx.env.deals.filter((d) => d.stage === "closed_won").length;
  switch (intent) {
    case "follow_up": {
      const when = whenPhrase(c?.lastActivityDay, ctx.env.today);
      const lead = name ? `${name} was last in touch ${when ?? "a while ago (no activity is logged)"}. ` : "";
      return `${lead}A short, specific e-mail beats a generic check-in: mention what they are looking for and ask one easy question.`;
    }
    case "listing":
      return "Strong listing copy leads with what buyers search for and describes the property, never the buyer.";
    case "market":
      return "Porchlight has no MLS statistics, so build the conversation on figures you pull from your MLS, and use your own deals only as experience.";
    case "at_risk":
      return top
        ? `${dealName(top.deal)} looks most at risk: ${top.issues[0] ?? "it scores highest on the checks"}.`
        : "There are no open deals to rank yet.";
    case "plan": {
      const toClose = ctx.openDeals.map((d) => daysBetween(ctx.env.today, d.expectedCloseDate)).filter((n): n is number => n !== null);
      const soon = toClose.filter((n) => n >= 0 && n <= 7).length;
      const late = toClose.filter((n) => n < 0).length;
      const tasks = ctx.env.tasks.length
        ? `You have ${plural(ctx.env.tasks.length, "task")} due in the next 7 days`
        : "You have no tasks due in the next 7 days";
      const deals = [
        soon ? `${plural(soon, "deal")} due to close` : "",
        late ? `${plural(late, "deal")} past ${late === 1 ? "its" : "their"} close date` : "",
      ].filter(Boolean);
      return `${tasks}${deals.length ? `, ${deals.join(" and ")}` : ""}.`;
    }
    case "objection":
      return "Most objections are about timing, money or trust: find out which before you answer.";
    case "referral":
      return closed
        ? `Your ${closed === 1 ? "closed deal is" : `${closed} closed deals are`} the best place to start: happy clients are the likeliest to refer.`
        : "Past clients and your sphere are the likeliest sources of referrals.";
    case "open_house":
      return "An open house pays off in the follow-up, not on the day.";
    case "negotiation": {
      const deal = focusDeal(intent, ctx);
      return deal
        ? `For ${dealName(deal)} (${stageLabel(deal)}${deal.dealValue != null ? `, ${ctx.money(deal.dealValue)}` : ""}), decide what matters most before you counter.`
        : "Decide what matters most before you counter.";
    }
    default:
      return top
        ? `Your riskiest open deal is ${dealName(top.deal)}${top.issues[0] ? ` (${top.issues[0]})` : ""}.`
        : name
          ? `Here is where things stand with ${name}.`
          : "Here is a general plan to keep your business moving.";
  }
}

function adviceSteps(intent: Intent, ctx: Ctx): string[] {
  const who = ctx.first ?? "your client";
  const top = focusDeal(intent, ctx);
  const deal = top ? dealName(top) : null;
  const search = hasSearch(ctx.contact) ? describeHome(ctx.contact) : null;
  switch (intent) {
    case "open_house":
      return [
        "Promote it 5 to 7 days ahead: the listing portals, your social accounts, and a note to neighbours.",
        "Use a sign-in sheet (or a QR code form) and ask each visitor one question: are you working with an agent?",
        "Follow up with every visitor within 24 hours, and add each one to Porchlight with the open house as the source.",
        ctx.fullName
          ? `Invite ${ctx.fullName} if the home fits their search${search ? ` for ${search}` : ""}.`
          : "Invite any contacts whose search matches the home.",
      ];
    case "negotiation":
      return [
        `Agree ${who}'s walk-away number and priorities (price, dates, repairs, contingencies) before you respond.`,
        "Ask the other agent what matters most to their client: terms can be worth more than price.",
        "Trade concessions rather than give them: every ask gets something back.",
        deal ? `Put a dated task on ${deal} for the response deadline.` : "Put every response deadline in Porchlight as a dated task.",
      ];
    case "objection":
      return [
        "Acknowledge the concern first, then ask a question to find what is behind it.",
        "Answer with facts you can show: recent sales, your plan, your track record from your own deals.",
        `Offer ${who} a small next step (a call, a tour, a quick market review) rather than a big decision.`,
        "Log the objection as a note on the contact so your next follow-up addresses it.",
      ];
    case "referral":
      return [
        "Ask closed clients at the moments they are happiest: at closing and on the first anniversary.",
        'Make it specific: "Who do you know who is thinking about moving this year?"',
        "Thank every referral within a day, whether it turns into business or not.",
        "Tag referral contacts with their source in Porchlight so you can see which relationships send business.",
      ];
    case "at_risk":
      return deal
        ? [
            `Start with ${deal}: ${rankDeals(ctx)[0]?.issues[0] ?? "it carries the most risk"}.`,
            rankDeals(ctx)[0]?.nextStep ?? "Call the client today.",
            "Update the expected close date and probability so your forecast stays honest.",
          ]
        : [
            "Run the at-risk deals review once your deals have close dates and activity logged.",
            "Call any client you have not spoken to in two weeks.",
            "Update each deal's expected close date and probability.",
          ];
    case "listing":
      return [
        "Lead with the two or three features buyers will search for, then the location.",
        'Describe the property, never the buyer: Fair Housing rules rule out phrases like "perfect for" a type of person.',
        "Stay within your MLS remarks limit and check the copy with the Fair Housing checker.",
        "Use the Listing description task with the features typed in, separated by commas.",
      ];
    case "follow_up":
      return [
        ctx.fullName
          ? `Follow up with ${ctx.fullName} today${ctx.contact?.lastActivityDay ? `; your last contact was ${whenPhrase(ctx.contact.lastActivityDay, ctx.env.today)}` : ""}.`
          : "Follow up with your hot contacts first, then anyone quiet for more than a week.",
        search
          ? `Reference their search (${search}) and propose one concrete next step.`
          : "Reference what they told you last time and propose one concrete next step.",
        "Keep it short and end with a question that is easy to answer.",
        "Set a follow-up task for three days out in case you do not hear back.",
      ];
    case "market":
      return [
        "Pull the median sale price, days on market, inventory and list-to-sale ratio from your MLS; Porchlight has no market statistics.",
        ctx.contact?.location
          ? `Focus on ${clean(ctx.contact.location, 80)} and ${who}'s price range.`
          : "Focus on the area and price range your client cares about.",
        "Compare with the same period last year, and say where each figure comes from.",
      ];
    case "plan":
      return [
        "Start each day with the calls that move money: deals under contract and offers first.",
        "Then hot contacts quiet for more than a week.",
        "Keep an hour a day for prospecting and new leads.",
        "Use the This week's plan task for a day-by-day list from your tasks.",
      ];
    default:
      return [
        deal
          ? `Check in on ${deal} first: it carries the most risk in your pipeline.`
          : "Add your active deals with values and close dates so Porchlight can rank them.",
        ctx.fullName ? `Follow up with ${ctx.fullName} and propose one concrete next step.` : "Follow up with your hot contacts.",
        "Put a dated task on every next step, so nothing depends on memory.",
      ];
  }
}

function dataSummary(ctx: Ctx): string[] {
  const facts: string[] = [];
  const c = ctx.contact;
  if (c && ctx.fullName) {
    const budget = budgetRange(c.budgetMin, c.budgetMax, ctx.env.currency);
    const when = whenPhrase(c.lastActivityDay, ctx.env.today);
    const selling = isSeller(c, ctx.env.deals);
    const parts = [
      `${c.status} contact`,
      selling ? `selling ${describeHome(c)}` : hasSearch(c) ? `looking for ${describeHome(c)}` : null,
      budget && !selling ? `budget ${budget}` : null,
      when ? `last contact ${when}` : "no activity logged",
    ];
    facts.push(`- ${ctx.fullName}: ${parts.filter(Boolean).join(", ")}.`);
  }
  for (const r of rankDeals(ctx).slice(0, 5)) {
    facts.push(`- ${dealName(r.deal)} (${stageLabel(r.deal)}): ${weightedLine(r.deal, ctx)}${r.issues[0] ? `; ${r.issues[0]}` : ""}.`);
  }
  const closed = ctx.env.deals.length - ctx.openDeals.length;
  if (closed) facts.push(`- ${plural(closed, "closed deal")}.`);
  if (ctx.env.tasks.length) facts.push(`- ${plural(ctx.env.tasks.length, "open task")} due in the next 7 days.`);
  return facts;
}

export function writeAdvice(ctx: Ctx): string {
  const question = agentSentences(ctx.env.userInput, ctx.first, 500).join(" ");
  const intent = adviceIntent(question);
  const steps = adviceSteps(intent, ctx);
  const flags = checkFairHousing(question);
  // A general question gets no "good question" opener: the answer itself comes first.
  const intro = (intent === "general" && !question) || flags.length ? "" : pick(ADVICE_INTROS[ctx.tone], ctx.v);
  const answer = flags.length
    ? `A Fair Housing note first: ${flags.map((f) => `"${f.phrase}" (${f.category.replace(/_/g, " ")})${f.suggestion ? `: try "${f.suggestion}"` : ": leave it out"}`).join("; ")}. Describe the property, not the people you picture living there.`
    : adviceAnswer(intent, ctx);
  const lines: string[] = [`${intro ? `${intro} ` : ""}${answer}`];
  const facts = dataSummary(ctx);
  if (ctx.tone !== "concise") {
    lines.push("", pick(DATA_HEADINGS[ctx.tone], ctx.v));
    lines.push(...(facts.length ? facts : ["- No contact or deals were included, so this answer is general."]));
  }
  lines.push("", pick(STEPS_HEADINGS[ctx.tone], ctx.v));
  const shown = ctx.tone === "concise" ? steps.slice(0, 3) : steps;
  lines.push(...shown.map((s, i) => `${i + 1}. ${s}`));
  return lines.join("\n");
}
