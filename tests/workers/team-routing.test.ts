import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import {
  auditEvents,
  contacts,
  crmActivities,
  teamLeads,
  teamRouting,
  teamRoutingRules,
  userPreferences,
  type RouteTargetJson,
  type TeamRoutingRule,
} from "~/db/schema";
import { autoReassign } from "~/modules/team/auto-reassign.server";
import { distribution, receiveLead } from "~/modules/team/leads.server";
import { parseUsAddress, ROUTING_MESSAGES } from "~/modules/team/routing";
import { signInAs, type TestBrowser } from "../factories/browser";
import { team } from "../factories/teams";

// Lead routing (ADR 0078): rules in order (first match wins), business hours with an after-hours target in the owner's
// timezone, a daily cap per agent counted by the team's day, and auto-reassign of leads not contacted in time. Every
// instant is fixed and passed in, so the tests pass on any date.

const db = () => createDb(env.DB);
const MINUTE = 60_000;

type Alerted = { agentId: string; contactId: string }[];
const depsWith = (alerted: Alerted = []) => ({
  db: db(),
  alert: (agentId: string, c: { id: string }) => void alerted.push({ agentId, contactId: c.id }),
});

let seq = 0;
/** A new lead of the team's at `at` (a Wednesday 10:00 in Chicago unless said otherwise); answers its row. */
async function arrive(
  teamId: string,
  fields: { source?: string; address?: string | null; price?: number | null; language?: string | null; propertyType?: string | null } = {},
  at = new Date("2026-01-07T16:00:00Z"),
  alerted: Alerted = [],
) {
  const name = `Routed ${++seq}`;
  const property =
    fields.address !== undefined || fields.price !== undefined
      ? { address: fields.address ?? null, priceCents: fields.price ?? null, mls: null, url: null }
      : null;
  await receiveLead(
    depsWith(alerted),
    await distribution(db(), teamId, "Route Realty"),
    {
      name,
      email: null,
      phone: `555-02${String(seq).padStart(2, "0")}`,
      source: (fields.source ?? "website") as never,
      notes: null,
      property,
      language: fields.language ?? null,
      propertyType: (fields.propertyType ?? null) as never,
    },
    null,
    at,
  );
  return (await db()
    .select()
    .from(teamLeads)
    .where(and(eq(teamLeads.teamId, teamId), eq(teamLeads.name, name)))
    .get())!;
}

type RuleFields = Partial<Pick<TeamRoutingRule, "sources" | "minPriceCents" | "maxPriceCents" | "areas" | "language" | "propertyType">>;
/** Replaces the team's rules with these, in order. */
async function rules(teamId: string, list: (RuleFields & { target: RouteTargetJson })[]) {
  await db().delete(teamRoutingRules).where(eq(teamRoutingRules.teamId, teamId));
  for (const [i, r] of list.entries())
    await db()
      .insert(teamRoutingRules)
      .values({ id: crypto.randomUUID(), teamId, position: i + 1, ...r });
}
const to = (agent: string): RouteTargetJson => ({ kind: "agent", agents: [agent] });

/** The owner's timezone is the team's. */
const chicago = (ownerId: string) => db().update(userPreferences).set({ timezone: "America/Chicago" }).where(eq(userPreferences.userId, ownerId));

