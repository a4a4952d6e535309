import { env } from "cloudflare:workers";
import { d1MeterOf, limitD1 } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { CONTACT_MESSAGES } from "~/modules/contacts/contacts.messages";
import { countByStatus, createContact, getContact, listContacts, listTags } from "~/modules/contacts/contacts.server";
import { findDuplicates, mergeContacts, possibleDuplicates } from "~/modules/contacts/duplicates.server";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

const owner = async () => (await createUser(env.DB)).id as UserId;
const add = (userId: UserId, fields: Record<string, unknown>) => createContact(requestContext(), userId, ContactInputSchema.parse(fields));

describe("duplicate finder", () => {
  it("groups contacts sharing an e-mail (any case) or a phone (any punctuation), once per group", async () => {
    const userId = await owner();
    const a = await add(userId, { name: "Dana Reyes", email: "dana@example.com", phone: "(555) 010-2000" });
    const b = await add(userId, { name: "Dana R.", email: "DANA@example.com", phone: "555.010.2000" });
    const c = await add(userId, { name: "Sam", phone: "+1 555 777 1234" });
    const d = await add(userId, { name: "Samuel", phone: "1-555-777-1234" });
    await add(userId, { name: "Unique", email: "unique@example.com" });
    const groups = await findDuplicates(requestContext(), userId);
    expect(groups.map((g) => [g.reason, g.contacts.map((x) => x.id).sort()])).toEqual([
      ["email", [a.id, b.id].sort()],
      ["phone", [c.id, d.id].sort()],
    ]);
  });

  it("merges into the chosen contact: gaps filled, tags and notes united, the rest deleted, counters exact", async () => {
    const userId = await owner();
    const keep = await add(userId, { name: "Dana Reyes", email: "dana@example.com", tags: ["buyer"], notes: "Met at open house" });
    const other = await add(userId, {
      name: "Dana R.",
      email: "dana@example.com",
      phone: "555 0100",
      location: "Maple Grove",
      budgetMax: "650000",
      source: "referral",
      tags: ["Buyer", "vip"],
      notes: "Prefers texts",
    });
    const merged = await mergeContacts(requestContext(), userId, keep.id, [other.id]);
    expect(merged).toMatchObject({
      id: keep.id,
      name: "Dana Reyes",
      phone: "555 0100",
      location: "Maple Grove",
      budgetMax: 650000,
      source: "referral",
      tags: ["buyer", "vip"],
      notes: "Met at open house\n\nPrefers texts",
    });
    expect(await getContact(requestContext(), userId, other.id)).toBeUndefined();
    expect((await countByStatus(requestContext(), userId)).all).toBe(1);
    expect(await listTags(requestContext(), userId)).toEqual([
      { tag: "buyer", count: 1 },
      { tag: "vip", count: 1 },
    ]);
    expect(await findDuplicates(requestContext(), userId)).toEqual([]);
  });

  it("refuses to merge anything that is not all yours, and changes nothing", async () => {
    const alice = await createUser(env.DB);
    const mallory = await createUser(env.DB);
    const hers = await add(alice.id as UserId, { name: "Alice's client", email: "x@example.com" });
    const his = await add(mallory.id as UserId, { name: "Decoy", email: "x@example.com" });
    expect(await mergeContacts(requestContext(), mallory.id as UserId, his.id, [hers.id])).toBeNull();
    const browser = await signInAs(mallory);
    const response = await browser.post("/contacts/duplicates", { primary: his.id, id: hers.id });
    expect(response.status).toBe(404);
    // The page says so where the merge was asked for.
    expect(await response.text()).toContain("Those contacts could not be merged. Reload the page and try again.");
    expect(await getContact(requestContext(), alice.id as UserId, hers.id)).toMatchObject({ name: "Alice's client" });
    expect(await getContact(requestContext(), mallory.id as UserId, his.id)).toMatchObject({ name: "Decoy" });
    const page = await browser.page("/contacts/duplicates");
    expect(page).not.toContain("Alice&#x27;s client");
    expect(page).toContain("No duplicates found");
  });
});

