import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact } from "~/modules/contacts/contacts.server";
import { createDeal } from "~/modules/deals/deals.server";
import type { PaletteSearchResult, PickerSearchResult } from "~/modules/palette/search";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dealInput } from "../factories/deals";
import { createUser } from "../factories/users";

// GET /api/search: the command palette's contacts and deals, and (scope=contacts) the contact pickers', the
// signed-in agent's only.

async function agentWith(contacts: { name: string; email?: string; phone?: string }[], deals: { title: string; contact?: string; stage?: string }[]) {
  const user = await createUser(env.DB);
  const ctx = requestContext();
  const ids = new Map<string, string>();
  for (const contact of contacts) ids.set(contact.name, (await createContact(ctx, user.id as UserId, ContactInputSchema.parse(contact))).id);
  for (const deal of deals) {
    const created = await createDeal(
      ctx,
      user.id as UserId,
      dealInput({ title: deal.title, stage: deal.stage ?? "lead", contactId: deal.contact ? ids.get(deal.contact) : undefined }),
    );
    if (!created.ok) throw new Error(`deal not created: ${created.error}`);
  }
  return { user, ids, browser: await signInAs(user) };
}

const search = (browser: TestBrowser, q: string) => browser.get(`/api/search?q=${encodeURIComponent(q)}`);
const results = async (browser: TestBrowser, q: string) => {
  const response = await search(browser, q);
  expect(response.status).toBe(200);
  return (await response.json()) as PaletteSearchResult;
};

describe("GET /api/search", () => {
  it("finds the agent's own contacts and deals by name, and never another agent's", async () => {
    const alice = await agentWith(
      [
        { name: "Marisol Quintero", email: "marisol@example.com" },
        { name: "Quentin Blake", phone: "555 0101" },
      ],
      [{ title: "12 Quince Lane", contact: "Marisol Quintero", stage: "offer" }, { title: "Old Quince Farm" }, { title: "Quince Court condo" }],
    );
    const bob = await agentWith(
      [{ name: "Marisol Bobsdottir", email: "bob-client@example.com" }],
      [{ title: "Quince Bob's barn", contact: "Marisol Bobsdottir" }],
    );

    const response = await search(alice.browser, "marisol");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.json()).toEqual({
      contacts: [{ id: alice.ids.get("Marisol Quintero"), name: "Marisol Quintero", detail: "marisol@example.com" }],
      deals: [],
    });

    // Titles that start with the words come first; the stage by its name; the contact's name with it.
    expect((await results(alice.browser, "quince")).deals).toEqual([
      { id: expect.any(String), title: "Quince Court condo", stage: "Lead", contactName: null },
      { id: expect.any(String), title: "12 Quince Lane", stage: "Offer", contactName: "Marisol Quintero" },
      { id: expect.any(String), title: "Old Quince Farm", stage: "Lead", contactName: null },
    ]);
    expect((await results(alice.browser, "QUEN")).contacts.map((c) => c.name)).toEqual(["Quentin Blake"]);
    expect((await results(alice.browser, "quentin")).contacts[0]?.detail).toBe("555 0101");

    const bobs = await results(bob.browser, "marisol");
    expect(bobs.contacts.map((c) => c.name)).toEqual(["Marisol Bobsdottir"]);
    expect((await results(bob.browser, "quince")).deals.map((d) => d.title)).toEqual(["Quince Bob's barn"]);
    expect(JSON.stringify(await results(alice.browser, "bob"))).not.toContain("Bob");
  });

  it("matches % and _ literally, returns at most six of each, and nothing for an empty or unsearchable box", async () => {
    const { browser } = await agentWith(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ name: `Lakeview Buyer ${n}`, phone: `555 010${n}` })),
      [
        { title: "100% financed duplex" },
        { title: "Lake_view lot" },
        // An unescaped _ (any one character) would find this too.
        { title: "Lake view acreage" },
        { title: "Lakeview cabin" },
        ...[1, 2, 3, 4, 5, 6, 7].map((n) => ({ title: `Lakeview unit ${n}` })),
      ],
    );
    expect((await results(browser, "%")).deals.map((d) => d.title)).toEqual(["100% financed duplex"]);
    expect((await results(browser, "e_v")).deals.map((d) => d.title)).toEqual(["Lake_view lot"]);
    expect((await results(browser, "\\")).deals).toEqual([]);
    const lakeview = await results(browser, "lakeview");
    expect(lakeview.contacts).toHaveLength(6);
    expect(lakeview.deals).toHaveLength(6);
    expect(await results(browser, "")).toEqual({ contacts: [], deals: [] });
    expect(await results(browser, "   ")).toEqual({ contacts: [], deals: [] });
    // Punctuation only: no full-text terms, so no contacts (rather than every contact).
    expect((await results(browser, '"(*-')).contacts).toEqual([]);
  });

  it("refuses a search longer than 100 characters with a clear message", async () => {
    const { browser } = await agentWith([], []);
    expect((await search(browser, "a".repeat(100))).status).toBe(200);
    const response = await search(browser, "a".repeat(101));
    expect(response.status).toBe(400);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.json()).toEqual({ error: "Search text can be at most 100 characters." });
  });

  it("answers 401 when signed out, as the other JSON endpoints do", async () => {
    const response = await search(new TestBrowser(), "marisol");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ ok: false });
  });
});

describe("GET /api/search?scope=contacts (the contact pickers)", () => {
  const pick = (browser: TestBrowser, q: string) => browser.get(`/api/search?scope=contacts&q=${encodeURIComponent(q)}`);
  const picked = async (browser: TestBrowser, q: string) => {
    const response = await pick(browser, q);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    return (await response.json()) as PickerSearchResult;
  };

  it("finds only the signed-in agent's contacts, and nothing when signed out", async () => {
    const alice = await agentWith(
      [{ name: "Alice's Client", email: "client@example.com" }],
      [{ title: "Alice's listing", contact: "Alice's Client" }],
    );
    const bob = await agentWith([], []);
    expect(await picked(alice.browser, "client")).toEqual({
      contacts: [{ id: alice.ids.get("Alice's Client"), name: "Alice's Client", detail: "client@example.com" }],
    });
    expect((await picked(bob.browser, "client")).contacts).toEqual([]);
    // Nothing searchable in it: no error, just the agent's recent contacts, as for an empty box.
    expect((await picked(alice.browser, '"(*-')).contacts.map((c) => c.name)).toEqual(["Alice's Client"]);
    expect((await picked(alice.browser, "")).contacts.map((c) => c.name)).toEqual(["Alice's Client"]);
    // A picker's long text is cut to the palette's limit, not refused.
    expect((await picked(alice.browser, `client ${"a".repeat(200)}`)).contacts).toEqual([]);
    const signedOut = await pick(new TestBrowser(), "client");
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toMatchObject({ ok: false });
  });

  it("returns at most eight contacts, the newest first for an empty box", async () => {
    const names = Array.from({ length: 10 }, (_, i) => `Picker Lakeview ${String(i).padStart(2, "0")}`);
    const { browser } = await agentWith(
      names.map((name, i) => ({ name, phone: `555 02${String(i).padStart(2, "0")}` })),
      [],
    );
    expect((await picked(browser, "lakeview")).contacts.map((c) => c.name)).toEqual(names.slice(0, 8));
    expect((await picked(browser, "")).contacts).toHaveLength(8);
  });
});
