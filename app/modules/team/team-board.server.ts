import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Currency } from "~/db/enums";
import { contacts, crmConfig, dealShares, deals, userPreferences, type DealStage } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import type { BoardCard, ColumnTotals } from "~/modules/pipeline/board";
import { readStages } from "~/modules/pipeline/stages";
import { getStages } from "~/modules/pipeline/stages.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { sharedWith } from "~/modules/deals/shares.server";
import { stageTotalColumns } from "~/modules/deals/deals.server";
import { DEFAULT_DISPLAY_PREFERENCES } from "~/lib/format";
import type { MemberRow, Membership } from "./team.server";
import { seesWholeTeam, type Viewer } from "./visibility.server";

// The team board (ADR 0076): every deal the viewer may see (owners and admins: every member's; agents: their own and
// those shared with them) in one kanban, in the team's stages: the owner's pipeline. A member's stage with the same key
// is that column; a stage of their own is placed by its kind (won, lost) or, when open, in the team's open stage with
// the nearest probability, and the card names the agent's own stage. Totals add only the deals in the board's currency.

/** Cards per column before "Show all" (each column reads at most this many). */
const CARDS_PER_COLUMN = 20;
/** "Show all" in one column: at most this many cards. */
const EXPANDED_LIMIT = 500;

type TeamBoardCard = BoardCard & { agentId: string; agentName: string; coAgents: string[]; stageLabel: string | null; currency: Currency };

/** Each member's stages and currency, in one round trip. */
async function membersSetup(context: RequestContext, ids: readonly UserId[]) {
  const [configs, prefs] = await context.db.batch([
    context.db.select({ userId: crmConfig.userId, stages: crmConfig.dealStages }).from(crmConfig).where(ownedByAny(crmConfig, ids)),
    context.db
      .select({ userId: userPreferences.userId, currency: userPreferences.currency })
      .from(userPreferences)
      .where(ownedByAny(userPreferences, ids)),
  ]);
  const stages = new Map(configs.map((c) => [c.userId, readStages(c.stages)]));
  const currency = new Map(prefs.map((p) => [p.userId, p.currency]));
  return new Map(
    ids.map((id) => [
      id as string,
      { stages: stages.get(id) ?? readStages(null), currency: currency.get(id) ?? DEFAULT_DISPLAY_PREFERENCES.currency },
    ]),
  );
}

/** Where an agent's stage sits on the team's board: the same key, else by kind, else the nearest open probability. */
export function teamColumnOf(columns: readonly DealStage[], stage: DealStage): string {
  if (columns.some((c) => c.key === stage.key)) return stage.key;
  if (stage.kind !== "open") return columns.find((c) => c.kind === stage.kind)!.key;
  const open = columns.filter((c) => c.kind === "open");
  return open.reduce((best, c) => (Math.abs(c.probability - stage.probability) < Math.abs(best.probability - stage.probability) ? c : best)).key;
}

/**
 * The team board for `agents` (from the visibility rule): the team's stages, per-column totals over every deal and the
 * first cards of each column (or every card of `expand`), each with its agent and co-agents.
 */
