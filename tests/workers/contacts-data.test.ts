import { env } from "cloudflare:workers";
import { SYSTEM_WHERE } from "~/modules/audit/audit.server";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema, fieldErrors, normaliseTags } from "~/modules/contacts/contact.schema";
import {
  changeTag,
  countByStatus,
  createContact,
  deleteContacts,
  getContact,
  listContacts,
  listTags,
  loadListSurroundings,
  setStatus,
  trashContacts,
  updateContact,
  type ContactFilters,
} from "~/modules/contacts/contacts.server";
import { ftsQuery } from "~/modules/contacts/search";
import { restoreFromTrash } from "~/modules/trash/trash.server";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

const context = () => requestContext();
async function owner() {
  return (await createUser(env.DB)).id as UserId;
}
const input = (fields: Record<string, unknown>) => ContactInputSchema.parse({ email: "x@example.com", ...fields });

describe("contact validation (spec section 5)", () => {
  it("requires a name and a phone or e-mail, with the spec's messages", () => {
    const result = ContactInputSchema.safeParse({ name: "   ", phone: " ", email: "" });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toMatchObject({ name: "Name is required", phone: "Phone or email is required" });
  });

  it("turns blank text into null, parses integers and cleans tags", () => {
    const contact = ContactInputSchema.parse({
      name: "  Dana Reyes ",
      phone: "(555) 010-2000",
      email: "",
      budgetMin: "450,000",
      budgetMax: "$600000",
      bedrooms: "",
      location: "  ",
      tags: ["buyer", " Buyer ", "", "first-time"],
    });
    expect(contact).toMatchObject({
      name: "Dana Reyes",
      email: null,
      budgetMin: 450000,
      budgetMax: 600000,
      bedrooms: null,
      location: null,
      status: "cold",
      propertyType: "house",
      source: "other",
    });
    expect(contact.tags).toEqual(["buyer", "first-time"]);
    expect(normaliseTags("vip, relocation ,vip")).toEqual(["vip", "relocation"]);
  });

  it("refuses numbers that are not whole, and a budget range upside down", () => {
    const fractional = ContactInputSchema.safeParse({ name: "A", email: "a@example.com", bedrooms: "2.5", bathrooms: "two" });
    expect(fieldErrors(fractional.error!)).toMatchObject({
      bedrooms: "Bedrooms must be a whole number.",
      bathrooms: "Bathrooms must be a whole number.",
    });
    const upsideDown = ContactInputSchema.safeParse({ name: "A", email: "a@example.com", budgetMin: "900000", budgetMax: "100000" });
    expect(fieldErrors(upsideDown.error!)).toEqual({ budgetMax: "Maximum budget must be at least the minimum." });
  });
});

describe("contact search", () => {
  it("turns hostile input into a safe query or none", () => {
    expect(ftsQuery(`"unclosed`)).toBe(`"unclosed"*`);
    expect(ftsQuery(`a* OR -b (c) NEAR(d e) name:x 🏠`)).toBe(`"a"* "OR"* "b"* "c"* "NEAR"* "d"* "e"* "name"*`);
    expect(ftsQuery(`*** --- () 🏠🔑 ""`)).toBeNull();
  });

  it("finds contacts by name, e-mail, phone digits, location, notes and tags, and never errors", async () => {
    const userId = await owner();
    const ctx = context();
    const dana = await createContact(
      ctx,
      userId,
      input({
        name: "Dana Reyes-Ólafsdóttir",
        email: "dana@reyes.example",
        phone: "(555) 010-2000",
        location: "Maple Grove",
        notes: "Wants a yard for the dog",
        tags: ["first-time"],
      }),
    );
    await createContact(ctx, userId, input({ name: "Sam Other", email: "sam@example.com" }));
    const find = async (search: string) => (await listContacts(ctx, userId, { filters: { search } })).contacts.map((c) => c.id);
    for (const term of ["dana", "Olafs", "reyes.example", "5550102000", "010", "maple gr", "dog", "first-time", "DANA REY"]) {
      expect(await find(term), term).toEqual([dana.id]);
    }
    for (const hostile of [`"`, `dana"`, `*`, `-dana`, `(dana`, `dana)`, `NOT`, `🏠 dana`, `'; drop table contacts; --`, "a".repeat(500)]) {
      await expect(find(hostile), hostile).resolves.toBeInstanceOf(Array);
    }
    expect(await find("🏠 dana")).toEqual([dana.id]);
    // The index follows edits and deletes.
    await updateContact(ctx, userId, dana.id, { name: "Dana Lindqvist" });
    expect(await find("lindqvist")).toEqual([dana.id]);
    expect(await find("Olafs")).toEqual([]);
    await deleteContacts(ctx, userId, [dana.id], SYSTEM_WHERE);
    expect(await find("lindqvist")).toEqual([]);
  });
});

