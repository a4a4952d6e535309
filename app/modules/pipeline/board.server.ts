import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { loadCommissionContext, type CommissionContext } from "~/modules/commissions/commissions.server";
import { boardCards, columnTotals, type DealWithContact } from "~/modules/deals/deals.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import type { BoardCard, SharedCard } from "./board";

// One agent's board, read for their own Pipeline and for the team pipeline alike.

/** A deal as a card: what it pays the agent (actual when won, planned when open; nothing when lost). */
export function toBoardCard(commissions: CommissionContext, deal: DealWithContact): BoardCard {
  const lost = commissions.stages.some((s) => s.kind === "lost" && s.key === deal.stage);
  return {
    id: deal.id,
    title: deal.title,
    contactId: deal.contactId,
    contactName: deal.contactName,
    stage: deal.stage,
    dealValueCents: deal.dealValueCents,
    expectedCloseDate: deal.expectedCloseDate,
    closedDate: deal.closedDate,
    probability: deal.probability,
    netCents: lost ? null : commissions.breakdownFor(deal).netCents,
  };
}

/** The deals shared with the agent as cards, open ones first (soonest close), then closed ones (latest first). */
export function sharedCards(commissions: CommissionContext): SharedCard[] {
  const cards = commissions.shared.map(
    (deal): SharedCard => ({
      id: deal.id,
      title: deal.title,
      ownerName: deal.ownerName,
      stageName: deal.stageName,
      kind: deal.kind,
      dealValueCents: deal.dealValueCents,
      expectedCloseDate: deal.expectedCloseDate,
      closedDate: deal.closedDate,
      sharePct: deal.coAgentPct,
      netCents: deal.kind === "lost" ? null : commissions.breakdownFor(deal).netCents,
    }),
  );
  const order = (c: SharedCard) =>
    c.kind === "open" ? `0${c.expectedCloseDate ?? "9999"}` : `1${String(99_999_999 - Number((c.closedDate ?? "0").replaceAll("-", "")))}`;
  return cards.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/**
 * Everything a board needs, at once: D1 answers these in parallel (two round trips in all, since the cards and the
 * commissions both wait for the stages, read once per request). `expand` shows every card of one stage.
 */
export async function loadBoard(context: RequestContext, userId: UserId, options: { cards: boolean; expand?: string | null }) {
  const { expand } = options;
  const [commissions, prefs, totals, board, expanded] = await Promise.all([
    loadCommissionContext(context, userId),
    getDisplayPreferences(context, userId),
    columnTotals(context, userId),
    options.cards ? boardCards(context, userId) : Promise.resolve([]),
    options.cards && expand ? boardCards(context, userId, { stage: expand }) : Promise.resolve([]),
  ]);
  const cards = expanded.length > 0 ? [...board.filter((c) => c.stage !== expand), ...expanded] : board;
  return {
    commissions,
    prefs,
    totals,
    today: commissions.today,
    cards: cards.map((deal) => toBoardCard(commissions, deal)),
    empty: Object.keys(totals).length === 0,
  };
}
