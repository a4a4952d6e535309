import { env } from "cloudflare:workers";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, leadAlerts } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact, getContact } from "~/modules/contacts/contacts.server";
import type { ColumnMapping } from "~/modules/contacts/csv";
import { IMPORT_ROW_LIMIT, type DuplicateMode } from "~/modules/contacts/import";
import { importContacts } from "~/modules/contacts/import.server";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

// The import's edges, judged by behaviour (counts, all or nothing), not by how it splits the
// work into statements: sizes around and past one statement's worth of rows, the 20,000-row cap, and the
// duplicate lookup's owner filter. Rows are tiny (a name and a phone) so the large cases stay cheap.

const db = createDb(env.DB);
const owner = async () => (await createUser(env.DB)).id as UserId;
const contactCount = async (userId: string) => (await db.select({ n: count() }).from(contacts).where(eq(contacts.userId, userId)).get())!.n;
const tinyRows = (n: number, prefix = "P") => Array.from({ length: n }, (_, i) => [`${prefix}${i}`, String(i)]);
const NAME_PHONE: ColumnMapping = ["name", "phone"];
const run = (userId: UserId, rows: string[][], mapping: ColumnMapping = NAME_PHONE, mode: DuplicateMode = "skip") =>
  importContacts(requestContext(), userId, { rows, mapping, mode });

describe("import sizes around a statement's worth of rows", () => {
  for (const n of [1, 249, 250, 251, 500, 501, 1001]) {
    it(`imports exactly ${n} row${n === 1 ? "" : "s"}, each once`, async () => {
      const userId = await owner();
      const summary = await run(userId, tinyRows(n));
      expect(summary).toEqual({ created: n, updated: 0, skipped: 0, newLeads: 0, rejected: [] });
      expect(await contactCount(userId)).toBe(n);
      // Each row landed once: the first and last names are there, and no name twice.
      const names = await db.select({ name: contacts.name }).from(contacts).where(eq(contacts.userId, userId));
      expect(new Set(names.map((r) => r.name)).size).toBe(n);
      expect(names.map((r) => r.name)).toEqual(expect.arrayContaining(["P0", `P${n - 1}`]));
    });
  }

  for (const poisonAt of [250, 500]) {
    it(`writes nothing when row ${poisonAt + 1} of 501 fails (past the first statement's worth)`, async () => {
      const userId = await owner();
      const poison = `Poison ${crypto.randomUUID()}`;
      const rows = tinyRows(501);
      rows[poisonAt] = [poison, "1"];
      await env.DB.prepare(
        `CREATE TRIGGER fail_import_limits BEFORE INSERT ON contacts WHEN new.name = '${poison}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      ).run();
      try {
        await expect(run(userId, rows)).rejects.toThrow(/injected failure/);
      } finally {
        await env.DB.prepare("DROP TRIGGER fail_import_limits").run();
      }
      expect(await contactCount(userId)).toBe(0);
    });
  }
});

describe("the 20,000-row cap, through POST /api/contacts/import", () => {
  const post = (browser: Awaited<ReturnType<typeof signInAs>>, rows: string[][], mapping: ColumnMapping = NAME_PHONE) =>
    browser.fetch("/api/contacts/import", {
      method: "POST",
      body: JSON.stringify({ rows, mapping, mode: "skip" }),
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
    });

  it(`accepts ${IMPORT_ROW_LIMIT.toLocaleString("en-US")} rows and saves them all, every one marked New with its lead alert`, async () => {
    const user = await createUser(env.DB);
    const rows = tinyRows(IMPORT_ROW_LIMIT).map((row) => [...row, "New"]);
    const response = await post(await signInAs(user), rows, [...NAME_PHONE, "status"]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      summary: { created: IMPORT_ROW_LIMIT, updated: 0, skipped: 0, newLeads: IMPORT_ROW_LIMIT, rejected: [] },
    });
    expect(await contactCount(user.id)).toBe(IMPORT_ROW_LIMIT);
    // The alerts ride in the same batch, in the same byte-cut statements as the contacts.
    expect((await db.select({ n: count() }).from(leadAlerts).where(eq(leadAlerts.userId, user.id)).get())!.n).toBe(IMPORT_ROW_LIMIT);
    // Its speed is the bench's business (npm run bench times the 10,000-row and the largest import): a timed
    // assertion here failed on a loaded machine (22.7 s at load average 20) without anything being wrong.
  }, 120_000);

  it(`refuses ${(IMPORT_ROW_LIMIT + 1).toLocaleString("en-US")} rows with a clear message and saves none`, async () => {
    const user = await createUser(env.DB);
    const response = await post(await signInAs(user), tinyRows(IMPORT_ROW_LIMIT + 1));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: "Import at most 20,000 rows at a time." });
    expect(await contactCount(user.id)).toBe(0);
  });
});

describe("duplicates are looked up among the importing agent's contacts only", () => {
  const ctx = () => requestContext();
  const add = (userId: UserId, name: string, email: string) => createContact(ctx(), userId, ContactInputSchema.parse({ name, email }));

  for (const mode of ["skip", "update"] as const) {
    it(`in ${mode} mode, an e-mail another agent already has is imported for this agent and is not a duplicate`, async () => {
      const alice = await owner();
      const bob = await owner();
      const bobs = await add(bob, "Bob's Client", "shared@example.com");
      const summary = await run(alice, [["Alice's Client", "SHARED@example.com"]], ["name", "email"], mode);
      expect(summary).toEqual({ created: 1, updated: 0, skipped: 0, newLeads: 0, rejected: [] });
      expect(await contactCount(alice)).toBe(1);
      expect(await getContact(ctx(), bob, bobs.id)).toMatchObject({ name: "Bob's Client", email: "shared@example.com" });
      expect(await contactCount(bob)).toBe(1);
    });
  }

  it("across many e-mails (several lookups), matches only this agent's own", async () => {
    const alice = await owner();
    const bob = await owner();
    const emails = Array.from({ length: 200 }, (_, i) => `many-${i}@example.com`);
    // Bob has every address; Alice has one, late in the list.
    const bobRows = emails.map((email, i) => [`Bob ${i}`, email]);
    expect((await run(bob, bobRows, ["name", "email"], "create")).created).toBe(200);
    const mine = await add(alice, "Alice 150", emails[150]!);
    const summary = await run(
      alice,
      emails.map((email, i) => [`Imported ${i}`, email.toUpperCase()]),
      ["name", "email"],
      "update",
    );
    expect(summary).toMatchObject({ created: 199, updated: 1, skipped: 0 });
    expect(await getContact(ctx(), alice, mine.id)).toMatchObject({ name: "Imported 150" });
    expect(await contactCount(alice)).toBe(200);
    const bobNames = await db.select({ name: contacts.name }).from(contacts).where(eq(contacts.userId, bob));
    expect(bobNames.every((r) => r.name.startsWith("Bob "))).toBe(true);
    expect(bobNames).toHaveLength(200);
  });
});