describe("contact lists", () => {
  it("pages through every contact once in each order, with filters and counts", async () => {
    const userId = await owner();
    const ctx = context();
    const made = [];
    for (let i = 0; i < 23; i++) {
      made.push(
        await createContact(
          ctx,
          userId,
          input({
            name: `Person ${String.fromCharCode(65 + (i % 26))}${i}`,
            status: (["hot", "warm", "cold"] as const)[i % 3],
            budgetMax: i % 4 === 0 ? null : 100_000 * i,
            tags: i % 2 === 0 ? ["buyer"] : ["seller"],
            location: i % 5 === 0 ? "Lake Town" : "Hill Side",
          }),
        ),
      );
    }
    for (const sort of ["newest", "name", "activity", "budget"] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listContacts(ctx, userId, { sort, cursor, limit: 5 });
        seen.push(...page.contacts.map((c) => c.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen.length, sort).toBe(23);
      expect(new Set(seen).size, sort).toBe(23);
    }
    const byBudget = (await listContacts(ctx, userId, { sort: "budget", limit: 30 })).contacts.map((c) => c.budgetMax);
    expect(byBudget.slice(0, 3)).toEqual([2_200_000, 2_100_000, 1_900_000]);
    expect(byBudget.at(-1)).toBeNull();

    const hot = await listContacts(ctx, userId, { filters: { status: "hot", tag: "BUYER" } });
    expect(hot.contacts.every((c) => c.status === "hot" && c.tags.includes("buyer"))).toBe(true);
    expect(hot.contacts.length).toBe(4);
    expect((await listContacts(ctx, userId, { filters: { location: "lake" } })).contacts.length).toBe(5);
    expect((await listContacts(ctx, userId, { filters: { location: "%" } })).contacts.length).toBe(0);
    expect(
      (await listContacts(ctx, userId, { filters: { budgetMin: 1_000_000, budgetMax: 1_500_000 } })).contacts.map((c) => c.budgetMax).sort(),
    ).toEqual([1_000_000, 1_100_000, 1_300_000, 1_400_000, 1_500_000]);
    expect(await countByStatus(ctx, userId)).toEqual({ hot: 8, warm: 8, cold: 7, all: 23 });
    expect(await listTags(ctx, userId)).toEqual([
      { tag: "buyer", count: 12 },
      { tag: "seller", count: 11 },
    ]);
    // The page's surroundings, read in one batch, say the same as the single reads.
    const around = await loadListSurroundings(ctx, userId);
    expect(around.counts).toEqual(await countByStatus(ctx, userId));
    expect(around.tags).toEqual(await listTags(ctx, userId));
    expect(around.view).toEqual({ contactsLayout: "list", contactsDensity: "comfortable", contactsDetail: "summary" });
    expect(around.prefs).toMatchObject({ dateFormat: "US", currency: "USD" });
    // A cursor that was tampered with starts from the top instead of failing.
    expect((await listContacts(ctx, userId, { cursor: "not-a-cursor", limit: 3 })).contacts.length).toBe(3);
  });

  it("returns the same pages whether a tag or search drives the query or the sort index does", async () => {
    const userId = await owner();
    const other = await owner();
    const ctx = context();
    for (let i = 0; i < 14; i++) {
      await createContact(
        ctx,
        userId,
        input({ name: `Lindqvist ${i}`, status: i % 2 ? "hot" : "warm", budgetMax: 50_000 * (i % 5), tags: i % 3 ? ["Buyer"] : ["seller"] }),
      );
    }
    // Another user's matching contacts must not leak through the driven shape, whose owner test is not indexed.
    await createContact(ctx, other, input({ name: "Lindqvist other", tags: ["buyer"] }));
    const walk = async (filters: ContactFilters, sort: "newest" | "name" | "budget", drivingSetLimit?: number) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listContacts(ctx, userId, { filters, sort, cursor, limit: 4, drivingSetLimit });
        ids.push(...page.contacts.map((c) => c.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return ids;
    };
    for (const filters of [{ tag: "buyer" }, { search: "lindq" }, { search: "lindq", tag: "BUYER", status: "hot" as const }]) {
      for (const sort of ["newest", "name", "budget"] as const) {
        const driven = await walk(filters, sort);
        const scanned = await walk(filters, sort, 0);
        expect(driven.length, JSON.stringify(filters)).toBeGreaterThan(0);
        expect(driven, `${JSON.stringify(filters)} ${sort}`).toEqual(scanned);
      }
    }
    expect(await walk({ tag: "buyer" }, "newest")).toHaveLength(9);
    expect(await walk({ search: "lindq", tag: "buyer", status: "hot" }, "name")).toHaveLength(5);
  });
});

describe("contact isolation", () => {
  it("another user can neither read, list, search, count, update nor delete your contacts", async () => {
    const alice = await owner();
    const mallory = await owner();
    const ctx = context();
    const secret = await createContact(ctx, alice, input({ name: "Zebulon Secretperson", tags: ["private-tag"], status: "hot" }));
    expect(await getContact(ctx, mallory, secret.id)).toBeUndefined();
    expect((await listContacts(ctx, mallory, {})).contacts).toEqual([]);
    expect((await listContacts(ctx, mallory, { filters: { search: "Secretperson" } })).contacts).toEqual([]);
    expect((await listContacts(ctx, mallory, { filters: { tag: "private-tag" } })).contacts).toEqual([]);
    expect((await countByStatus(ctx, mallory)).all).toBe(0);
    expect((await countByStatus(ctx, alice)).all).toBe(1);
    expect(await listTags(ctx, mallory)).toEqual([]);
    expect(await updateContact(ctx, mallory, secret.id, { name: "Owned" })).toBeUndefined();
    expect(await deleteContacts(ctx, mallory, [secret.id], SYSTEM_WHERE)).toBe(0);
    expect(await getContact(ctx, alice, secret.id)).toMatchObject({ name: "Zebulon Secretperson" });
    expect((await listContacts(ctx, alice, { filters: { search: "Secretperson" } })).contacts.map((c) => c.id)).toEqual([secret.id]);
  });
});

describe("bulk changes", () => {
  it("set status, add and remove tags, delete and restore, with the counters exact after each", async () => {
    const userId = await owner();
    const ctx = context();
    const made = [];
    for (const name of ["Ann", "Ben", "Cat"]) made.push(await createContact(ctx, userId, input({ name, tags: ["Buyer"] })));
    const ids = made.map((c) => c.id);
    expect(await countByStatus(ctx, userId)).toEqual({ hot: 0, warm: 0, cold: 3, all: 3 });

    expect(await setStatus(ctx, userId, ids.slice(0, 2), "hot")).toBe(2);
    expect(await countByStatus(ctx, userId)).toEqual({ hot: 2, warm: 0, cold: 1, all: 3 });
    expect(await changeTag(ctx, userId, ids, "vip", "add")).toBe(3);
    expect(await changeTag(ctx, userId, ids, "VIP", "add")).toBe(3);
    expect((await getContact(ctx, userId, ids[0]!))!.tags).toEqual(["Buyer", "vip"]);
    expect(await changeTag(ctx, userId, [ids[0]!], "buyer", "remove")).toBe(1);
    expect(await listTags(ctx, userId)).toEqual([
      { tag: "vip", count: 3 },
      { tag: "Buyer", count: 2 },
    ]);
    expect((await listContacts(ctx, userId, { filters: { tag: "buyer" } })).contacts.map((c) => c.name).sort()).toEqual(["Ben", "Cat"]);

    const removed = await trashContacts(ctx, userId, ids.slice(1), SYSTEM_WHERE);
    expect(removed.moved).toBe(2);
    expect(await countByStatus(ctx, userId)).toEqual({ hot: 1, warm: 0, cold: 0, all: 1 });
    expect(await listTags(ctx, userId)).toEqual([{ tag: "vip", count: 1 }]);
    expect((await restoreFromTrash(env.DB, userId, removed.trashIds)).restored).toBe(2);
    expect(await countByStatus(ctx, userId)).toEqual({ hot: 2, warm: 0, cold: 1, all: 3 });
    expect((await getContact(ctx, userId, ids[1]!))!.createdAt).toEqual(made[1]!.createdAt);
  });

  it("never lets bulk changes or a restore touch another user's contacts", async () => {
    const alice = await owner();
    const mallory = await owner();
    const ctx = context();
    const mine = await createContact(ctx, alice, input({ name: "Alice's client", tags: ["keep"] }));
    expect(await setStatus(ctx, mallory, [mine.id], "hot")).toBe(0);
    expect(await changeTag(ctx, mallory, [mine.id], "keep", "remove")).toBe(0);
    expect(await trashContacts(ctx, mallory, [mine.id], SYSTEM_WHERE)).toEqual({ moved: 0, trashIds: [] });
    // Alice's trash ids in Mallory's hands restore nothing.
    const trashed = await trashContacts(ctx, alice, [mine.id], SYSTEM_WHERE);
    expect(await restoreFromTrash(env.DB, mallory, trashed.trashIds)).toMatchObject({ restored: 0, notFound: 1 });
    expect(await getContact(ctx, alice, mine.id)).toBeUndefined();
    expect((await restoreFromTrash(env.DB, alice, trashed.trashIds)).restored).toBe(1);
    expect(await getContact(ctx, alice, mine.id)).toMatchObject({ name: "Alice's client", status: "cold", tags: ["keep"] });
    expect(await getContact(ctx, mallory, mine.id)).toBeUndefined();
  });
});
