import { pick, type Ctx } from "../context";
import { type DealRisk, dealName, rankDeals, riskLevel, stageLabel, weightedLine } from "../deal-risk";
import { NOTHING_TO_REVIEW, NOTHING_TO_REVIEW_STEPS, REVIEW_CLOSERS, REVIEW_INTROS } from "../phrases/deal-review";
import { capitalise, clean, plural } from "../text";

// The at-risk deals review: the open deals riskiest first, each with what is slipping, its value and the next step.

function writeNothingToReview(ctx: Ctx): string {
  const closed = ctx.env.deals.length;
  const why =
    closed === 0
      ? "there are no open deals"
      : closed === 1
        ? "the only deal here is closed"
        : closed === 2
          ? "both deals here are closed"
          : `all ${closed} deals here are closed`;
  const mark = ctx.tone === "enthusiastic" ? "!" : ".";
  const who = ctx.fullName ? `turn ${ctx.fullName} into a deal` : "add a deal for your warmest contact";
  const step = ctx.tone === "concise" ? `Next step: ${who}.` : pick(NOTHING_TO_REVIEW_STEPS, ctx.v)(who);
  return [`${pick(NOTHING_TO_REVIEW[ctx.tone], ctx.v)}: ${why}${mark}`, step].join("\n");
}

export function writeDealReview(ctx: Ctx): string {
  const ranked = rankDeals(ctx);
  const closedCount = ctx.env.deals.length - ctx.openDeals.length;
  if (!ranked.length) return writeNothingToReview(ctx);
  const totals = ranked.reduce((t, r) => ({ value: t.value + (r.deal.dealValue ?? 0), weighted: t.weighted + (r.weighted ?? 0) }), {
    value: 0,
    weighted: 0,
  });
  const missing = ranked.filter((r) => r.deal.dealValue == null).length;
  const summary = `${plural(ranked.length, "open deal")}${totals.value > 0 ? `, ${ctx.money(totals.value)} in pipeline, ${ctx.money(totals.weighted)} weighted` : ""}${missing ? ` (${missing} without a value)` : ""}${closedCount ? `; ${plural(closedCount, "closed deal")} left out` : ""}.`;
  const lines = [pick(REVIEW_INTROS[ctx.tone], ctx.v), summary];
  ranked.forEach((r, i) => {
    const who = r.deal.contactName ? `, ${clean(r.deal.contactName, 60)}` : "";
    const head = `${i + 1}. ${dealName(r.deal)} (${stageLabel(r.deal)}${who}): ${riskLevel(r.score)} risk`;
    if (ctx.tone === "concise") {
      lines.push("", `${head}. ${r.issues[0] ? `${capitalise(r.issues[0])}. ` : ""}Value: ${weightedLine(r.deal, ctx)}. Next: ${r.nextStep}`);
      return;
    }
    lines.push("", head);
    lines.push(r.issues.length ? `- ${r.score >= 2 ? "Slipping" : "Watch"}: ${r.issues.join("; ")}` : "- Nothing slipping: on schedule and active");
    lines.push(`- Value: ${weightedLine(r.deal, ctx)}`);
    lines.push(`- Next step: ${r.nextStep}`);
  });
  if (ctx.tone !== "concise") {
    const top = ranked[0] as DealRisk;
    lines.push("", pick(REVIEW_CLOSERS, ctx.v)(dealName(top.deal)));
  }
  return lines.join("\n");
}
