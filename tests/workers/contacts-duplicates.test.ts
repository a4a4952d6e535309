import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { countByStatus, createContact, getContact, listTags } from "~/modules/contacts/contacts.server";
import { findDuplicates, mergeContacts } from "~/modules/contacts/duplicates.server";
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
    const other = await add(userId, { name: "Dana R.", email: "dana@example.com", phone: "555 0100", location: "Maple Grove", budgetMax: "650000", source: "referral", tags: ["Buyer", "vip"], notes: "Prefers texts" });
    const merged = await mergeContacts(requestContext(), userId, keep.id, [other.id]);
    expect(merged).toMatchObject({ id: keep.id, name: "Dana Reyes", phone: "555 0100", location: "Maple Grove", budgetMax: 650000, source: "referral", tags: ["buyer", "vip"], notes: "Met at open house\n\nPrefers texts" });
    expect(await getContact(requestContext(), userId, other.id)).toBeUndefined();
    expect((await countByStatus(requestContext(), userId)).all).toBe(1);
    expect(await listTags(requestContext(), userId)).toEqual([{ tag: "buyer", count: 1 }, { tag: "vip", count: 1 }]);
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
    expect(await getContact(requestContext(), alice.id as UserId, hers.id)).toMatchObject({ name: "Alice's client" });
    expect(await getContact(requestContext(), mallory.id as UserId, his.id)).toMatchObject({ name: "Decoy" });
    const page = await browser.page("/contacts/duplicates");
    expect(page).not.toContain("Alice&#x27;s client");
    expect(page).toContain("No duplicates found");
  });
});
