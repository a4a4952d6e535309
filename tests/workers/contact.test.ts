import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contactSubmissions, emailOutbox } from "~/db/schema";
import { CONTACT_MESSAGES } from "~/modules/marketing/contact.messages";
import { TestBrowser } from "../factories/browser";
import { uniqueEmail } from "../factories/users";

const db = () => createDb(env.DB);
const valid = (email = uniqueEmail("lead")) => ({
  firstName: "Dana",
  lastName: "Reyes",
  email,
  phone: "",
  company: "Reyes Realty",
  interest: "commission-tracking",
  message: "Can Porchlight handle a 70/30 split with a cap?",
  consent: "on",
  website_url: "",
});
const stored = (email: string) => db().select().from(contactSubmissions).where(eq(contactSubmissions.email, email)).all();

describe("contact form", () => {
  it("stores the message, notifies the sales inbox and shows the confirmation", async () => {
    const fields = valid();
    const response = await new TestBrowser().post("/contact", fields);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Message sent");
    expect(html).toContain("We reply within 1 business day.");
    const [row] = await stored(fields.email);
    expect(row).toMatchObject({ firstName: "Dana", company: "Reyes Realty", interest: "commission-tracking", phone: null, consent: true });
    expect(row!.notifiedAt).not.toBeNull();
    const mail = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.kind, "contact_form"), eq(emailOutbox.toAddress, "hello@porchlight.app")))
      .all();
    const ours = mail.find((m) => m.textBody.includes(fields.email))!;
    expect(ours.subject).toBe("Contact form: Dana Reyes (Commission Tracking)");
    expect(ours.textBody).toContain("Can Porchlight handle a 70/30 split with a cap?");
  });

  it("names each missing field and stores nothing", async () => {
    const email = uniqueEmail("partial");
    const response = await new TestBrowser().post("/contact", { ...valid(email), firstName: " ", company: "", interest: "" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("First name is required.");
    expect(html).toContain("Company (brokerage) is required.");
    expect(html).toContain("Choose what you are interested in.");
    expect(await stored(email)).toEqual([]);
  });

  it("requires consent, with the spec's text", async () => {
    const fields = valid();
    const { consent: _omitted, ...withoutConsent } = fields;
    const response = await new TestBrowser().post("/contact", withoutConsent);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(CONTACT_MESSAGES.consentInline);
    expect(await stored(fields.email)).toEqual([]);
  });

  it("refuses a filled honeypot and stores nothing", async () => {
    const fields = { ...valid(), website_url: "http://spam.example" };
    expect((await new TestBrowser().post("/contact", fields)).status).toBe(400);
    expect(await stored(fields.email)).toEqual([]);
  });

  it("limits messages per client address", async () => {
    const browser = new TestBrowser();
    for (let i = 0; i < 5; i++) expect((await browser.post("/contact", valid())).status).toBe(200);
    const sixth = valid();
    const response = await browser.post("/contact", sixth);
    expect(response.status).toBe(429);
    expect(await response.text()).toContain("Too many messages from this connection.");
    expect(await stored(sixth.email)).toEqual([]);
  });

  it("answers the contact-submit endpoint with { ok, error }", async () => {
    const browser = new TestBrowser();
    const post = (body: unknown) =>
      browser.fetch("/api/contact-submit", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const ok = await post({ ...valid(), consent: true });
    expect(await ok.json()).toEqual({ ok: true, error: null });
    const bad = await post({ ...valid(), email: "nope", consent: false });
    expect(bad.status).toBe(400);
    const body = await bad.json<{ ok: boolean; error: string; fieldErrors: Record<string, string> }>();
    expect(body.ok).toBe(false);
    expect(body.fieldErrors).toEqual({ email: "Please enter a valid email address.", consent: CONTACT_MESSAGES.consentInline });
  });
});
