import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, leadAlerts, subscribers, teamLeads, teams } from "~/db/schema";
import { LEAD_FORM_MESSAGES } from "~/modules/team/lead-form";
import { LEAD_MESSAGES } from "~/modules/team/leads.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { team } from "../factories/teams";

// A team's public lead form (ADR 0040). Anyone with its address writes to the team; each enquiry is a team
// lead with source "website", distributed as the team's mode says. The address is a secret the owner and admins turn
// on, renew and turn off; a lapsed team takes no enquiries.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
const says = (text: string, message: string) => text.includes(message) || text.includes(escapeHtml(message));
const keyOf = async (teamId: string) => (await db().select({ key: teams.leadFormKey }).from(teams).where(eq(teams.id, teamId)).get())!.key;
const leadsOf = (teamId: string) => db().select().from(teamLeads).where(eq(teamLeads.teamId, teamId));
const enquiry = (fields: Record<string, string> = {}) => ({
  name: "Nadia Brooks",
  phone: "555-0177",
  email: "",
  message: "Two-bed condo near the river, up to $450k",
  consent: "on",
  website: "",
  ...fields,
});

describe("the team's public lead form", () => {
  it("turns an enquiry into a website lead, distributed by round robin to an agent who is alerted", async () => {
    const t = await team("Riverside Realty");
    const owner = await signInAs(t.owner);
    expect(await owner.page("/team/leads")).toContain("The form is off.");
    expect((await owner.post("/team/leads", { intent: "settings", mode: "round_robin", claimWindowMinutes: "15" })).status).toBe(302);
    expect((await owner.post("/team/leads", { intent: "form-on" })).status).toBe(302);
    const key = (await keyOf(t.teamId))!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await owner.page("/team/leads")).toContain(`http://localhost/inquire/${key}`);

    // Anyone, signed out, sees the team's name on the form; the address is not indexed, cached or sent to other sites.
    const visitor = new TestBrowser();
    const page = await visitor.get(`/inquire/${key}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    const html = await page.text();
    expect(html).toContain("Contact Riverside Realty");
    expect(html).toContain('name="robots" content="noindex"');

    const sent = await visitor.post(`/inquire/${key}`, enquiry());
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Riverside Realty has your message, and an agent will contact you.");
    const [lead] = await leadsOf(t.teamId);
    expect(lead).toMatchObject({
      name: "Nadia Brooks",
      phone: "555-0177",
      email: null,
      source: "website",
      message: "Two-bed condo near the river, up to $450k",
      addedBy: null,
      state: "assigned",
      assignedHow: "round robin",
    });
    const contact = await db().select().from(contacts).where(eq(contacts.id, lead!.contactId!)).get();
    expect(contact).toMatchObject({ userId: lead!.assignedTo, name: "Nadia Brooks", status: "hot", source: "website", firstResponseAt: null });
    expect(await db().select({ userId: leadAlerts.userId }).from(leadAlerts).where(eq(leadAlerts.contactId, contact!.id)).get()).toEqual({
      userId: lead!.assignedTo,
    });
  });

  it("refuses bad input with a clear message and stores nothing; a sender is limited to 5 enquiries an hour", async () => {
    const t = await team("Careful Homes");
    const owner = await signInAs(t.owner);
    await owner.post("/team/leads", { intent: "form-on" });
    const key = (await keyOf(t.teamId))!;
    const visitor = new TestBrowser();
    const cases: [Record<string, string>, string][] = [
      [{ consent: "" }, LEAD_FORM_MESSAGES.consent],
      [{ phone: "", email: "" }, LEAD_FORM_MESSAGES.reachable],
      [{ name: "   " }, "Name is required"],
      [{ email: "not-an-email", phone: "" }, "Please enter a valid email address."],
      [{ message: "x".repeat(2001) }, LEAD_FORM_MESSAGES.messageTooLong],
      [{ website: "https://spam.example" }, LEAD_FORM_MESSAGES.bot],
    ];
    for (const [fields, message] of cases) {
      const refused = await visitor.post(`/inquire/${key}`, enquiry(fields));
      expect(refused.status, message).toBe(400);
      const text = await refused.text();
      expect(says(text, message) || text.toLowerCase().includes(message.toLowerCase()), message).toBe(true);
    }
    // Odd bodies: JSON is refused as not a web form (415), an empty form is missing its fields (400).
    const json = await visitor.fetch(`/inquire/${key}`, {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: JSON.stringify(enquiry()),
    });
    expect(json.status).toBe(415);
    expect(await json.text()).toContain("This form must be sent as a web form (application/x-www-form-urlencoded or multipart/form-data).");
    const empty = await visitor.fetch(`/inquire/${key}`, {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(empty.status).toBe(400);
    expect(says(await empty.text(), "Name is required")).toBe(true);
    expect(await leadsOf(t.teamId)).toEqual([]);

    for (let i = 0; i < 5; i++) expect((await visitor.post(`/inquire/${key}`, enquiry({ name: `Buyer ${i}` }))).status).toBe(200);
    const limited = await visitor.post(`/inquire/${key}`, enquiry({ name: "Buyer 6" }));
    expect(limited.status).toBe(429);
    expect(says(await limited.text(), LEAD_FORM_MESSAGES.tooMany)).toBe(true);
    expect(await leadsOf(t.teamId)).toHaveLength(5);
    // Another sender is not held back by the first.
    expect((await new TestBrowser().post(`/inquire/${key}`, enquiry({ name: "Other sender" }))).status).toBe(200);
  });

  it("is the owner's and admins' to turn on, renew and off; unknown, old and lapsed addresses are not found", async () => {
    const t = await team("Gated Group");
    const agent = await signInAs(t.agentA);
    expect(await agent.page("/team/leads")).not.toContain("Website lead form");
    const refused = await agent.post("/team/leads", { intent: "form-on" });
    expect(refused.status).toBe(403);
    expect(says(await refused.text(), LEAD_MESSAGES.managersOnly)).toBe(true);
    expect(await keyOf(t.teamId)).toBeNull();

    const admin = await signInAs(t.admin);
    await admin.post("/team/leads", { intent: "form-on" });
    const first = (await keyOf(t.teamId))!;
    await admin.post("/team/leads", { intent: "form-on" });
    const second = (await keyOf(t.teamId))!;
    expect(second).not.toBe(first);
    const visitor = new TestBrowser();
    expect((await visitor.get(`/inquire/${first}`)).status).toBe(404);
    expect((await visitor.post(`/inquire/${first}`, enquiry())).status).toBe(404);
    expect((await visitor.get(`/inquire/${second}`)).status).toBe(200);
    for (const bad of ["nope", "x".repeat(65), "%27%20or%201%3D1--", second.toLowerCase() === second ? `${second}A` : second.toLowerCase()]) {
      expect((await visitor.get(`/inquire/${bad}`)).status, bad).toBe(404);
    }

    // The team's plan lapses: the form takes nothing.
    await db().update(subscribers).set({ subscriptionStatus: "canceled" }).where(eq(subscribers.userId, t.owner.id));
    expect((await visitor.post(`/inquire/${second}`, enquiry())).status).toBe(404);
    await db().update(subscribers).set({ subscriptionStatus: "active" }).where(eq(subscribers.userId, t.owner.id));
    await admin.post("/team/leads", { intent: "form-off" });
    expect(await keyOf(t.teamId)).toBeNull();
    expect((await visitor.get(`/inquire/${second}`)).status).toBe(404);
    expect(await leadsOf(t.teamId)).toEqual([]);
  });
});