export async function loadTeamBoard(
  context: RequestContext,
  viewer: Viewer & { team: Membership },
  agents: readonly MemberRow[],
  expand: string | null,
) {
  const ids = agents.map((a) => a.userId as UserId);
  const names = new Map(agents.map((a) => [a.userId, a.name]));
  const [columns, setup, prefs, shared] = await Promise.all([
    getStages(context, viewer.team.ownerId),
    membersSetup(context, ids),
    getDisplayPreferences(context, viewer.userId),
    // An agent's board adds the deals teammates share with them (owners and admins see those under their agent).
    seesWholeTeam(viewer) ? Promise.resolve([]) : sharedWith(context, viewer.userId),
  ]);
  const columnFor = (agentId: string, key: string) => {
    const own = setup.get(agentId)?.stages.find((s) => s.key === key);
    return own ? teamColumnOf(columns, own) : null;
  };
  // Every (agent, stage key) that lands in each column: a column's cards are read by those keys.
  const keysOf = new Map(columns.map((c) => [c.key, new Set<string>()]));
  for (const [, member] of setup) for (const s of member.stages) keysOf.get(teamColumnOf(columns, s))!.add(s.key);

  const shown = expand && keysOf.has(expand) ? [expand] : columns.map((c) => c.key);
  const cardReads = shown.map((column) => {
    const closed = columns.find((c) => c.key === column)!.kind !== "open";
    const order = closed
      ? [desc(deals.closedDate), desc(deals.id)]
      : [sql`${deals.expectedCloseDate} is null`, asc(deals.expectedCloseDate), asc(deals.id)];
    // The column's first cards are picked by id and order alone, and only those join their contact: joining every deal
    // of the column before sorting read a contact per deal (about 1,600 a column for 20 agents) to show 20. The ids
    // come from the members' deals only, so the outer read binds no ids again (D1 binds at most 100 parameters).
    const firstCards = context.db
      .select({ id: deals.id })
      .from(deals)
      .where(ownedByAny(deals, ids, inArray(deals.stage, [...keysOf.get(column)!])))
      .orderBy(...order)
      .limit(expand ? EXPANDED_LIMIT : CARDS_PER_COLUMN);
    return context.db
      .select({ deal: deals, contactName: contacts.name })
      .from(deals)
      .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, deals.userId)))
      .where(inArray(deals.id, firstCards))
      .orderBy(...order);
  });
  const totalsRead = context.db
    .select({ userId: deals.userId, stage: deals.stage, ...stageTotalColumns() })
    .from(deals)
    .where(ownedByAny(deals, ids))
    .groupBy(deals.userId, deals.stage);
  const [groups, ...columnRows] = ids.length > 0 ? await context.db.batch([totalsRead, ...cardReads]) : [[]];

  const totals: Record<string, ColumnTotals> = Object.fromEntries(columns.map((c) => [c.key, { count: 0, valueCents: 0, weightedCents: 0 }]));
  let otherCurrency = 0;
  for (const g of groups) {
    const column = columnFor(g.userId, g.stage);
    if (!column) continue;
    const t = totals[column]!;
    t.count += g.count;
    if (setup.get(g.userId)?.currency === prefs.currency) {
      t.valueCents += g.valueCents;
      t.weightedCents += g.weightedCents;
    } else otherCurrency += g.count;
  }

  const rows = (columnRows as { deal: typeof deals.$inferSelect; contactName: string | null }[][]).flat();
  const coAgents = await coAgentNames(
    context,
    rows.map((r) => r.deal.id),
    ids,
    names,
  );
  const cards: TeamBoardCard[] = [];
  for (const { deal, contactName } of rows) {
    const column = columnFor(deal.userId, deal.stage);
    if (!column || !shown.includes(column)) continue;
    const own = setup.get(deal.userId)!.stages.find((s) => s.key === deal.stage)!;
    cards.push({
      id: deal.id,
      title: deal.title,
      contactId: deal.contactId,
      contactName,
      stage: column,
      dealValueCents: deal.dealValueCents,
      expectedCloseDate: deal.expectedCloseDate,
      closedDate: deal.closedDate,
      probability: deal.probability,
      netCents: null,
      agentId: deal.userId,
      agentName: names.get(deal.userId) ?? "",
      coAgents: coAgents.get(deal.id) ?? [],
      stageLabel: own.key === column ? null : own.name,
      currency: setup.get(deal.userId)!.currency,
    });
  }
  // Deals shared with an agent: in their agent's column as that agent's stage places it (their own stages are read
  // for the few agents who share with the viewer).
  const owners = [...new Set(shared.map((d) => d.ownerId))];
  const ownerStages = new Map(await Promise.all(owners.map(async (id) => [id as string, await getStages(context, id)] as const)));
  for (const d of shared) {
    const own = ownerStages.get(d.ownerId)?.find((s) => s.key === d.stage);
    if (!own) continue;
    const column = teamColumnOf(columns, own);
    totals[column]!.count += 1;
    if (!shown.includes(column)) continue;
    cards.push({
      id: d.id,
      title: d.title,
      contactId: null,
      contactName: null,
      stage: column,
      dealValueCents: d.dealValueCents,
      expectedCloseDate: d.expectedCloseDate,
      closedDate: d.closedDate,
      probability: d.probability,
      netCents: null,
      agentId: d.ownerId,
      agentName: d.ownerName,
      coAgents: ["you"],
      stageLabel: own.key === column ? null : own.name,
      currency: prefs.currency,
    });
    totals[column]!.valueCents += d.dealValueCents;
    totals[column]!.weightedCents += Math.round((d.dealValueCents * d.probability) / 100);
  }
  return { stages: columns, totals, cards, prefs, otherCurrency, empty: Object.values(totals).every((t) => t.count === 0) };
}

/** The co-agents' names of each deal among `dealIds`, deals of `owners` (at most 80 ids a statement with the owners). */
async function coAgentNames(
  context: RequestContext,
  dealIds: string[],
  owners: readonly string[],
  names: ReadonlyMap<string, string>,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const step = Math.max(1, 99 - owners.length);
  for (let i = 0; i < dealIds.length; i += step) {
    const part = dealIds.slice(i, i + step);
    const rows = await context.db
      .select({ dealId: dealShares.dealId, agentId: dealShares.agentId, ownerId: dealShares.ownerId })
      .from(dealShares)
      .where(and(inArray(dealShares.dealId, part), inArray(dealShares.ownerId, owners)));
    for (const r of rows) found.set(r.dealId, [...(found.get(r.dealId) ?? []), names.get(r.agentId) ?? "a former member"]);
  }
  return found;
}
