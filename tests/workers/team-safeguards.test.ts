import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, emailOutbox, teamCommissionPlans, teamLeads, teamMembers } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { PLAN_LABELS } from "~/modules/commissions/plan.schema";
import { leadsArrived, leadTotals } from "~/modules/reports/figures.server";
import { LEAD_MESSAGES } from "~/modules/team/leads.server";
import { removalSummary } from "~/modules/team/removal";
import { signInAs } from "../factories/browser";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";
import { runHandover } from "../factories/durable-jobs";

// What a team lead needs to trust the team pages: removals and plan switches that say what they do first, the agents
// told of leads waiting for them, a lead's record that keeps who got it, and the team's plan shown whole.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
const says = (text: string, message: string) => text.includes(message) || text.includes(escapeHtml(message));
const mailTo = (email: string, kind: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, email.toLowerCase()), eq(emailOutbox.kind, kind)));
const leadNamed = async (teamId: string, name: string) =>
  (await db()
    .select()
    .from(teamLeads)
    .where(and(eq(teamLeads.teamId, teamId), eq(teamLeads.name, name)))
    .get())!;
const unique = (name: string) => `${name} ${crypto.randomUUID().slice(0, 6)}`;

describe("removing a member", () => {
  it("asks first, saying with counts what moves to whom; a removal without that confirmation changes nothing", async () => {
    const t = await team("Confirm Removal Realty");
    await db()
      .insert(contacts)
      .values([
        { id: crypto.randomUUID(), userId: t.agentA.id, name: "Amara One" },
        { id: crypto.randomUUID(), userId: t.agentA.id, name: "Amara Two" },
      ]);
    const owner = await signInAs(t.owner);
    const page = await owner.page("/team");
    expect(says(page, removalSummary("Amara Agent", { contacts: 2, deals: 0, tasks: 0, activities: 0, leads: 0 }, null))).toBe(true);
    expect(page).toContain("Remove Amara Agent from the team…");

    const bare = await owner.post("/team", { intent: "remove", memberId: t.agentA.id, reassignTo: t.agentB.id });
    expect(bare.status).toBe(400);
    expect(says(await bare.text(), "Open Remove… and confirm")).toBe(true);
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toMatchObject({ teamId: t.teamId });

    const { response: confirmed } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id }),
    );
    expect(confirmed.status).toBe(302);
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toBeUndefined();
    // The removed member is told, with where their work went and how to go on.
    const [mail] = await mailTo(t.agentA.email, "team_removal");
    expect(mail).toMatchObject({ subject: "You were removed from Confirm Removal Realty" });
    expect(mail!.textBody).toContain("gave your contacts, deals, tasks, activities and leads to Bea Agent");
    expect(mail!.textBody).toMatch(/https?:\/\/[^\s]+\/pricing/);
  });

  it("keeps who got a lead and whose speed to lead it was when the lead is handed to a teammate", async () => {
    const t = await team("Kept Claim Realty");
    const owner = await signInAs(t.owner);
    const name = unique("Claimed Lead");
    expect((await owner.post("/team/leads", { intent: "add", name, phone: "555-0150", email: "", source: "referral", message: "" })).status).toBe(
      302,
    );
    const amara = await signInAs(t.agentA);
    const pond = await leadNamed(t.teamId, name);
    expect((await amara.post("/team/leads", { intent: "claim", lead: pond.id })).status).toBe(302);
    const claimed = await leadNamed(t.teamId, name);
    // Amara answers it three minutes later: that time is hers.
    await db()
      .insert(crmActivities)
      .values({
        id: crypto.randomUUID(),
        userId: t.agentA.id,
        contactId: claimed.contactId,
        type: "call",
        occurredAt: new Date(claimed.assignedAt!.getTime() + 180_000),
      });
    const lo = claimed.assignedAt!.getTime() - 60_000;
    const hi = claimed.assignedAt!.getTime() + 86_400_000;
    const speed = async (agentId: string) => leadTotals(await leadsArrived(db(), agentId as UserId, [{ lo, hi }]));
    expect(await speed(t.agentA.id)).toEqual({ leads: 1, times: [180_000], waiting: 0 });

    const { response, job } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id }),
    );
    expect([response.status, job.status]).toEqual([302, "succeeded"]);
    expect(await leadNamed(t.teamId, name)).toMatchObject({
      assignedTo: t.agentA.id,
      assignedHow: "claimed",
      heldBy: t.agentB.id,
      contactId: claimed.contactId,
    });
    expect(
      await db().select({ userId: contacts.userId, answeredBy: contacts.answeredBy }).from(contacts).where(eq(contacts.id, claimed.contactId!)).get(),
    ).toEqual({ userId: t.agentB.id, answeredBy: t.agentA.id });
    // Bea's speed to lead does not take Amara's answer; the page says who got it and who holds it now.
    expect(await speed(t.agentB.id)).toEqual({ leads: 0, times: [], waiting: 0 });
    const page = (await owner.page("/team/leads")).replace(/<!-- -->/g, "");
    expect(page.includes(`${name} → A former member (now with Bea Agent)`), "the assigned lead's line").toBe(true);
  });
});

