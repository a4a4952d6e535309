import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { logActivity } from "~/modules/activities/activities.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { countByStatus, createContact, listContacts, listTags } from "~/modules/contacts/contacts.server";
import { contactsPerSource } from "~/modules/reports/added.server";
import { summarizeExport } from "~/modules/data/export.server";
import { createDeal, moveDeal } from "~/modules/deals/deals.server";
import { completeTask, createTask } from "~/modules/tasks/tasks.server";
import {
  emptyTrash,
  listTrash,
  TRASHED,
  NOT_RESTORED,
  moveToTrash,
  purgeExpiredTrash,
  restoreFromTrash,
  TRASH_MS,
} from "~/modules/trash/trash.server";
import type { Env } from "~/lib/env.server";
import { TRASH_DAYS } from "~/modules/trash/trash";
import { JOBS } from "../../workers/cron";
import { trashPurgeJob } from "../../workers/cron/trash-purge.job";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dealInput } from "../factories/deals";
import { activityInput, taskInput } from "../factories/tasks";
import { createUser } from "../factories/users";

const ok = <T extends { ok: boolean }>(result: T) => {
  if (!result.ok) throw new Error(`expected ok: ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
};
const owner = async () => (await createUser(env.DB)).id as UserId;
const contactInput = (fields: Record<string, unknown>) => ContactInputSchema.parse({ email: "t@example.com", ...fields });

/** Every row of `table` where `column` is one of `values`, raw (integers stay integers), without the rowid aliases. */
async function rows(table: string, column: string, values: string[], drop: string[] = ["seq"]) {
  const { results } = await env.DB.prepare(`select * from "${table}" where "${column}" in (select value from json_each(?)) order by rowid`)
    .bind(JSON.stringify(values))
    .all<Record<string, unknown>>();
  return results.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k))));
}
const count = async (table: string, where: string, ...binds: unknown[]) =>
  Number(
    (
      await env.DB.prepare(`select count(*) as n from "${table}" where ${where}`)
        .bind(...binds)
        .first<{ n: number }>()
    )?.n ?? 0,
  );

/** A contact with a deal (stage history, activities), tasks and activities of its own. */
async function book(userId: UserId, name = "Dana Trash") {
  const ctx = requestContext();
  const contact = await createContact(ctx, userId, contactInput({ name, tags: ["buyer", "vip"], status: "hot", source: "website" }));
  const deal = ok(await createDeal(ctx, userId, dealInput({ title: `${name} 12 Oak St`, contactId: contact.id }))).deal;
  ok(await moveDeal(ctx, userId, deal.id, { stage: "qualified", afterId: null, beforeId: null, lostReason: null }));
  const task = ok(await createTask(ctx, userId, taskInput({ title: `${name} call back`, contactId: contact.id, dealId: deal.id }))).task;
  ok(await logActivity(ctx, userId, activityInput({ contactId: contact.id, notes: "Talked" })));
  ok(await logActivity(ctx, userId, activityInput({ contactId: contact.id, dealId: deal.id, type: "meeting" })));
  // Completing the task logs an activity linked to it (and to its contact and deal).
  ok(await completeTask(ctx, userId, task.id, { log: { type: "call", outcome: "Connected", notes: null } }));
  return { ctx, contact, deal, task };
}

describe("the trash: deleting moves, restoring brings everything back", () => {
  it("places every table that points at a contact, deal or task: moved with it, re-linked, or kept by triggers", async () => {
    const { results: tables } = await env.DB.prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%'",
    ).all<{ name: string }>();
    const placed = new Set(
      Object.values(TRASHED).flatMap((spec) => [...spec.children, ...spec.links].map((r) => `${r.table}.${r.column}->${spec.table}`)),
    );
    const found: string[] = [];
    for (const { name } of tables) {
      const { results: keys } = await env.DB.prepare(`select "from" as col, "table" as target from pragma_foreign_key_list(?)`)
        .bind(name)
        .all<{ col: string; target: string }>();
      for (const key of keys) if (["contacts", "deals", "crm_tasks"].includes(key.target)) found.push(`${name}.${key.col}->${key.target}`);
    }
    // contact_tags is rebuilt by triggers from contacts.tags when the contact comes back; NOT_RESTORED says why the
    // rest go for good.
    expect(found.filter((k) => !placed.has(k) && !(k in NOT_RESTORED)).sort()).toEqual(["contact_tags.contact_id->contacts"]);
    expect(found.length).toBeGreaterThanOrEqual(placed.size);
  });

  it("a contact: gone from lists, search, counts, reports and the export; restored identical with its links", async () => {
    const userId = await owner();
    const { ctx, contact, deal, task } = await book(userId, "Quill Trashable");
    const before = {
      contact: await rows("contacts", "id", [contact.id], ["seq", "lead_scored_at"]),
      deals: await rows("deals", "contact_id", [contact.id]),
      tasks: await rows("crm_tasks", "contact_id", [contact.id]),
      activities: await rows("crm_activities", "contact_id", [contact.id]),
      tags: await rows("contact_tags", "contact_id", [contact.id]),
    };
    expect(before.activities.length).toBeGreaterThanOrEqual(2);
    const statusBefore = await countByStatus(ctx, userId);
    const sourcesBefore = await contactsPerSource(ctx.db, userId);

    const moved = await moveToTrash(env.DB, userId, "contact", [contact.id]);
    expect(moved.moved).toBe(1);
    expect(await count("contacts", "id = ?", contact.id)).toBe(0);
    expect((await listContacts(ctx, userId, { filters: { search: "Quill" }, sort: "newest" })).contacts).toEqual([]);
    expect((await listContacts(ctx, userId, { filters: {}, sort: "newest" })).contacts).toEqual([]);
    expect((await countByStatus(ctx, userId)).hot).toBe(statusBefore.hot - 1);
    expect(await listTags(ctx, userId)).toEqual([]);
    expect((await contactsPerSource(ctx.db, userId)).find((s) => s.source === "website")?.n ?? 0).toBe(
      (sourcesBefore.find((s) => s.source === "website")?.n ?? 0) - 1,
    );
    expect((await summarizeExport(env.DB, userId)).find((c) => c.key === "contacts")?.count).toBe(0);
    // Linked rows stay live, unlinked (as the delete always did).
    expect(await count("deals", "id = ? and contact_id is null", deal.id)).toBe(1);
    expect(await count("crm_tasks", "id = ? and contact_id is null", task.id)).toBe(1);
    expect((await listTrash(env.DB, userId)).items).toMatchObject([{ kind: "contact", itemId: contact.id, title: "Quill Trashable" }]);

    const restored = await restoreFromTrash(env.DB, userId, moved.trashIds);
    expect(restored).toMatchObject({ restored: 1, notFound: 0, conflicts: 0 });
    expect(await rows("contacts", "id", [contact.id], ["seq", "lead_scored_at"])).toEqual(before.contact);
    expect(await rows("deals", "contact_id", [contact.id])).toEqual(before.deals);
    expect(await rows("crm_tasks", "contact_id", [contact.id])).toEqual(before.tasks);
    expect(await rows("crm_activities", "contact_id", [contact.id])).toEqual(before.activities);
    expect(await rows("contact_tags", "contact_id", [contact.id])).toEqual(before.tags);
    expect(await countByStatus(ctx, userId)).toEqual(statusBefore);
    expect((await listContacts(ctx, userId, { filters: { search: "Quill" }, sort: "newest" })).contacts.map((c) => c.id)).toEqual([contact.id]);
    expect((await listTrash(env.DB, userId)).total).toBe(0);
    expect(await count("trash_rows", "user_id = ?", userId)).toBe(0);
  });

  it("a deal: its activities and stage history move with it and come back identical; its tasks are re-linked", async () => {
    const userId = await owner();
    const { contact, deal, task } = await book(userId, "Deal Trash");
    const before = {
      deal: await rows("deals", "id", [deal.id]),
      history: await rows("deal_stage_history", "deal_id", [deal.id]),
      activities: await rows("crm_activities", "deal_id", [deal.id]),
      contact: await rows("contacts", "id", [contact.id], ["seq", "lead_scored_at", "updated_at"]),
    };
    expect(before.history.length).toBe(2);
    expect(before.activities.length).toBeGreaterThanOrEqual(2);

    const moved = await moveToTrash(env.DB, userId, "deal", [deal.id]);
    expect(moved.moved).toBe(1);
    expect(await count("deals", "id = ?", deal.id)).toBe(0);
    expect(await count("deal_stage_history", "deal_id = ?", deal.id)).toBe(0);
    expect(await count("crm_activities", "deal_id = ?", deal.id)).toBe(0);
    expect(await count("crm_tasks", "id = ? and deal_id is null", task.id)).toBe(1);
    expect((await summarizeExport(env.DB, userId)).find((c) => c.key === "deals")?.count).toBe(0);

    await restoreFromTrash(env.DB, userId, moved.trashIds);
    expect(await rows("deals", "id", [deal.id])).toEqual(before.deal);
    expect(await rows("deal_stage_history", "deal_id", [deal.id])).toEqual(before.history);
    expect(await rows("crm_activities", "deal_id", [deal.id])).toEqual(before.activities);
    expect(await count("crm_tasks", "id = ? and deal_id = ?", task.id, deal.id)).toBe(1);
    // The contact's last activity and first response, kept by triggers, are what they were.
    expect(await rows("contacts", "id", [contact.id], ["seq", "lead_scored_at", "updated_at"])).toEqual(before.contact);
  });

  it("a task: its activities are re-linked; a restored row's key to a row gone since comes back null", async () => {
    const userId = await owner();
    const { contact, deal, task } = await book(userId, "Task Trash");
    const before = await rows("crm_tasks", "id", [task.id]);
    const linked = await rows("crm_activities", "task_id", [task.id]);
    expect(linked.length).toBe(1);
    const taskMove = await moveToTrash(env.DB, userId, "task", [task.id]);
    expect(await count("crm_activities", "task_id = ?", task.id)).toBe(0);
    await restoreFromTrash(env.DB, userId, taskMove.trashIds);
    expect(await rows("crm_tasks", "id", [task.id])).toEqual(before);
    expect(await rows("crm_activities", "task_id", [task.id])).toEqual(linked);

    // The task goes again, then its deal and contact are deleted for good: it comes back without those links.
    const again = await moveToTrash(env.DB, userId, "task", [task.id]);
    const gone = [await moveToTrash(env.DB, userId, "deal", [deal.id]), await moveToTrash(env.DB, userId, "contact", [contact.id])];
    await emptyTrash(
      env.DB,
      userId,
      gone.flatMap((g) => g.trashIds),
    );
    expect((await restoreFromTrash(env.DB, userId, again.trashIds)).restored).toBe(1);
    expect(await rows("crm_tasks", "id", [task.id])).toEqual([{ ...before[0], contact_id: null, deal_id: null }]);
  });

  it("another agent cannot see, restore or empty your trash", async () => {
    const alice = await owner();
    const mallory = await owner();
    const { contact } = await book(alice, "Alice Secret");
    const moved = await moveToTrash(env.DB, alice, "contact", [contact.id]);
    // Mallory cannot trash Alice's contact either.
    expect((await moveToTrash(env.DB, mallory, "contact", [contact.id])).moved).toBe(0);
    expect((await listTrash(env.DB, mallory)).total).toBe(0);
    expect(await restoreFromTrash(env.DB, mallory, moved.trashIds)).toMatchObject({ restored: 0, notFound: 1 });
    expect(await emptyTrash(env.DB, mallory, moved.trashIds)).toBe(0);
    expect(await emptyTrash(env.DB, mallory)).toBe(0);
    expect((await listTrash(env.DB, alice)).total).toBe(1);
    expect(await count("contacts", "id = ?", contact.id)).toBe(0);
    expect(await emptyTrash(env.DB, alice)).toBe(1);
    expect(await count("trash_rows", "user_id = ?", alice)).toBe(0);
  });

  it("the purge removes items only once they are 30 days old", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const now = Date.now();
    const [old, recent] = await Promise.all([
      createContact(ctx, userId, contactInput({ name: "Old One" })),
      createContact(ctx, userId, contactInput({ name: "Recent One" })),
    ]);
    await moveToTrash(env.DB, userId, "contact", [old.id], now - TRASH_MS - 1_000);
    await moveToTrash(env.DB, userId, "contact", [recent.id], now - TRASH_MS + 60_000);
    expect(await purgeExpiredTrash(env.DB, now)).toBeGreaterThanOrEqual(1);
    expect((await listTrash(env.DB, userId)).items.map((i) => i.title)).toEqual(["Recent One"]);
    // A minute later the second one is 30 days old too.
    await purgeExpiredTrash(env.DB, now + 60_000);
    expect((await listTrash(env.DB, userId)).total).toBe(0);
    expect(await count("trash_rows", "user_id = ?", userId)).toBe(0);
  });

  it("a bulk delete of 1,000 contacts moves and restores them all", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const ids = Array.from({ length: 1_000 }, (_, i) => `bulk-${i}-${crypto.randomUUID().slice(0, 8)}`);
    const values = ids.map((id, i) => ({ id, name: `Bulk ${i}`, status: "warm", tags: '["bulk"]' }));
    for (let i = 0; i < values.length; i += 200) {
      await env.DB.prepare(
        `insert into contacts (id, user_id, name, status, tags) select json_extract(value, '$.id'), ?, json_extract(value, '$.name'), json_extract(value, '$.status'), json_extract(value, '$.tags') from json_each(?)`,
      )
        .bind(userId, JSON.stringify(values.slice(i, i + 200)))
        .run();
    }
    const moved = await moveToTrash(env.DB, userId, "contact", ids);
    expect(moved.moved).toBe(1_000);
    expect(await count("contacts", "user_id = ?", userId)).toBe(0);
    expect((await countByStatus(ctx, userId)).warm).toBe(0);
    const restored = await restoreFromTrash(env.DB, userId, moved.trashIds);
    expect(restored.restored).toBe(1_000);
    expect(await count("contacts", "user_id = ?", userId)).toBe(1_000);
    expect((await countByStatus(ctx, userId)).warm).toBe(1_000);
    expect(await listTags(ctx, userId)).toEqual([{ tag: "bulk", count: 1_000 }]);
  });
});

describe("Settings → Trash through the app", () => {
  const post = (browser: TestBrowser, fields: [string, string][]) =>
    browser.fetch("/settings/trash", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });

  it("lists the trash, restores by trash id, and empties it after a confirmation on the page", async () => {
    const agent = await createUser(env.DB);
    const browser = await signInAs(agent);
    const deleted = await browser.post("/contacts?index", { intent: "create", name: "Page Trash Person", phone: "555 0111" });
    expect(deleted.status).toBe(200);
    const [contact] = (await listContacts(requestContext(), agent.id as UserId, { filters: {}, sort: "newest" })).contacts;
    const answer = await browser.post("/contacts?index", { intent: "delete", id: contact!.id });
    const body = (await answer.text()).replace(/<!-- -->/g, "");
    const trashId = (await listTrash(env.DB, agent.id)).items[0]!.id;
    // Only the trash id reaches the browser, never the deleted row.
    expect(body).toContain(trashId);
    expect(body).not.toContain("555 0111");

    const page = (await browser.page("/settings?tab=trash")).replace(/<!-- -->/g, "");
    expect(page).toContain("Page Trash Person");
    expect(page).toContain(`Deleted for good in ${TRASH_DAYS} days`);

    const restored = await post(browser, [
      ["intent", "restore"],
      ["id", trashId],
    ]);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ ok: true, message: "1 contact restored", count: 1 });
    expect((await listContacts(requestContext(), agent.id as UserId, { filters: {}, sort: "newest" })).contacts.map((c) => c.id)).toEqual([
      contact!.id,
    ]);
    // Spent: a second restore finds nothing, and says so.
    const again = await post(browser, [
      ["intent", "restore"],
      ["id", trashId],
    ]);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ ok: false, error: "Those items are no longer in the trash." });

    // Deleted for good, one item: the contact is gone from the trash too.
    expect((await browser.post("/contacts?index", { intent: "delete", id: contact!.id })).status).toBe(200);
    const forGood = await post(browser, [
      ["intent", "delete"],
      ["id", (await listTrash(env.DB, agent.id)).items[0]!.id],
    ]);
    expect(await forGood.json()).toMatchObject({ ok: true, message: "1 item deleted for good", count: 1 });
    expect((await listTrash(env.DB, agent.id)).total).toBe(0);
    expect(await count("contacts", "id = ?", contact!.id)).toBe(0);

    await browser.post("/contacts?index", { intent: "create", name: "Second Trash Person", phone: "555 0112" });
    const [second] = (await listContacts(requestContext(), agent.id as UserId, { filters: {}, sort: "newest" })).contacts;
    expect((await browser.post("/contacts?index", { intent: "delete", id: second!.id })).status).toBe(200);
    const emptied = await post(browser, [["intent", "empty"]]);
    expect(await emptied.json()).toMatchObject({ ok: true, message: "Trash emptied", count: 1 });
    expect((await browser.page("/settings?tab=trash")).replace(/<!-- -->/g, "")).toContain("The trash is empty");
  });

  it("refuses bad input with a clear message and changes nothing; another agent's ids are not found", async () => {
    const alice = await owner();
    const { contact } = await book(alice, "Hostile Target");
    const moved = await moveToTrash(env.DB, alice, "contact", [contact.id]);
    const mallory = await createUser(env.DB);
    const browser = await signInAs(mallory);
    const cases: [[string, string][], number, string][] = [
      [[["intent", "restore"]], 400, "Choose at least one item."],
      [
        [
          ["intent", "restore"],
          ["id", ""],
        ],
        400,
        "Choose at least one item.",
      ],
      [
        [
          ["intent", "restore"],
          ["id", "x".repeat(65)],
        ],
        400,
        "That is not an item of the trash.",
      ],
      [
        [
          ["intent", "explode"],
          ["id", moved.trashIds[0]!],
        ],
        400,
        "Unknown action.",
      ],
      [[], 400, "Unknown action."],
      [
        [
          ["intent", "restore"],
          ["id", moved.trashIds[0]!],
        ],
        404,
        "Those items are no longer in the trash.",
      ],
      [
        [
          ["intent", "delete"],
          ["id", moved.trashIds[0]!],
        ],
        404,
        "Those items are no longer in the trash.",
      ],
      [
        [
          ["intent", "restore"],
          ["id", "'); drop table trash_items; --"],
        ],
        404,
        "Those items are no longer in the trash.",
      ],
    ];
    for (const [fields, status, error] of cases) {
      const response = await post(browser, fields);
      expect(response.status, JSON.stringify(fields)).toBe(status);
      const result = (await response.json()) as { ok: boolean; error: string };
      expect(result.ok).toBe(false);
      expect(result.error).toBe(error);
    }
    // Too many ids at once.
    const many = await post(browser, [["intent", "restore"], ...Array.from({ length: 5_001 }, (_, i): [string, string] => ["id", `t${i}`])]);
    expect(many.status).toBe(400);
    // A body that is not a form is a clear 415, not a 500.
    expect(
      (
        await browser.fetch("/settings/trash", {
          method: "POST",
          headers: { Origin: "http://localhost", "Content-Type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(415);
    // Mallory's "empty" empties only her own (empty) trash.
    expect(await (await post(browser, [["intent", "empty"]])).json()).toMatchObject({ ok: true, count: 0 });
    expect((await listTrash(env.DB, alice)).items.map((i) => i.id)).toEqual(moved.trashIds);
    expect(await count("contacts", "id = ?", contact.id)).toBe(0);
  });

  it("the deal page's delete answers its trash id for Undo, and the task action's undo restores from the trash", async () => {
    const agent = await createUser(env.DB);
    const browser = await signInAs(agent);
    const userId = agent.id as UserId;
    const { deal, task } = await book(userId, "Page Deal");
    // As the page's fetcher sends it (single fetch): the answer is data, and the page does not reload the gone deal.
    const answer = await browser.post(`/deals/${deal.id}.data`, { intent: "delete", reply: "undo" });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const trashId = (await listTrash(env.DB, userId)).items.find((i) => i.kind === "deal")!.id;
    expect((await answer.text()).replace(/<!-- -->/g, "")).toContain(trashId);
    expect(
      await (
        await post(browser, [
          ["intent", "restore"],
          ["id", trashId],
        ])
      ).json(),
    ).toMatchObject({ ok: true, message: "1 deal restored" });
    expect(await count("deals", "id = ?", deal.id)).toBe(1);

    const removed = await browser.post("/tasks", { intent: "delete", id: task.id });
    const result = (await removed.text()).replace(/<!-- -->/g, "");
    const taskTrash = (await listTrash(env.DB, userId)).items.find((i) => i.kind === "task")!.id;
    expect(result).toContain(taskTrash);
    expect(await count("crm_tasks", "id = ?", task.id)).toBe(0);
    const back = await browser.post("/tasks", { intent: "restore", trashId: taskTrash });
    expect(back.status, await back.clone().text()).toBe(200);
    expect(await count("crm_tasks", "id = ? and deal_id = ?", task.id, deal.id)).toBe(1);
    // A plain form post (no script) deletes and goes to the pipeline.
    const plain = await browser.post(`/deals/${deal.id}`, { intent: "delete" });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toBe("/pipeline");
  });

  it("runs from the five-minute cron, purging by the scheduled time", async () => {
    expect(JOBS["*/5 * * * *"]?.map((job) => job.name)).toContain("trashPurgeJob");
    const userId = await owner();
    const ctx = requestContext();
    const contact = await createContact(ctx, userId, contactInput({ name: "Cron Purged" }));
    const deletedAt = Date.now();
    await moveToTrash(env.DB, userId, "contact", [contact.id], deletedAt);
    await trashPurgeJob(
      ctx.db,
      createScheduledController({ cron: "*/5 * * * *", scheduledTime: new Date(deletedAt + TRASH_MS - 60_000) }),
      env as Env,
    );
    expect((await listTrash(env.DB, userId)).total).toBe(1);
    await trashPurgeJob(ctx.db, createScheduledController({ cron: "*/5 * * * *", scheduledTime: new Date(deletedAt + TRASH_MS) }), env as Env);
    expect((await listTrash(env.DB, userId)).total).toBe(0);
  });
});
