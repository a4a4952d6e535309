import { INJECTION, PLACEHOLDER } from "../agent-input";
import { pick, type Ctx } from "../context";
import { stageLabel } from "../deal-risk";
import { isOpenDeal } from "../open-deal";
import { describeHome, isSeller } from "../homes";
import { budgetRange, positive } from "../money";
import { MARKET_INTROS, MLS_CHECKLIST } from "../phrases/market";
import { clean, plural } from "../text";

// Market notes: Porchlight has no MLS statistics, so the notes give what the agent's own pipeline shows, a checklist
// of figures to pull from the MLS, and talking points.

/** The area the agent asked about: a place named in the input, the input itself if short, the contact's, the agent's. */
function marketArea(ctx: Ctx): string | null {
  const input = clean(ctx.env.userInput.replace(PLACEHOLDER, ""), 200);
  if (input && !INJECTION.test(input)) {
    const named = /\b(?:in|for|around|near|of)\s+((?:[A-Z][\p{L}'’.-]*|[A-Z]{2})(?:[\s,]+(?:[A-Z][\p{L}'’.-]*|[A-Z]{2}))*)/u.exec(input);
    if (named?.[1]) return named[1].replace(/[,.]+$/, "");
    if (input.length <= 60 && !/[?]/.test(input) && input.split(" ").length <= 6) return input.replace(/[.!]+$/, "");
  }
  const fromContact = ctx.contact?.location ? clean(ctx.contact.location, 80) : "";
  if (fromContact) return fromContact;
  const market = clean(ctx.env.agent.market ?? "", 80);
  return market || null;
}

export function writeMarket(ctx: Ctx): string {
  const area = marketArea(ctx);
  const concise = ctx.tone === "concise";
  const lines: string[] = [pick(MARKET_INTROS[ctx.tone], ctx.v)(area)];
  lines.push(
    concise
      ? "Porchlight has no MLS statistics: the figures below are from your own pipeline."
      : "Porchlight doesn't have MLS statistics, so there are no market figures here to repeat. Everything below comes from your own pipeline; pull the market numbers from your MLS before sharing any.",
  );
  lines.push("", area ? `What your pipeline shows for ${area}` : "What your pipeline shows");
  lines.push(...pipelineFacts(ctx, area));
  const budget = ctx.contact ? budgetRange(ctx.contact.budgetMin, ctx.contact.budgetMax, ctx.env.currency) : null;
  lines.push("", `Pull from the MLS${area ? ` for ${area}` : ""}`);
  const checklist = concise ? MLS_CHECKLIST.slice(0, 4) : MLS_CHECKLIST;
  lines.push(...checklist.map((item) => `- ${item}`));
  if (budget && !concise) lines.push(`- The same figures for homes priced ${budget}, ${ctx.first ?? "your client"}'s range`);
  lines.push("", "Talking points");
  lines.push(...marketTalkingPoints(ctx, area, budget).map((p) => `- ${p}`));
  return lines.join("\n");
}

function pipelineFacts(ctx: Ctx, area: string | null): string[] {
  const facts: string[] = [];
  const deals = ctx.env.deals;
  const needle = area?.split(",")[0]?.trim().toLowerCase() ?? "";
  const local = needle ? deals.filter((d) => d.title.toLowerCase().includes(needle)) : [];
  const scope = local.length ? local : deals;
  if (!deals.length) facts.push("- No deals in your pipeline yet, so there is nothing of your own to quote.");
  else {
    const open = scope.filter(isOpenDeal);
    const won = scope.filter((d) => d.stage === "closed_won");
    const lost = scope.filter((d) => d.stage === "closed_lost");
    const where = local.length ? ` mentioning ${area}` : area ? " (none of their titles mention this area, so this is your whole pipeline)" : "";
    const counts = [
      [open.length, "open"],
      [won.length, "closed won"],
      [lost.length, "closed lost"],
    ]
      .filter(([n]) => n)
      .map(([n, label]) => `${n} ${label}`);
    facts.push(`- ${plural(scope.length, "deal")}${where}: ${counts.join(", ")}.`);
    const valued = scope.filter((d) => positive(d.dealValue));
    if (valued.length) {
      const values = valued.map((d) => d.dealValue as number).sort((a, b) => a - b);
      const total = values.reduce((s, n) => s + n, 0);
      const range = values.length > 1 ? `, from ${ctx.money(values[0] as number)} to ${ctx.money(values[values.length - 1] as number)}` : "";
      facts.push(
        `- Deal values: ${ctx.money(total)} in total${range}${valued.length < scope.length ? ` (${scope.length - valued.length} without a value)` : ""}.`,
      );
    }
    const stages = new Map<string, number>();
    for (const d of open) stages.set(stageLabel(d), (stages.get(stageLabel(d)) ?? 0) + 1);
    if (stages.size) facts.push(`- Open deals by stage: ${[...stages].map(([s, n]) => `${s} ${n}`).join(", ")}.`);
  }
  const c = ctx.contact;
  if (c && ctx.fullName) {
    const budget = budgetRange(c.budgetMin, c.budgetMax, ctx.env.currency);
    const selling = isSeller(c, ctx.env.deals);
    facts.push(
      `- ${ctx.fullName} (${c.status}) is ${selling ? "selling" : "looking for"} ${describeHome(c)}${c.location ? "" : " (no location set)"}${selling ? "" : budget ? `, budget ${budget}` : ", no budget set"}.`,
    );
  }
  return facts;
}

function marketTalkingPoints(ctx: Ctx, area: string | null, budget: string | null): string[] {
  const place = area ?? "the area";
  const points = [
    `Lead with the median price and days on market for ${place}, then what they mean for timing.`,
    "Compare this year with last year rather than month to month: it is steadier and easier to explain.",
    "Explain what the list-to-sale ratio means for how to price or how to offer.",
  ];
  if (budget) points.push(`Place ${ctx.first ?? "your client"}'s budget (${budget}) against the median once you have it.`);
  const closed = ctx.env.deals.filter((d) => d.stage === "closed_won").length;
  if (closed) points.push(`Mention your ${closed === 1 ? "closed deal" : `${closed} closed deals`} as your own experience, not as market data.`);
  points.push("Stick to figures you can source, and say where each one comes from.");
  const shown = ctx.tone === "concise" ? points.slice(0, 3) : points;
  return ctx.v % 2 === 1 ? [...shown.slice(1), shown[0] as string] : shown;
}
