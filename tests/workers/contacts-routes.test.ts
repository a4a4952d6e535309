import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { getContact, listContacts } from "~/modules/contacts/contacts.server";
import { autoMap, EXPORT_COLUMNS, parseCsv } from "~/modules/contacts/csv";
import { validateRows } from "~/modules/contacts/import";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";
import { dayFromToday } from "../factories/dates";

const decode = (html: string) => html.replace(/<!-- -->/g, "");

describe("contacts through the app", () => {
  it("adds a contact from the dialog's form post, with spec messages for bad input and nothing stored", async () => {
    const agent = await createUser(env.DB);
    const browser = await signInAs(agent);
    const bad = await browser.post("/contacts?index", { intent: "create", name: "  ", phone: "", email: "" });
    expect(bad.status).toBe(400);
    const body = await bad.text();
    expect(body).toContain("Name is required");
    expect(body).toContain("Phone or email is required");
    expect((await listContacts(requestContext(), agent.id as UserId)).contacts).toEqual([]);

    const good = await browser.post("/contacts?index", { intent: "create", name: "Dana Reyes", email: "Dana@Example.com", budgetMax: "650,000" });
    expect(good.status).toBe(200);
    const [dana] = (await listContacts(requestContext(), agent.id as UserId)).contacts;
    expect(dana).toMatchObject({
      name: "Dana Reyes",
      email: "dana@example.com",
      budgetMax: 650000,
      status: "cold",
      propertyType: "house",
      source: "other",
    });

    const page = decode(await (await browser.get(`/contacts/${dana!.id}`)).text());
    expect(page).toContain("Dana Reyes");
    expect(page).toContain('href="mailto:dana@example.com"');
    // Nobody has worked with Dana yet: no last activity is claimed, until there is one.
    expect(page).toMatch(/Added [^<]+ · No activity yet</);
    const logged = await browser.post("/activities", {
      intent: "log",
      type: "call",
      contactId: dana!.id,
      date: dayFromToday(0),
      time: "09:15",
      outcome: "Left a voicemail",
    });
    expect(logged.status).toBe(200);
    const after = decode(await (await browser.get(`/contacts/${dana!.id}`)).text());
    expect(after).toMatch(/Added [^<]+ · last activity [^<]+</);
    expect(after).not.toContain("No activity yet");
  });

  it("edits and deletes only your own contacts: anyone else gets 404 and changes nothing", async () => {
    const alice = await createUser(env.DB);
    const mallory = await createUser(env.DB);
    const aliceBrowser = await signInAs(alice);
    await aliceBrowser.post("/contacts?index", { intent: "create", name: "Private Client", phone: "555 0100" });
    const [contact] = (await listContacts(requestContext(), alice.id as UserId)).contacts;
    const id = contact!.id;

    const intruder = await signInAs(mallory);
    expect((await intruder.get(`/contacts/${id}`)).status).toBe(404);
    expect((await intruder.post(`/contacts/${id}`, { intent: "update", name: "Hijacked", phone: "1" })).status).toBe(404);
    expect((await intruder.post(`/contacts/${id}`, { intent: "delete" })).status).toBe(404);
    expect((await intruder.post("/contacts?index", { intent: "delete", id })).status).toBe(404);
    await intruder.post("/contacts?index", { intent: "create", name: "Private Mallory", phone: "555 0199" });
    const list = decode(await intruder.page("/contacts?q=Private"));
    expect(list).toContain("Private Mallory");
    expect(list).not.toContain("Private Client");
    expect(await getContact(requestContext(), alice.id as UserId, id)).toMatchObject({ name: "Private Client" });

    const updated = await aliceBrowser.post(`/contacts/${id}`, { intent: "update", name: "Private Client", phone: "", email: "", status: "hot" });
    expect(updated.status).toBe(400);
    expect(await getContact(requestContext(), alice.id as UserId, id)).toMatchObject({ phone: "555 0100", status: "cold" });
    const saved = await aliceBrowser.post(`/contacts/${id}`, {
      intent: "update",
      name: "Private Client",
      phone: "555 0100",
      status: "hot",
      tags: "vip",
    });
    // Saved: back to the readable profile.
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/contacts/${id}`);
    expect(await getContact(requestContext(), alice.id as UserId, id)).toMatchObject({ status: "hot", tags: ["vip"] });

    const deleted = await aliceBrowser.post(`/contacts/${id}`, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/contacts");
    expect(await getContact(requestContext(), alice.id as UserId, id)).toBeUndefined();
  });

  it("keeps each user's list layout to themselves", async () => {
    const alice = await createUser(env.DB);
    const bob = await createUser(env.DB);
    const aliceBrowser = await signInAs(alice);
    expect((await aliceBrowser.post("/contacts?index", { intent: "view", contactsLayout: "cards" })).status).toBe(200);
    expect((await aliceBrowser.post("/contacts?index", { intent: "view", contactsLayout: "sideways" })).status).toBe(400);
    const bobBrowser = await signInAs(bob);
    await bobBrowser.post("/contacts?index", { intent: "create", name: "Someone", phone: "1" });
    await aliceBrowser.post("/contacts?index", { intent: "create", name: "Someone Else", phone: "2" });
    expect(decode(await (await aliceBrowser.get("/contacts")).text())).toMatch(/aria-pressed="true"[^>]*title="Cards"/);
    expect(decode(await (await bobBrowser.get("/contacts")).text())).toMatch(/aria-pressed="true"[^>]*title="Table"/);
  });
});

describe("CSV import and export through the app", () => {
  const postJson = (browser: Awaited<ReturnType<typeof signInAs>>, body: unknown) =>
    browser.fetch("/api/contacts/import", {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
    });

  it("imports into the signed-in account only, refuses malformed requests, and exports only your own contacts", async () => {
    const alice = await createUser(env.DB);
    const bob = await createUser(env.DB);
    const aliceBrowser = await signInAs(alice);
    const bobBrowser = await signInAs(bob);

    const signedOut = await new TestBrowser().fetch("/api/contacts/import", {
      method: "POST",
      body: JSON.stringify({ rows: [["Ada"]], mapping: ["name"], mode: "skip" }),
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
    });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ ok: false, error: "Please sign in again to continue." });
    const empty = await postJson(aliceBrowser, { rows: [], mapping: [], mode: "skip" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ ok: false, error: "The file has no rows." });
    expect((await postJson(aliceBrowser, { rows: [["x"]], mapping: ["nonsense"], mode: "skip" })).status).toBe(400);
    expect((await postJson(aliceBrowser, "not json at all")).status).toBe(400);
    expect((await listContacts(requestContext(), alice.id as UserId)).contacts).toEqual([]);

    const imported = await postJson(aliceBrowser, {
      rows: [["Ada Import", "ada@example.com", bob.id]],
      mapping: ["name", "email", "ignore"],
      mode: "skip",
    });
    expect(imported.status).toBe(200);
    expect((await listContacts(requestContext(), alice.id as UserId)).contacts.map((c) => c.name)).toEqual(["Ada Import"]);
    expect((await listContacts(requestContext(), bob.id as UserId)).contacts).toEqual([]);

    const aliceCsv = await (await aliceBrowser.get("/contacts/export.csv")).text();
    expect(aliceCsv).toContain("Ada,Import,ada@example.com");
    // The export's header is one style, and our own import maps every column and reads the row back.
    const exported = parseCsv(aliceCsv);
    expect(exported.headers).toEqual([...EXPORT_COLUMNS]);
    expect(autoMap(exported.headers)).not.toContain("ignore");
    expect(validateRows(exported.rows, autoMap(exported.headers)).valid.map((r) => [r.contact.name, r.contact.email])).toEqual([
      ["Ada Import", "ada@example.com"],
    ]);
    await bobBrowser.post("/contacts?index", { intent: "create", name: "Bo Own", phone: "555 0142" });
    const bobCsv = await bobBrowser.page("/contacts/export.csv");
    expect(bobCsv).not.toContain("Ada");
    const bobLines = bobCsv.trim().split("\r\n");
    expect(bobLines).toHaveLength(2);
    expect(bobLines[0]).toBe(aliceCsv.trim().split("\r\n")[0]);
    expect(bobLines[1]).toContain("Bo,Own");
    const [ada] = (await listContacts(requestContext(), alice.id as UserId)).contacts;
    expect(await (await aliceBrowser.get(`/contacts/export.csv?id=${ada!.id}`)).text()).toContain("Ada,Import");
    // Naming someone else's contact in a selected export yields nothing of theirs.
    expect((await bobBrowser.page(`/contacts/export.csv?id=${ada!.id}`)).trim().split("\r\n")).toEqual([bobLines[0]]);
  });
});