describe("switching to the Team plan", () => {
  it("is refused without the confirmation that states the new price", async () => {
    const solo = await createUser(env.DB);
    const browser = await signInAs(solo);
    const billing = await browser.page("/settings?tab=billing");
    expect(billing).toContain("the Team plan costs $35 a seat per month, at least 2 seats: $70 a month instead of $40 a month on the Solo plan");
    const bare = await browser.post("/settings", { intent: "team-plan", teamName: "Unconfirmed Team" });
    expect(bare.status).toBe(400);
    expect(says(await bare.text(), "Confirm the switch")).toBe(true);
    expect((await browser.fetch("/team")).status).toBe(404);
  });
});

describe("leads waiting for an agent", () => {
  it("e-mails every available member but the one who added it, once for a lead or a whole import, and never a paused member", async () => {
    const t = await team("Waiting Mail Realty");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team/leads", { intent: "settings", mode: "claim", claimWindowMinutes: "10" })).status).toBe(302);
    expect((await owner.post("/team/leads", { intent: "availability", member: t.agentB.id, available: "false" })).status).toBe(302);
    const name = unique("Offered Lead");
    expect((await owner.post("/team/leads", { intent: "add", name, phone: "555-0160", email: "", source: "open_house", message: "" })).status).toBe(
      302,
    );
    await vi.waitFor(async () => expect(await mailTo(t.agentA.email, "team_lead_waiting")).toHaveLength(1), { timeout: 5_000 });
    const [offer] = await mailTo(t.agentA.email, "team_lead_waiting");
    expect(offer).toMatchObject({ subject: `New lead to claim: ${name}` });
    expect(offer!.textBody).toContain("offered to every available agent at Waiting Mail Realty for 10 minutes");
    expect(offer!.textBody).toMatch(/https?:\/\/[^\s]+\/team\/leads/);
    expect(offer!.textBody).not.toContain("555-0160");
    expect(await mailTo(t.admin.email, "team_lead_waiting")).toHaveLength(1);
    expect(await mailTo(t.agentB.email, "team_lead_waiting")).toHaveLength(0);
    expect(await mailTo(t.owner.email, "team_lead_waiting")).toHaveLength(0);

    // A file of three leads into the pond: one more e-mail each, naming the three.
    expect((await owner.post("/team/leads", { intent: "settings", mode: "pond", claimWindowMinutes: "10" })).status).toBe(302);
    const body = new FormData();
    body.set("intent", "import");
    body.set("file", new File(["Name,Phone\nPond One,555-0161\nPond Two,555-0162\nPond Three,555-0163\n"], "leads.csv", { type: "text/csv" }));
    expect((await owner.fetch("/team/leads", { method: "POST", headers: { Origin: "http://localhost" }, body })).status).toBe(302);
    await vi.waitFor(async () => expect(await mailTo(t.agentA.email, "team_lead_waiting")).toHaveLength(2), { timeout: 5_000 });
    const pond = (await mailTo(t.agentA.email, "team_lead_waiting")).find((m) => m.subject.includes("pond"))!;
    expect(pond.subject).toBe("3 new leads in Waiting Mail Realty's pond");
    expect(pond.textBody).toContain("Pond One (Other), Pond Two (Other), Pond Three (Other)");
  });

  it("asks where a lead added by hand came from, and stores nothing without it", async () => {
    const t = await team("Source Realty");
    const owner = await signInAs(t.owner);
    const name = unique("Sourceless");
    const reply = await owner.post("/team/leads", { intent: "add", name, phone: "555-0170", email: "", message: "" });
    expect(reply.status).toBe(400);
    expect(says(await reply.text(), LEAD_MESSAGES.source)).toBe(true);
    expect(await db().select().from(teamLeads).where(eq(teamLeads.name, name))).toEqual([]);
  });

  it("offers ownership by e-mail to the member chosen", async () => {
    const t = await team("Offer Mail Realty");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.admin.id })).status).toBe(302);
    const [mail] = await mailTo(t.admin.email, "team_ownership_offer");
    expect(mail).toMatchObject({ subject: "Olu Okafor offers you ownership of Offer Mail Realty" });
    expect(mail!.textBody).toContain("its 4 seats move to your own subscription on the Team plan");
    expect(mail!.textBody).toMatch(/https?:\/\/[^\s]+\/team/);
  });
});

describe("the team's commission plan, read-only", () => {
  it("shows an agent every term of it, the referral fee, E&O fee and cap year included", async () => {
    const t = await team("Plan Terms Realty");
    await db().insert(teamCommissionPlans).values({
      teamId: t.teamId,
      defaultRate: 2.5,
      referralFeePct: 25,
      brokerageSplitPct: 20,
      brokerageCapCents: 1_600_000,
      capYearStart: "04-15",
      teamSplitPct: 10,
      transactionFeeCents: 39_500,
      eoFeeCents: 12_500,
      franchiseFeePct: 6,
    });
    const page = await (await signInAs(t.agentA)).page("/team");
    for (const label of Object.values(PLAN_LABELS)) expect(says(page, label), label).toBe(true);
    for (const value of ["25%", "04-15", "$125.00", "6%", "$16,000.00"]) expect(page, value).toContain(value);
  });
});
