import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, leadAlerts, teamLeads, teamMembers } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { CONTACT_MESSAGES } from "~/modules/contacts/contacts.messages";
import { claimLead, LEAD_MESSAGES, settleExpiredOffers } from "~/modules/team/leads.server";
import { getMembership } from "~/modules/team/team.server";
import { signInAs, type TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";

// Lead distribution (ADR 0038): the team's new leads go to a pond, by round robin among available members,
// or to the first to claim them within a claim window (then round robin). An assigned lead is a hot contact of the
// agent's, made at that moment, with the assignment on its timeline and a new-lead alert.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
const says = (text: string, message: string) => text.includes(message) || text.includes(escapeHtml(message));
const leadsOf = (teamId: string) => db().select().from(teamLeads).where(eq(teamLeads.teamId, teamId));
const deps = { db: db(), alert: () => undefined };
const MINUTE = 60_000;

let seq = 0;
/** A lead's form fields, each lead its own name. */
const lead = (fields: Record<string, string> = {}) => ({
  intent: "add",
  name: `Lead ${++seq}`,
  phone: `555-01${String(seq).padStart(2, "0")}`,
  email: "",
  source: "website",
  message: "Wants a 3-bed near the park",
  ...fields,
});

async function settings(browser: TestBrowser, mode: string, claimWindowMinutes = "15") {
  expect((await browser.post("/team/leads", { intent: "settings", mode, claimWindowMinutes })).status).toBe(302);
}

/** A CSV file of leads posted as the page's form does (multipart). */
function importFile(browser: TestBrowser, csv: string) {
  const body = new FormData();
  body.set("intent", "import");
  body.set("file", new File([csv], "leads.csv", { type: "text/csv" }));
  return browser.fetch("/team/leads", { method: "POST", headers: { Origin: "http://localhost" }, body });
}

describe("lead distribution", () => {
  it("round robin: every available member in turn, the paused skipped; each lead a hot contact with its assignment and alert", async () => {
    const t = await team("Rotation Realty");
    const owner = await signInAs(t.owner);
    await settings(owner, "round_robin");
    // The owner pauses themselves: the admin and the two agents share the leads.
    expect((await owner.post("/team/leads", { intent: "availability", member: t.owner.id, available: "false" })).status).toBe(302);
    for (let i = 0; i < 9; i++) expect((await owner.post("/team/leads", lead())).status).toBe(302);

    const leads = (await leadsOf(t.teamId)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.name < b.name ? -1 : 1));
    expect(leads.every((l) => l.state === "assigned" && l.assignedHow === "round robin")).toBe(true);
    const counts = new Map<string, number>();
    for (const l of leads) counts.set(l.assignedTo!, (counts.get(l.assignedTo!) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ [t.admin.id]: 3, [t.agentA.id]: 3, [t.agentB.id]: 3 });
    // In turn: any three leads in a row went to three different members.
    const byName = leads.sort((a, b) => Number(a.name.split(" ")[1]) - Number(b.name.split(" ")[1]));
    for (let i = 0; i + 2 < byName.length; i++) expect(new Set(byName.slice(i, i + 3).map((l) => l.assignedTo)).size).toBe(3);

    // Each is a hot contact of its agent, made when it was assigned, with the note on its timeline and an alert.
    const first = byName[0]!;
    const contact = await db().select().from(contacts).where(eq(contacts.id, first.contactId!)).get();
    expect(contact).toMatchObject({
      userId: first.assignedTo,
      name: first.name,
      status: "hot",
      source: "website",
      notes: "Wants a 3-bed near the park",
      firstResponseAt: null,
    });
    expect(contact!.createdAt.getTime()).toBe(first.assignedAt!.getTime());
    const timeline = await db().select().from(crmActivities).where(eq(crmActivities.contactId, contact!.id));
    expect(timeline).toMatchObject([{ userId: first.assignedTo, type: "assignment", notes: "New lead from Rotation Realty's leads, round robin." }]);
    expect(await db().select().from(leadAlerts).where(eq(leadAlerts.contactId, contact!.id)).get()).toMatchObject({ userId: first.assignedTo });
    // The agent sees it in their own Contacts; the assignment is not an answer, nor counted as an activity logged.
    const agent = [t.admin, t.agentA, t.agentB].find((u) => u.id === first.assignedTo)!;
    const agentPage = await (await signInAs(agent)).page(`/contacts/${contact!.id}`);
    expect(agentPage).toContain("Lead assigned");
    expect(agentPage).toContain(escapeHtml("New lead from Rotation Realty's leads, round robin."));

    // With nobody available, a lead waits in the pond.
    for (const id of [t.admin.id, t.agentA.id, t.agentB.id])
      await owner.post("/team/leads", { intent: "availability", member: id, available: "false" });
    expect((await owner.post("/team/leads", lead({ name: "Nobody Home" }))).status).toBe(302);
    expect((await leadsOf(t.teamId)).find((l) => l.name === "Nobody Home")).toMatchObject({ state: "pond", assignedTo: null, contactId: null });
  });

  it("first to claim: one claim wins, the other is told; after the window round robin takes it, or the pond", async () => {
    const t = await team("Claim Realty");
    const owner = await signInAs(t.owner);
    await settings(owner, "claim", "10");
    const added = Date.now();
    expect((await owner.post("/team/leads", lead({ name: "Race Lead" }))).status).toBe(302);
    const offered = (await leadsOf(t.teamId)).find((l) => l.name === "Race Lead")!;
    expect(offered.state).toBe("offered");
    expect(offered.offeredUntil!.getTime() - added).toBeGreaterThanOrEqual(10 * MINUTE - 1_000);
    expect(offered.offeredUntil!.getTime() - added).toBeLessThanOrEqual(10 * MINUTE + 5_000);

    // Two agents claim at once: exactly one gets it, and exactly one contact is made.
    const [a, b] = await Promise.all([signInAs(t.agentA), signInAs(t.agentB)]);
    const replies = await Promise.all([
      a.post("/team/leads", { intent: "claim", lead: offered.id }),
      b.post("/team/leads", { intent: "claim", lead: offered.id }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([302, 409]);
    const loser = replies.find((r) => r.status === 409)!;
    expect(says(await loser.text(), LEAD_MESSAGES.taken)).toBe(true);
    const won = (await leadsOf(t.teamId)).find((l) => l.id === offered.id)!;
    expect(won).toMatchObject({ state: "assigned", assignedHow: "claimed" });
    expect([t.agentA.id, t.agentB.id]).toContain(won.assignedTo);
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.name, "Race Lead"), inArray(contacts.userId, [t.agentA.id, t.agentB.id]))),
    ).toHaveLength(1);

    // Unclaimed past its window: the cron gives it to the next available member.
    expect((await owner.post("/team/leads", lead({ name: "Late Lead" }))).status).toBe(302);
    expect(await settleExpiredOffers(deps, new Date(Date.now() + 9 * MINUTE), t.teamId)).toBe(0);
    expect(await settleExpiredOffers(deps, new Date(Date.now() + 11 * MINUTE), t.teamId)).toBe(1);
    expect((await leadsOf(t.teamId)).find((l) => l.name === "Late Lead")).toMatchObject({
      state: "assigned",
      assignedHow: "round robin, after the claim window",
    });

    // A claim that comes after the window is refused, and the lead goes round robin then.
    expect((await owner.post("/team/leads", lead({ name: "Slow Claim" }))).status).toBe(302);
    const slow = (await leadsOf(t.teamId)).find((l) => l.name === "Slow Claim")!;
    const membership = (await getMembership(requestContext(), t.agentA.id as UserId))!;
    const refused = await claimLead(requestContext(), membership, deps, t.agentA.id as UserId, slow.id, new Date(Date.now() + 11 * MINUTE));
    expect(refused).toEqual({ ok: false, status: 409, error: LEAD_MESSAGES.windowPassed });
    expect((await leadsOf(t.teamId)).find((l) => l.id === slow.id)).toMatchObject({
      state: "assigned",
      assignedHow: "round robin, after the claim window",
    });

    // Nobody available when the window passes: back to the pond.
    await db().update(teamMembers).set({ available: false }).where(eq(teamMembers.teamId, t.teamId));
    expect((await owner.post("/team/leads", lead({ name: "Quiet Lead" }))).status).toBe(302);
    await settleExpiredOffers(deps, new Date(Date.now() + 11 * MINUTE), t.teamId);
    expect((await leadsOf(t.teamId)).find((l) => l.name === "Quiet Lead")).toMatchObject({ state: "pond", offeredUntil: null, assignedTo: null });
  });

  it("the pond: agents claim, managers assign and reassign an unanswered lead; the rules hold and bad input changes nothing", async () => {
    const t = await team("Pond Realty");
    const other = await team("Other Pond Realty");
    const owner = await signInAs(t.owner);
    const admin = await signInAs(t.admin);
    const amara = await signInAs(t.agentA);
    const bea = await signInAs(t.agentB);
    expect((await admin.post("/team/leads", lead({ name: "Pond Lead", phone: "555-0199" }))).status).toBe(302);
    const pond = (await leadsOf(t.teamId)).find((l) => l.name === "Pond Lead")!;
    expect(pond).toMatchObject({ state: "pond", addedBy: t.admin.id });
    // Agents see who is waiting, not how to reach them, until the lead is theirs.
    const agentView = await amara.page("/team/leads");
    expect(agentView).toContain("Pond Lead");
    expect(agentView).not.toContain("555-0199");
    expect(await owner.page("/team/leads")).toContain("555-0199");

    // The managers' actions are refused to agents, and nothing changes.
    const before = await leadsOf(t.teamId);
    // (Adding and assigning are the lead desk's, which an ISA shares: ADR 0080.)
    for (const [fields, message] of [
      [lead({ name: "Sneaky" }), LEAD_MESSAGES.deskOnly],
      [{ intent: "assign", lead: pond.id, agent: t.agentA.id }, LEAD_MESSAGES.deskOnly],
      [{ intent: "settings", mode: "round_robin", claimWindowMinutes: "5" }, LEAD_MESSAGES.managersOnly],
      [{ intent: "availability", member: t.agentB.id, available: "false" }, LEAD_MESSAGES.managersOnly],
    ] as [Record<string, string>, string][]) {
      const reply = await amara.post("/team/leads", fields);
      expect(reply.status, JSON.stringify(fields)).toBe(403);
      expect(says(await reply.text(), message)).toBe(true);
    }
    // Bad input: a clear message, nothing saved.
    for (const [fields, status, message] of [
      [lead({ name: "" }), 400, CONTACT_MESSAGES.nameRequired],
      [lead({ name: "No Way To Reach", phone: "", email: "" }), 400, CONTACT_MESSAGES.phoneOrEmail],
      [lead({ email: "not-an-address" }), 400, "Please enter a valid email address."],
      [{ intent: "settings", mode: "lottery", claimWindowMinutes: "5" }, 400, LEAD_MESSAGES.mode],
      [{ intent: "settings", mode: "claim", claimWindowMinutes: "0" }, 400, LEAD_MESSAGES.window],
      [{ intent: "settings", mode: "claim", claimWindowMinutes: "2.5" }, 400, LEAD_MESSAGES.window],
      [{ intent: "assign", lead: pond.id, agent: other.agentA.id }, 400, LEAD_MESSAGES.notAMember],
      [{ intent: "assign", lead: crypto.randomUUID(), agent: t.agentA.id }, 404, LEAD_MESSAGES.notFound],
      [{ intent: "claim", lead: "" }, 404, LEAD_MESSAGES.notFound],
      [{ intent: "lottery" }, 400, "Unknown action."],
    ] as const) {
      const reply = await owner.post("/team/leads", fields);
      expect(reply.status, JSON.stringify(fields)).toBe(status);
      if (message) expect(says(await reply.text(), message), message).toBe(true);
    }
    expect(await leadsOf(t.teamId)).toEqual(before);
    // Another team's lead is not there for this team.
    expect((await (await signInAs(other.owner)).post("/team/leads", lead({ name: "Their Lead" }))).status).toBe(302);
    const theirs = (await leadsOf(other.teamId)).find((l) => l.name === "Their Lead")!;
    expect((await amara.post("/team/leads", { intent: "claim", lead: theirs.id })).status).toBe(404);
    expect((await owner.post("/team/leads", { intent: "assign", lead: theirs.id, agent: t.agentA.id })).status).toBe(404);
    expect((await leadsOf(other.teamId)).find((l) => l.id === theirs.id)).toMatchObject({ state: "pond" });

    // An agent claims; a second claim is refused.
    expect((await amara.post("/team/leads", { intent: "claim", lead: pond.id })).status).toBe(302);
    expect((await bea.post("/team/leads", { intent: "claim", lead: pond.id })).status).toBe(409);
    // A paused agent cannot claim.
    expect((await admin.post("/team/leads", lead({ name: "Second Pond Lead" }))).status).toBe(302);
    const second = (await leadsOf(t.teamId)).find((l) => l.name === "Second Pond Lead")!;
    expect((await bea.post("/team/leads", { intent: "availability", member: t.agentB.id, available: "false" })).status).toBe(302);
    const paused = await bea.post("/team/leads", { intent: "claim", lead: second.id });
    expect(paused.status).toBe(409);
    expect(says(await paused.text(), LEAD_MESSAGES.unavailable)).toBe(true);

    // The admin assigns it to Bea, then reassigns it to Amara: Bea's contact moves to Amara as it is (nothing of
    // anyone's is deleted), her timer starting at the reassignment, and Amara's timeline says so.
    expect((await admin.post("/team/leads", { intent: "assign", lead: second.id, agent: t.agentB.id })).status).toBe(302);
    const toBea = (await leadsOf(t.teamId)).find((l) => l.id === second.id)!;
    expect(toBea).toMatchObject({ state: "assigned", assignedTo: t.agentB.id, assignedHow: "assigned by Ada Admin" });
    expect((await admin.post("/team/leads", { intent: "assign", lead: second.id, agent: t.agentA.id })).status).toBe(302);
    const toAmara = (await leadsOf(t.teamId)).find((l) => l.id === second.id)!;
    expect(toAmara).toMatchObject({ assignedTo: t.agentA.id, contactId: toBea.contactId });
    const moved = await db().select().from(contacts).where(eq(contacts.id, toBea.contactId!)).get();
    expect(moved).toMatchObject({ userId: t.agentA.id, name: "Second Pond Lead", firstResponseAt: null });
    expect(moved!.createdAt.getTime()).toBe(toAmara.assignedAt!.getTime());
    // It is Amara's new lead from the reassignment (the dashboard's and Reports' lead figures count it), no longer Bea's.
    expect(moved!.leadAt?.getTime()).toBe(toAmara.assignedAt!.getTime());
    const notes = await db().select().from(crmActivities).where(eq(crmActivities.contactId, toAmara.contactId!));
    expect(notes.every((n) => n.userId === t.agentA.id)).toBe(true);
    expect(notes).toContainEqual(
      expect.objectContaining({
        userId: t.agentA.id,
        type: "assignment",
        notes: "Reassigned to you from Bea Agent (assigned by Ada Admin), from Pond Realty's leads.",
      }),
    );

    // Once Amara has answered it, it stays hers.
    await db()
      .insert(crmActivities)
      .values({ id: crypto.randomUUID(), userId: t.agentA.id, contactId: toAmara.contactId, type: "call", occurredAt: new Date() });
    const stays = await admin.post("/team/leads", { intent: "assign", lead: second.id, agent: t.agentB.id });
    expect(stays.status).toBe(409);
    expect(says(await stays.text(), LEAD_MESSAGES.answered)).toBe(true);
    expect((await leadsOf(t.teamId)).find((l) => l.id === second.id)).toMatchObject({ assignedTo: t.agentA.id, contactId: toAmara.contactId });

    // A CSV file of leads: each valid row distributed (round robin here), the others listed with their line.
    await settings(owner, "round_robin");
    const imported = await importFile(
      owner,
      "Name,Phone,Email,Lead Source,Notes\nCsv One,555-0301,,Referral,Pre-approved\nCsv Two,,two@example.com,,\nNo Contact,,,,\nCsv Three,555-0303,,Open House,\n",
    );
    expect(imported.status).toBe(302);
    const fromCsv = (await leadsOf(t.teamId)).filter((l) => l.name.startsWith("Csv "));
    expect(fromCsv.map((l) => l.name).sort()).toEqual(["Csv One", "Csv Three", "Csv Two"]);
    expect(fromCsv.every((l) => l.state === "assigned" && l.contactId !== null)).toBe(true);
    expect(fromCsv.find((l) => l.name === "Csv One")).toMatchObject({ source: "referral", message: "Pre-approved", phone: "555-0301" });
    expect((await leadsOf(t.teamId)).some((l) => l.name === "No Contact")).toBe(false);
    // Refused whole, adding nothing: an agent's file, no file, too many rows, no name column, no valid row.
    const count = (await leadsOf(t.teamId)).length;
    expect((await importFile(amara, "Name,Phone\nAgent Lead,555-0400\n")).status).toBe(403);
    const tooMany = await importFile(
      owner,
      `Name,Phone\n${Array.from({ length: 101 }, (_, i) => `Bulk ${i},555-${String(i).padStart(4, "0")}`).join("\n")}\n`,
    );
    expect(tooMany.status).toBe(400);
    expect(says(await tooMany.text(), LEAD_MESSAGES.tooManyRows(101))).toBe(true);
    for (const [csv, message] of [
      ["", LEAD_MESSAGES.noFile],
      ["Phone,Email\n555-0500,\n", LEAD_MESSAGES.noNameColumn],
      ["Name,Phone\nNo Way,\n", "not imported: line 2"],
    ] as const) {
      const reply = await importFile(owner, csv);
      expect(reply.status, csv).toBe(400);
      expect(says(await reply.text(), message), message).toBe(true);
    }
    expect(await leadsOf(t.teamId)).toHaveLength(count);

    // A Solo agent has no team leads.
    const solo = await signInAs(await createUser(env.DB));
    expect((await solo.get("/team/leads")).status).toBe(404);
    expect((await solo.post("/team/leads", lead())).status).toBe(404);
  });
});
