import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, crmTasks, deals, leadAlerts } from "~/db/schema";
import { SUBMISSION_KEY_HEADER, SUBMISSION_KEY_MESSAGE } from "~/modules/sync/submission-key";
import { signInAs, type TestBrowser } from "../factories/browser";
import { dayFromToday } from "../factories/dates";
import { createUser } from "../factories/users";

// Submission keys (ADR 0051): every create the app makes carries a key the browser keeps across a retry and a reload;
// the server applies a key once, as it applies the offline queue's keys, and answers a repeat with the first result.
// Each case sends the same submission twice at once (the first still running when the retry comes) and once more
// after, and finds one row.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

async function agent() {
  const user = await createUser(env.DB);
  return { userId: user.id, browser: await signInAs(user) };
}

/** Sends `fields` with `key` twice at once, then again: every answer 200, each naming the same row. */
async function thrice(browser: TestBrowser, path: string, fields: Record<string, string>, key: string) {
  const form = { ...fields, submissionKey: key };
  const racing = await Promise.all([browser.post(path, form), browser.post(path, form)]);
  const later = await browser.post(path, form);
  const answers = [...racing, later];
  expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
  return Promise.all(answers.map((r) => r.text()));
}

describe("a create sent again with its submission key", () => {
  it("adds one contact, one new lead, and answers every retry with it", async () => {
    const { userId, browser } = await agent();
    const answers = await thrice(
      browser,
      "/contacts?index",
      { intent: "create", name: "Quinn Once", phone: "555 010 4242", status: "hot", propertyType: "house", source: "website" },
      crypto.randomUUID(),
    );
    const made = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.userId, userId), eq(contacts.name, "Quinn Once")));
    expect(made).toHaveLength(1);
    for (const html of answers) expect(html).toContain(made[0]!.id);
    // A second, different submission is a second contact (warned as a duplicate first, then saved on purpose).
    expect(
      (
        await browser.post("/contacts?index", {
          intent: "create",
          name: "Quinn Once",
          phone: "555 010 4242",
          status: "hot",
          propertyType: "house",
          source: "website",
          submissionKey: crypto.randomUUID(),
          duplicateOk: "1",
        })
      ).status,
    ).toBe(200);
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.userId, userId), eq(contacts.name, "Quinn Once"))),
    ).toHaveLength(2);
    await expect.poll(async () => (await db().select().from(leadAlerts).where(eq(leadAlerts.userId, userId))).length).toBe(2);
  });

  it("adds one deal, one task, one quick-add task and one activity", async () => {
    const { userId, browser } = await agent();
    const [contact] = await db().insert(contacts).values({ id: crypto.randomUUID(), userId, name: "Rae Keyed", phone: "555 010 5151" }).returning();

    const dealAnswers = await thrice(
      browser,
      "/pipeline?index",
      { intent: "create", title: "7 Keyed Lane", stage: "lead", dealValueCents: "350000" },
      crypto.randomUUID(),
    );
    const madeDeals = await db()
      .select()
      .from(deals)
      .where(and(eq(deals.userId, userId), eq(deals.title, "7 Keyed Lane")));
    expect(madeDeals).toHaveLength(1);
    for (const html of dealAnswers) expect(html).toContain(madeDeals[0]!.id);

    await thrice(
      browser,
      "/tasks",
      {
        intent: "create",
        title: "Send the keyed CMA",
        type: "email",
        priority: "medium",
        dueDate: dayFromToday(1),
        dueTime: "",
        repeat: "",
        contactId: "",
        dealId: "",
        notes: "",
      },
      crypto.randomUUID(),
    );
    expect(
      await db()
        .select()
        .from(crmTasks)
        .where(and(eq(crmTasks.userId, userId), eq(crmTasks.title, "Send the keyed CMA"))),
    ).toHaveLength(1);

    // The quick add names Rae: the retries get the first answer, link and all.
    const quick = await thrice(browser, "/tasks", { intent: "quick-add", text: "Call Rae Keyed tomorrow 9am" }, crypto.randomUUID());
    const quickTasks = await db()
      .select()
      .from(crmTasks)
      .where(and(eq(crmTasks.userId, userId), eq(crmTasks.title, "Call Rae Keyed")));
    expect(quickTasks).toHaveLength(1);
    expect(quickTasks[0]!.contactId).toBe(contact!.id);
    for (const html of quick) expect(html).toContain(quickTasks[0]!.id);

    await thrice(
      browser,
      "/activities",
      { intent: "log", type: "call", contactId: contact!.id, date: dayFromToday(0), time: "", outcome: "Keyed call", notes: "" },
      crypto.randomUUID(),
    );
    expect(
      await db()
        .select()
        .from(crmActivities)
        .where(and(eq(crmActivities.userId, userId), eq(crmActivities.outcome, "Keyed call"))),
    ).toHaveLength(1);
  });

  it("imports a file once when the import is sent again with its key", async () => {
    const { userId, browser } = await agent();
    const key = crypto.randomUUID();
    const send = () =>
      browser.fetch("/api/contacts/import", {
        method: "POST",
        headers: { Origin: "http://localhost", "Content-Type": "application/json", [SUBMISSION_KEY_HEADER]: key },
        body: JSON.stringify({
          rows: [
            ["Ivo Keyed", "ivo.keyed@example.com"],
            ["Uma Keyed", "uma.keyed@example.com"],
            ["", "no-name@example.com"],
          ],
          mapping: ["name", "email"],
          mode: "create",
        }),
      });
    const answers = await Promise.all([send(), send()]);
    answers.push(await send());
    for (const response of answers) {
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ok: true, summary: { created: 2, rejected: [{ line: 4 }] } });
    }
    expect(await db().select().from(contacts).where(eq(contacts.userId, userId))).toHaveLength(2);
  });

  it("is the agent's own: another agent's same key is their create; a key that is not one is refused, nothing made", async () => {
    const mine = await agent();
    const theirs = await agent();
    const key = crypto.randomUUID();
    const fields = { intent: "create", status: "warm", propertyType: "house", source: "other", submissionKey: key };
    expect((await mine.browser.post("/contacts?index", { ...fields, name: "Shared Key", phone: "555 010 6161" })).status).toBe(200);
    expect((await theirs.browser.post("/contacts?index", { ...fields, name: "Shared Key", phone: "555 010 6161" })).status).toBe(200);
    for (const { userId } of [mine, theirs])
      expect(
        await db()
          .select()
          .from(contacts)
          .where(and(eq(contacts.userId, userId), eq(contacts.name, "Shared Key"))),
      ).toHaveLength(1);

    for (const [path, form] of [
      ["/contacts?index", { intent: "create", name: "Bad Key", phone: "555 010 7171", status: "warm", propertyType: "house", source: "other" }],
      ["/tasks", { intent: "quick-add", text: "Bad key task tomorrow" }],
      ["/pipeline?index", { intent: "create", title: "Bad key deal", stage: "lead", dealValueCents: "100" }],
      ["/activities", { intent: "log", type: "call", contactId: "x", date: dayFromToday(0), time: "", outcome: "", notes: "" }],
    ] as const) {
      const refused = await mine.browser.post(path, { ...form, submissionKey: "not a key!" });
      expect(refused.status, path).toBe(400);
      expect(await refused.text(), path).toContain(escapeHtml(SUBMISSION_KEY_MESSAGE));
    }
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.userId, mine.userId), eq(contacts.name, "Bad Key"))),
    ).toEqual([]);
    expect(await db().select().from(crmTasks).where(eq(crmTasks.userId, mine.userId))).toEqual([]);
    expect(await db().select().from(deals).where(eq(deals.userId, mine.userId))).toEqual([]);
  });
});