/** A form post with repeated fields (checkbox lists). */
const postAll = (browser: TestBrowser, path: string, fields: [string, string][]) =>
  browser.fetch(path, {
    method: "POST",
    headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

describe("routing rules", () => {
  it("are checked in order and the first match wins; no match goes by the team's mode", async () => {
    const t = await team("Order Realty");
    await rules(t.teamId, [
      { sources: ["referral"], target: to(t.agentB.id) },
      { areas: ["78723"], target: to(t.agentA.id) },
      { minPriceCents: 300_000_00, maxPriceCents: 600_000_00, target: to(t.admin.id) },
    ]);
    // Matches rules 2 and 3: rule 2 sends it.
    const both = await arrive(t.teamId, { source: "zillow", address: "1 Elm St, Austin, TX 78723", price: 400_000_00 });
    expect(both).toMatchObject({ state: "assigned", assignedTo: t.agentA.id, autoAssigned: true, assignedHow: "by rule 2" });
    expect(both.routing).toMatchObject({ by: "rule", label: "Rule 2: in 78723 → Amara Agent" });
    const third = await arrive(t.teamId, { source: "zillow", address: "1 Elm St, Austin, TX 78701", price: 400_000_00 });
    expect(third).toMatchObject({ assignedTo: t.admin.id });
    const none = await arrive(t.teamId, { source: "zillow", address: "1 Elm St, Austin, TX 78701", price: 100_000_00 });
    expect(none).toMatchObject({ state: "pond", assignedTo: null, routing: null });
    // The agent's contact carries the rule on its timeline.
    const note = await db().select().from(crmActivities).where(eq(crmActivities.contactId, both.contactId!)).get();
    expect(note).toMatchObject({ userId: t.agentA.id, type: "assignment", notes: "New lead from Route Realty's leads, by rule 2." });
  });

  it("match each condition, and only a lead that meets it (source, price, ZIP, city, language, property type)", async () => {
    const t = await team("Conditions Realty");
    const cases: [RuleFields, Parameters<typeof arrive>[1], boolean][] = [
      [{ sources: ["zillow", "realtor_com"] }, { source: "realtor_com" }, true],
      [{ sources: ["zillow"] }, { source: "website" }, false],
      [{ minPriceCents: 300_000_00, maxPriceCents: 500_000_00 }, { price: 500_000_00 }, true],
      [{ minPriceCents: 300_000_00, maxPriceCents: 500_000_00 }, { price: 500_000_01 }, false],
      [{ minPriceCents: 300_000_00 }, { address: "1 Elm St, Austin, TX 78723" }, false],
      [{ areas: ["78723"] }, { address: "1 Elm St, Austin, TX 78723-1234" }, true],
      [{ areas: ["78723"] }, { address: "1 Elm St, Austin, TX 78701" }, false],
      [{ areas: ["round rock"] }, { address: "5 Oak Ln, Round  Rock, TX 78664, USA" }, true],
      [{ areas: ["austin"] }, { address: "5 Oak Ln, Round Rock, TX 78664" }, false],
      [{ language: "Spanish" }, { language: "spanish" }, true],
      [{ language: "Spanish" }, { language: null }, false],
      [{ propertyType: "condo" }, { propertyType: "condo" }, true],
      [{ propertyType: "condo" }, { propertyType: "house" }, false],
    ];
    for (const [rule, lead, matches] of cases) {
      await rules(t.teamId, [{ ...rule, target: to(t.agentA.id) }]);
      const row = await arrive(t.teamId, lead);
      expect({ rule, lead, state: row.state, to: row.assignedTo }).toEqual({
        rule,
        lead,
        state: matches ? "assigned" : "pond",
        to: matches ? t.agentA.id : null,
      });
    }
    expect(parseUsAddress("12 Elm St, Austin, TX 78723")).toEqual({ zip: "78723", city: "austin" });
    expect(parseUsAddress("12 Elm St Austin TX 78723")).toEqual({ zip: "78723", city: null });
    expect(parseUsAddress("12 Elm St, Austin")).toEqual({ zip: null, city: null });
    expect(parseUsAddress("Austin TX 78723")).toEqual({ zip: "78723", city: null });
  });

  it("a group takes leads in turn with its own pointer, skipping the paused", async () => {
    const t = await team("Group Realty");
    await rules(t.teamId, [{ target: { kind: "group", agents: [t.agentA.id, t.agentB.id, t.admin.id] } }]);
    const got: (string | null)[] = [];
    for (let i = 0; i < 6; i++) got.push((await arrive(t.teamId)).assignedTo);
    expect(got).toEqual([t.agentA.id, t.agentB.id, t.admin.id, t.agentA.id, t.agentB.id, t.admin.id]);
    const { teamMembers } = await import("~/db/schema");
    await db().update(teamMembers).set({ available: false }).where(eq(teamMembers.userId, t.agentA.id));
    expect((await arrive(t.teamId)).assignedTo).toBe(t.agentB.id);
    expect((await arrive(t.teamId)).assignedTo).toBe(t.admin.id);
    expect((await arrive(t.teamId)).assignedTo).toBe(t.agentB.id);
  });
});

describe("business hours and the daily cap", () => {
  it("outside business hours (owner's timezone, weekends included) the after-hours target takes the lead", async () => {
    const t = await team("Hours Realty");
    await chicago(t.owner.id);
    await rules(t.teamId, [{ target: to(t.agentA.id) }]);
    const hours = { days: [1, 2, 3, 4, 5], from: "09:00", to: "17:00" };
    await db()
      .insert(teamRouting)
      .values({ teamId: t.teamId, businessHours: hours, afterHours: to(t.agentB.id) });
    // Wednesday 7 January 2026 in Chicago (UTC−6); Saturday the 10th.
    const at = (iso: string) => new Date(iso);
    expect((await arrive(t.teamId, {}, at("2026-01-07T14:59:00Z"))).assignedTo).toBe(t.agentB.id); // 08:59
    expect((await arrive(t.teamId, {}, at("2026-01-07T15:00:00Z"))).assignedTo).toBe(t.agentA.id); // 09:00
    expect((await arrive(t.teamId, {}, at("2026-01-07T22:59:00Z"))).assignedTo).toBe(t.agentA.id); // 16:59
    const evening = await arrive(t.teamId, {}, at("2026-01-07T23:00:00Z")); // 17:00
    expect(evening).toMatchObject({ assignedTo: t.agentB.id, assignedHow: "after hours" });
    expect(evening.routing?.label).toBe("After hours → Bea Agent");
    expect((await arrive(t.teamId, {}, at("2026-01-10T18:00:00Z"))).assignedTo).toBe(t.agentB.id); // Saturday noon
    await db()
      .update(teamRouting)
      .set({ afterHours: { kind: "pond", agents: [] } })
      .where(eq(teamRouting.teamId, t.teamId));
    const pond = await arrive(t.teamId, {}, at("2026-01-10T18:00:00Z"));
    expect(pond).toMatchObject({ state: "pond", assignedTo: null });
    expect(pond.routing?.label).toBe("After hours → pond");
    expect(await (await signInAs(t.owner)).page("/team/leads")).toContain("After hours → pond");
  });

  it("an agent at the cap is skipped, all capped goes to the pond, and the day is the team's", async () => {
    const t = await team("Cap Realty");
    await chicago(t.owner.id);
    await rules(t.teamId, [{ target: { kind: "group", agents: [t.agentA.id, t.agentB.id] } }]);
    await db().insert(teamRouting).values({ teamId: t.teamId, dailyCap: 2 });
    const at = (iso: string) => new Date(iso);
    const got: (string | null)[] = [];
    for (const iso of ["2026-01-07T16:00:00Z", "2026-01-07T16:01:00Z", "2026-01-07T16:02:00Z", "2026-01-07T16:03:00Z"])
      got.push((await arrive(t.teamId, {}, at(iso))).assignedTo);
    expect(got).toEqual([t.agentA.id, t.agentB.id, t.agentA.id, t.agentB.id]);
    // 23:59 in Chicago is already the 8th in UTC: still the 7th for the team, so both are capped.
    expect(await arrive(t.teamId, {}, at("2026-01-08T05:59:00Z"))).toMatchObject({ state: "pond", assignedTo: null });
    // 00:01 on the 8th in Chicago: a new day.
    expect((await arrive(t.teamId, {}, at("2026-01-08T06:01:00Z"))).assignedTo).toBe(t.agentA.id);
  });
});

describe("auto-reassign", () => {
  async function reassignTeam(name: string) {
    const t = await team(name);
    await rules(t.teamId, [{ target: { kind: "group", agents: [t.agentA.id, t.agentB.id, t.admin.id] } }]);
    await db().insert(teamRouting).values({ teamId: t.teamId, reassignMinutes: 15, reassignMax: 2 });
    return t;
  }
  const T = new Date("2026-03-04T15:00:00Z");
  const later = (ms: number) => new Date(T.getTime() + ms);

  it("moves a lead not contacted at N minutes (not before), on the timeline, audited and alerted, at most M times", async () => {
    const t = await reassignTeam("Hop Realty");
    const lead = await arrive(t.teamId, {}, T);
    expect(lead.assignedTo).toBe(t.agentA.id);
    const alerted: Alerted = [];
    const deps = depsWith(alerted);
    expect(await autoReassign(deps, later(15 * MINUTE - 1_000))).toBe(0);
    expect(await autoReassign(deps, later(15 * MINUTE))).toBe(1);
    const moved = (await db().select().from(teamLeads).where(eq(teamLeads.id, lead.id)).get())!;
    expect(moved).toMatchObject({ assignedTo: t.agentB.id, heldBy: t.agentB.id, hops: 1, contactId: lead.contactId });
    expect(moved.routing?.label).toBe("Reassigned automatically (1 of 2) → Bea Agent");
    // The same contact, now Bea's, with the hop on its timeline.
    expect(await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, lead.contactId!)).get()).toEqual({
      userId: t.agentB.id,
    });
    const notes = await db().select().from(crmActivities).where(eq(crmActivities.contactId, lead.contactId!));
    expect(notes.map((n) => n.notes)).toContain("Reassigned automatically: not contacted within 15 minutes.");
    expect(alerted).toEqual([{ agentId: t.agentB.id, contactId: lead.contactId }]);
    const audit = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.teamId, t.teamId), eq(auditEvents.action, "lead.reassigned")));
    expect(audit).toMatchObject([{ actorId: null, subjectUserId: t.agentB.id, targetId: lead.id, details: { from: "Amara Agent", hop: "1 of 2" } }]);
    // Fifteen minutes from the hop, not from arrival.
    expect(await autoReassign(deps, later(29 * MINUTE))).toBe(0);
    expect(await autoReassign(deps, later(30 * MINUTE))).toBe(1);
    expect(await db().select().from(teamLeads).where(eq(teamLeads.id, lead.id)).get()).toMatchObject({ assignedTo: t.admin.id, hops: 2 });
    // M = 2: no third hop.
    expect(await autoReassign(deps, later(120 * MINUTE))).toBe(0);
    expect((await db().select().from(teamLeads).where(eq(teamLeads.id, lead.id)).get())?.routing?.label).toBe(
      "Reassigned automatically (2 of 2) → Ada Admin",
    );
  });

  it("never moves a lead with an activity logged, and two passes at once move a lead once", async () => {
    const t = await reassignTeam("Race Realty");
    const worked = await arrive(t.teamId, {}, T);
    await db()
      .insert(crmActivities)
      .values({
        id: crypto.randomUUID(),
        userId: worked.assignedTo!,
        contactId: worked.contactId!,
        type: "note",
        notes: "Left a voicemail",
        occurredAt: later(MINUTE),
      });
    const idle = await arrive(t.teamId, {}, T);
    const [a, b] = await Promise.all([autoReassign(depsWith(), later(20 * MINUTE)), autoReassign(depsWith(), later(20 * MINUTE))]);
    expect(a + b).toBe(1);
    expect(await db().select().from(teamLeads).where(eq(teamLeads.id, worked.id)).get()).toMatchObject({ assignedTo: worked.assignedTo, hops: 0 });
    const hopped = (await db().select().from(teamLeads).where(eq(teamLeads.id, idle.id)).get())!;
    expect(hopped.hops).toBe(1);
    expect(hopped.assignedTo).not.toBe(idle.assignedTo);
    const hopNotes = await db()
      .select()
      .from(crmActivities)
      .where(and(eq(crmActivities.contactId, idle.contactId!), eq(crmActivities.type, "assignment")));
    expect(hopNotes).toHaveLength(2);
    expect(
      await db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.teamId, t.teamId), eq(auditEvents.action, "lead.reassigned"))),
    ).toHaveLength(1);
  });
});