describe("the warning before a save", () => {
  const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
  const fields = (extra: Record<string, string>) => ({ intent: "create", status: "hot", propertyType: "house", source: "website", ...extra });
  const named = async (userId: UserId, name: string) =>
    (await listContacts(requestContext(), userId, { filters: { search: name }, sort: "name" })).contacts.filter((c) => c.name === name);

  it("names the contact with the same e-mail or phone when one is added, and saves only when the agent says save anyway", async () => {
    const user = await createUser(env.DB);
    const userId = user.id as UserId;
    const dana = await add(userId, { name: "Dana Existing", email: "dana.warn@example.com", phone: "512-555-0142" });
    // Another agent's contact with the same e-mail is theirs: it warns nobody here.
    const stranger = await owner();
    await add(stranger, { name: "Not Yours", email: "solo.warn@example.com" });
    const browser = await signInAs(user);

    for (const extra of [
      { name: "Dana Again", email: "DANA.WARN@example.com" },
      { name: "Dana Again", phone: "(512) 555 0142" },
    ] as Record<string, string>[]) {
      const warned = await browser.post("/contacts?index", fields(extra));
      expect(warned.status, JSON.stringify(extra)).toBe(409);
      const page = await warned.text();
      expect(page).toContain(escapeHtml(CONTACT_MESSAGES.possibleDuplicate));
      expect(page).toContain(dana.id);
      expect(await named(userId, "Dana Again")).toEqual([]);
    }
    // Saved on purpose: the second submit says so.
    const saved = await browser.post("/contacts?index", fields({ name: "Dana Again", email: "dana.warn@example.com", duplicateOk: "1" }));
    expect(saved.status).toBe(200);
    expect(await named(userId, "Dana Again")).toHaveLength(1);
    // No match, a stranger's match, or a number too short to be a phone: saved at once.
    for (const extra of [
      { name: "Fresh Face", email: "fresh.warn@example.com" },
      { name: "Solo Warn", email: "solo.warn@example.com" },
      { name: "Short Number", phone: "555-01" },
    ] as Record<string, string>[]) {
      expect((await browser.post("/contacts?index", fields(extra))).status, JSON.stringify(extra)).toBe(200);
    }
    // Bad input is still refused as before.
    expect((await browser.post("/contacts?index", fields({ name: "", email: "dana.warn@example.com" }))).status).toBe(400);
  });

  it("warns on an edit only when the e-mail or phone changes to another contact's", async () => {
    const user = await createUser(env.DB);
    const userId = user.id as UserId;
    const ann = await add(userId, { name: "Ann Keeper", email: "ann.keeper@example.com", phone: "555 010 7000" });
    const twin = await add(userId, { name: "Ann Twin", email: "ann.keeper@example.com" });
    const bo = await add(userId, { name: "Bo Other", email: "bo.other@example.com" });
    const browser = await signInAs(user);
    const edit = (id: string, extra: Record<string, string>) =>
      browser.post(`/contacts/${id}?edit`, { intent: "update", status: "warm", propertyType: "house", source: "other", ...extra });

    // Ann Twin already shares Ann's e-mail: saving another field does not warn again.
    expect((await edit(twin.id, { name: "Ann Twin", email: "ann.keeper@example.com", location: "Maple Grove" })).status).toBe(302);
    // Bo takes Ann's phone: warned, nothing saved; then saved anyway.
    const warned = await edit(bo.id, { name: "Bo Other", email: "bo.other@example.com", phone: "555-010-7000" });
    expect(warned.status).toBe(409);
    expect(await warned.text()).toContain(ann.id);
    expect((await getContact(requestContext(), userId, bo.id))?.phone).toBeNull();
    expect((await edit(bo.id, { name: "Bo Other", email: "bo.other@example.com", phone: "555-010-7000", duplicateOk: "1" })).status).toBe(302);
    expect((await getContact(requestContext(), userId, bo.id))?.phone).toBe("555-010-7000");
    // Another agent's id is still not found.
    expect(
      (
        await (
          await signInAs(await createUser(env.DB))
        ).post(`/contacts/${bo.id}?edit`, {
          intent: "update",
          name: "Bo",
          email: "x@example.com",
          status: "warm",
          propertyType: "house",
          source: "other",
        })
      ).status,
    ).toBe(404);
  });

  it("looks the e-mail and phone up through their indexes, not by reading every contact the agent has", async () => {
    const userId = await owner();
    const dana = await add(userId, { name: "Dana Indexed", email: "dana.indexed@example.com", phone: "(555) 010-4242" });
    for (let i = 0; i < 60; i++) await add(userId, { name: `Other ${i}`, email: `other${i}@example.com`, phone: `555 020 ${String(1000 + i)}` });
    const measured = limitD1({ ...(env as Env), D1_LIMITS: "measure" }, "duplicate check");
    const found = await possibleDuplicates(requestContext({ DB: measured.DB }), userId, { email: "DANA.indexed@example.com", phone: "555.010.4242" });
    expect(found.map((d) => [d.id, d.reason])).toEqual([[dana.id, "email"]]);
    // Dana by e-mail and by phone among 61 contacts: a row or two each, not 61 twice (each lead e-mail and each Add
    // contact runs this check; on the bench's large account it read 100,001 rows twice).
    const report = d1MeterOf(measured.DB)!.report();
    expect(report.queries).toBe(2);
    expect(report.rowsRead).toBeLessThan(10);
  });
});