describe("who may change routing", () => {
  it("the owner saves and orders rules with an audit row; refusals change nothing; agents 403; another team 404", async () => {
    const t = await team("Rules Realty");
    const owner = await signInAs(t.owner);
    const rule = (extra: [string, string][]) =>
      [["intent", "rule-save"], ["rule", ""], ["target", "agent"], ["agent", t.agentA.id], ...extra] as [string, string][];
    expect((await postAll(owner, "/team/routing", rule([["sources", "zillow"]]))).status).toBe(302);
    expect((await postAll(owner, "/team/routing", rule([["areas", "78723, Austin"]]))).status).toBe(302);
    const saved = await db().select().from(teamRoutingRules).where(eq(teamRoutingRules.teamId, t.teamId)).orderBy(teamRoutingRules.position);
    expect(saved.map((r) => [r.position, r.sources, r.areas])).toEqual([
      [1, ["zillow"], []],
      [2, [], ["78723", "austin"]],
    ]);
    const audits = () =>
      db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.teamId, t.teamId), eq(auditEvents.action, "team.settings_changed")));
    expect(await audits()).toHaveLength(2);

    // Refusals: a clear message, nothing written.
    const bad = await postAll(
      owner,
      "/team/routing",
      rule([
        ["minPrice", "500000"],
        ["maxPrice", "300000"],
      ]),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(ROUTING_MESSAGES.priceOrder);
    const noGroup = await postAll(owner, "/team/routing", [
      ["intent", "rule-save"],
      ["target", "group"],
      ["group", t.agentA.id],
    ]);
    expect(noGroup.status).toBe(400);
    expect(await noGroup.text()).toContain(ROUTING_MESSAGES.group);
    const badCap = await postAll(owner, "/team/routing", [
      ["intent", "settings"],
      ["dailyCap", "0"],
    ]);
    expect(badCap.status).toBe(400);
    expect(await badCap.text()).toContain("The daily cap is a whole number of leads from 1 to 500");
    expect(await db().select().from(teamRoutingRules).where(eq(teamRoutingRules.teamId, t.teamId))).toHaveLength(2);
    expect(await db().select().from(teamRouting).where(eq(teamRouting.teamId, t.teamId))).toHaveLength(0);
    expect(await audits()).toHaveLength(2);

    // Move rule 2 up.
    expect((await owner.post("/team/routing", { intent: "rule-up", rule: saved[1]!.id })).status).toBe(302);
    const order = await db().select().from(teamRoutingRules).where(eq(teamRoutingRules.teamId, t.teamId)).orderBy(teamRoutingRules.position);
    expect(order.map((r) => r.id)).toEqual([saved[1]!.id, saved[0]!.id]);

    // An agent reads the rules but cannot change them.
    const agent = await signInAs(t.agentA);
    const page = await agent.page("/team/routing");
    expect(page).toContain("Zillow");
    expect(page).toContain("Rules in order");
    expect(page).not.toContain("Add a rule");
    expect((await agent.post("/team/routing", { intent: "rule-delete", rule: saved[0]!.id })).status).toBe(403);
    expect((await postAll(agent, "/team/routing", rule([["sources", "zillow"]]))).status).toBe(403);
    // Another team's owner cannot touch them.
    const other = await team("Elsewhere Realty");
    const stranger = await signInAs(other.owner);
    expect((await stranger.post("/team/routing", { intent: "rule-delete", rule: saved[0]!.id })).status).toBe(404);
    expect((await stranger.post("/team/routing", { intent: "rule-down", rule: saved[1]!.id })).status).toBe(404);
    expect(await db().select().from(teamRoutingRules).where(eq(teamRoutingRules.teamId, t.teamId))).toHaveLength(2);
    expect(await audits()).toHaveLength(3);

    // Settings save: one audit row.
    const settings: [string, string][] = [
      ["intent", "settings"],
      ["hoursOn", "on"],
      ["days", "1"],
      ["days", "2"],
      ["from", "09:00"],
      ["to", "17:00"],
      ["afterHours", "pond"],
      ["dailyCap", "5"],
      ["reassignMinutes", "15"],
      ["reassignMax", "2"],
    ];
    expect((await postAll(owner, "/team/routing", settings)).status).toBe(302);
    expect(await db().select().from(teamRouting).where(eq(teamRouting.teamId, t.teamId)).get()).toMatchObject({
      businessHours: { days: [1, 2], from: "09:00", to: "17:00" },
      afterHours: { kind: "pond", agents: [] },
      dailyCap: 5,
      reassignMinutes: 15,
      reassignMax: 2,
    });
    expect(await audits()).toHaveLength(4);
  });
});
