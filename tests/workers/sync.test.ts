import { env } from "cloudflare:workers";
import { SYSTEM_WHERE } from "~/modules/audit/audit.server";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { d1MeterOf, limitD1 } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { appliedChanges, contacts, crmActivities, crmTasks, deals, syncLog, syncMarks, type NewContact, type NewDeal } from "~/db/schema";
import { trashContacts } from "~/modules/contacts/contacts.server";
import { moveDeal } from "~/modules/deals/deals.server";
import { getStages, saveStages } from "~/modules/pipeline/stages.server";
import { decodeCursor, encodeCursor, fieldSync, pruneSyncLog } from "~/modules/sync/field-copy.server";
import { FIELD_COPY_LIMITS } from "~/modules/sync/field-copy";
import { applyQueuedChanges, pruneAppliedChanges } from "~/modules/sync/queued-changes.server";
import { completeTask } from "~/modules/tasks/tasks.server";
import { JOBS } from "../../workers/cron";
import { TestBrowser, signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { createAgent } from "../factories/users";

// The field copy's sync (whole, then only what changed since a cursor, the owner's rows only) and the
// changes a phone queued offline (applied once per key, conflicts resolved with the server's version standing).

const db = createDb(env.DB);
const DAY = 86_400_000;
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

const agent = () => createAgent(env.DB);
async function addContact(userId: string, fields: Partial<NewContact> = {}) {
  const now = new Date();
  const row: NewContact = {
    id: id("c"),
    userId,
    name: "Jane Doe",
    email: `${id("e")}@example.com`,
    status: "hot",
    createdAt: now,
    lastActivity: now,
    ...fields,
  };
  await db.insert(contacts).values(row);
  return row;
}
async function addActivity(userId: string, contactId: string, minutesAgo: number, notes = `note ${minutesAgo}`) {
  const row = { id: id("a"), userId, contactId, type: "call" as const, occurredAt: new Date(Date.now() - minutesAgo * 60_000), notes };
  await db.insert(crmActivities).values(row);
  return row;
}
async function addTask(userId: string, dueInDays: number, fields: Partial<typeof crmTasks.$inferInsert> = {}) {
  const row = { id: id("t"), userId, title: `Task due in ${dueInDays}`, dueDate: dayFromToday(dueInDays), ...fields };
  await db.insert(crmTasks).values(row);
  return row;
}
async function addDeal(userId: string, fields: Partial<NewDeal> = {}) {
  const now = new Date();
  const row: NewDeal = {
    id: id("d"),
    userId,
    title: "12 Oak St",
    stage: "showing",
    position: `a${seq}`,
    dealValueCents: 50_000_000,
    commissionRate: 3,
    probability: 40,
    createdAt: now,
    stageChangedAt: now,
    ...fields,
  };
  await db.insert(deals).values(row);
  return row;
}
const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();

describe("the field copy", () => {
  it("holds the owner's hot, warm and recently touched contacts with their last activities, near tasks and open deals", async () => {
    const { userId } = await agent();
    const other = await agent();
    const hot = await addContact(userId, { name: "Hot Lead" });
    const warmOld = await addContact(userId, { name: "Warm Old", status: "warm", lastActivity: new Date(Date.now() - 200 * DAY) });
    const coldRecent = await addContact(userId, { name: "Cold Recent", status: "cold", lastActivity: new Date(Date.now() - 5 * DAY) });
    await addContact(userId, { name: "Cold Old", status: "cold", lastActivity: new Date(Date.now() - 40 * DAY) });
    const theirs = await addContact(other.userId, { name: "Someone Else's" });
    for (let i = 0; i < 25; i++) await addActivity(userId, hot.id, i + 1);
    await addActivity(other.userId, theirs.id, 1);
    const overdue = await addTask(userId, -3);
    const today = await addTask(userId, 0);
    const edge = await addTask(userId, FIELD_COPY_LIMITS.taskDays);
    await addTask(userId, FIELD_COPY_LIMITS.taskDays + 1);
    await addTask(userId, 0, { status: "completed", completedAt: new Date() });
    await addTask(other.userId, 0);
    const open = await addDeal(userId, { contactId: hot.id });
    await addDeal(userId, { stage: "closed_won", closedDate: dayFromToday(-1) });
    await addDeal(other.userId);

    const copy = await fieldSync(requestContext(), userId, null);
    expect(copy.full).toBe(true);
    expect(copy.contacts.remove).toEqual([]);
    expect(ids(copy.contacts.upsert)).toEqual(ids([hot, warmOld, coldRecent]));
    const hotCopy = copy.contacts.upsert.find((c) => c.id === hot.id)!;
    expect(hotCopy.activities).toHaveLength(FIELD_COPY_LIMITS.activitiesPerContact);
    expect(hotCopy.activities[0]!.notes).toBe("note 1");
    expect(hotCopy.activities.map((a) => a.occurredAt)).toEqual([...hotCopy.activities.map((a) => a.occurredAt)].sort((a, b) => b - a));
    expect(ids(copy.tasks.upsert)).toEqual(ids([overdue, today, edge]));
    expect(copy.deals?.all.map((d) => d.id)).toEqual([open.id]);
    expect(copy.deals?.all[0]).toMatchObject({ stage: "showing", contactName: "Hot Lead", dealValueCents: 50_000_000 });
    expect(copy.deals!.all[0]!.netCents).toBeGreaterThan(0);
    expect(copy.deals?.stages.map((s) => s.key)).toContain("showing");
    expect(copy.truncated).toEqual({ contacts: false, tasks: false, deals: false });
    expect(JSON.stringify(copy)).not.toContain("Someone Else");
    expect(decodeCursor(copy.cursor)?.d).toBe(copy.today);
  });

  it("then sends only what changed since the cursor, the owner's only", async () => {
    const { userId } = await agent();
    const other = await agent();
    const renamed = await addContact(userId, { name: "Before" });
    const called = await addContact(userId, { name: "Called" });
    const deleted = await addContact(userId, { name: "Deleted" });
    const untouched = await addContact(userId, { name: "Untouched" });
    const done = await addTask(userId, 1);
    const deal = await addDeal(userId);
    const first = await fieldSync(requestContext(), userId, null);
    expect(first.contacts.upsert).toHaveLength(4);

    const nothing = await fieldSync(requestContext(), userId, first.cursor);
    expect(nothing).toMatchObject({ full: false, contacts: { upsert: [], remove: [] }, tasks: { upsert: [], remove: [] }, deals: null });

    await db.update(contacts).set({ name: "After" }).where(eq(contacts.id, renamed.id));
    await addActivity(userId, called.id, 0, "Left a voicemail");
    await trashContacts(requestContext(), userId, [deleted.id], SYSTEM_WHERE);
    await completeTask(requestContext(), userId, done.id);
    const added = await addTask(userId, 2);
    const theirs = await addContact(other.userId, { name: "Their New Lead" });
    await addActivity(other.userId, theirs.id, 0);
    // A column the copy does not hold adds nothing to the log.
    await db.update(contacts).set({ company: "Acme" }).where(eq(contacts.id, untouched.id));

    const delta = await fieldSync(requestContext(), userId, first.cursor);
    expect(delta.full).toBe(false);
    expect(ids(delta.contacts.upsert)).toEqual(ids([renamed, called]));
    expect(delta.contacts.upsert.find((c) => c.id === renamed.id)?.name).toBe("After");
    expect(delta.contacts.upsert.find((c) => c.id === called.id)?.activities[0]?.notes).toBe("Left a voicemail");
    expect(delta.contacts.remove).toEqual([deleted.id]);
    expect(delta.tasks.upsert.map((t) => t.id)).toEqual([added.id]);
    expect(delta.tasks.remove).toEqual([done.id]);
    expect(delta.deals).toBeNull();
    expect(JSON.stringify(delta)).not.toContain("Their New Lead");

    // A deal moved: the open deals come again (their nets depend on each other through the cap).
    await moveDeal(requestContext(), userId, deal.id, { stage: "offer", afterId: null, beforeId: null, lostReason: null });
    const moved = await fieldSync(requestContext(), userId, delta.cursor);
    expect(moved.deals?.all.map((d) => [d.id, d.stage])).toEqual([[deal.id, "offer"]]);
    // The move wrote a stage-change activity on no contact: nothing else changed.
    expect(moved.contacts).toEqual({ upsert: [], remove: [] });
  });

  it("a delta finds the changed rows by their ids, not by reading every row the agent owns", async () => {
    const { userId } = await agent();
    const many = [];
    for (let i = 0; i < 150; i++) many.push(await addContact(userId, { name: `Many ${i}` }));
    const first = await fieldSync(requestContext(), userId, null);
    await db.update(contacts).set({ name: "Renamed" }).where(eq(contacts.id, many[7]!.id));
    await addActivity(userId, many[9]!.id, 0, "Called back");
    const measured = limitD1({ ...(env as Env), D1_LIMITS: "measure" }, "delta sync");
    const delta = await fieldSync(requestContext({ DB: measured.DB }), userId, first.cursor);
    expect(ids(delta.contacts.upsert)).toEqual(ids([many[7]!, many[9]!]));
    // Two contacts and one activity changed: the whole sync reads a few dozen rows, not the agent's 150 contacts.
    const report = d1MeterOf(measured.DB)!.report();
    expect(report.queries).toBeGreaterThan(0);
    expect(report.rowsRead).toBeLessThan(60);
  });

  it("a contact that leaves the copy's scope is removed from it", async () => {
    const { userId } = await agent();
    const cooling = await addContact(userId, { status: "hot", lastActivity: new Date(Date.now() - 60 * DAY) });
    const first = await fieldSync(requestContext(), userId, null);
    expect(ids(first.contacts.upsert)).toEqual([cooling.id]);
    await db.update(contacts).set({ status: "cold" }).where(eq(contacts.id, cooling.id));
    const delta = await fieldSync(requestContext(), userId, first.cursor);
    expect(delta.contacts).toEqual({ upsert: [], remove: [cooling.id] });
  });

  it("sends the whole copy for no cursor, a forged or unreadable one, another day's, or one older than the kept log", async () => {
    const { userId } = await agent();
    await addContact(userId);
    const first = await fieldSync(requestContext(), userId, null);
    const cursor = decodeCursor(first.cursor)!;
    for (const bad of ["", "not-a-cursor", "eyJ2Ijo5fQ", encodeCursor({ ...cursor, d: "1999-01-01" }), "A".repeat(5_000)]) {
      expect((await fieldSync(requestContext(), userId, bad)).full, bad.slice(0, 20)).toBe(true);
    }
    // A change after the cursor, then the cron's mark; 31 days on, the log up to that mark is pruned, and the
    // change with it: the cursor can no longer be answered from the log.
    await addContact(userId);
    const now = Date.now();
    // The mark the hourly cron takes (written here: the cron of another test may have taken this hour's already).
    const top = await db
      .select({ seq: sql<number>`max(${syncLog.seq})` })
      .from(syncLog)
      .get();
    await db.insert(syncMarks).values({ at: now, seq: top!.seq });
    const later = now + 31 * DAY;
    const removed = await pruneSyncLog(requestContext(), later);
    expect(removed).toBeGreaterThan(0);
    const stale = encodeCursor({ ...cursor, d: (await fieldSync(requestContext(), userId, null, later)).today });
    expect((await fieldSync(requestContext(), userId, stale, later)).full).toBe(true);
  });

  it("GET /api/sync answers the signed-in agent only, never cached", async () => {
    const user = await agent();
    await addContact(user.userId, { name: "Via The API" });
    expect((await new TestBrowser().fetch("/api/sync")).status).toBe(401);
    const browser = await signInAs(user);
    const response = await browser.fetch("/api/sync?cursor=garbage");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = (await response.json()) as { full: boolean; contacts: { upsert: { name: string }[] } };
    expect(body.full).toBe(true);
    expect(body.contacts.upsert.map((c) => c.name)).toEqual(["Via The API"]);
  });
});

describe("changes queued offline", () => {
  const key = () => crypto.randomUUID();
  const activityChange = (contactId: string, notes = "Showing went well", k = key()) => ({
    key: k,
    type: "log_activity",
    activity: { type: "showing", contactId, date: dayFromToday(0), time: "14:32", notes },
  });

  it("applies each kind in order, and a replay of the same keys changes nothing", async () => {
    const { userId } = await agent();
    const contact = await addContact(userId, { name: "Dana Reyes" });
    const task = await addTask(userId, 0, { contactId: contact.id });
    const deal = await addDeal(userId, { stage: "showing" });
    const changes = [
      activityChange(contact.id),
      { key: key(), type: "complete_task", taskId: task.id, contactId: contact.id, note: "Done from the car" },
      { key: key(), type: "add_task", task: { title: "Send comps", dueDate: dayFromToday(1), dueTime: "", repeat: "" } },
      { key: key(), type: "add_contact", contact: { name: "Open House Visitor", phone: "555-0100", status: "warm" } },
      { key: key(), type: "move_deal", dealId: deal.id, fromStage: "showing", toStage: "offer" },
    ];
    const results = await applyQueuedChanges(requestContext(), userId, changes);
    expect(results.map((r) => [r.status, r.message])).toEqual([
      ["applied", "Activity logged"],
      ["applied", "Task completed"],
      ["applied", "Task added"],
      ["applied", "Contact added"],
      ["applied", "Moved to Offer"],
    ]);
    const count = async () => ({
      activities: (await db.select().from(crmActivities).where(eq(crmActivities.userId, userId))).length,
      tasks: (await db.select().from(crmTasks).where(eq(crmTasks.userId, userId))).length,
      contacts: (await db.select().from(contacts).where(eq(contacts.userId, userId))).length,
    });
    const after = await count();
    expect(after.contacts).toBe(2);
    expect((await db.select().from(crmTasks).where(eq(crmTasks.id, task.id)).get())?.status).toBe("completed");
    expect((await db.select().from(deals).where(eq(deals.id, deal.id)).get())?.stage).toBe("offer");
    expect((await db.select().from(contacts).where(eq(contacts.id, results[3]!.id!)).get())?.name).toBe("Open House Visitor");
    expect(results[3]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const replay = await applyQueuedChanges(requestContext(), userId, changes);
    expect(replay.map((r) => r.replayed)).toEqual([true, true, true, true, true]);
    expect(replay.map(({ replayed, ...r }) => r)).toEqual(results);
    expect(await count()).toEqual(after);
  });

  it("a retry whose first answer was lost still applies once", async () => {
    const { userId } = await agent();
    const contact = await addContact(userId);
    const change = activityChange(contact.id, "Only once");
    const [first] = await applyQueuedChanges(requestContext(), userId, [change]);
    // The answer never reached the phone and the stored key is lost too: the row's id is the key's.
    await db.delete(appliedChanges).where(and(eq(appliedChanges.userId, userId), eq(appliedChanges.key, change.key)));
    const [again] = await applyQueuedChanges(requestContext(), userId, [change]);
    expect(again).toEqual(first);
    expect(
      (
        await db
          .select()
          .from(crmActivities)
          .where(and(eq(crmActivities.userId, userId), eq(crmActivities.notes, "Only once")))
      ).length,
    ).toBe(1);
  });

  it("keys are the agent's own: the same key from another agent is their change", async () => {
    const a = await agent();
    const b = await agent();
    const shared = key();
    const [fromA] = await applyQueuedChanges(requestContext(), a.userId, [activityChange((await addContact(a.userId)).id, "A's note", shared)]);
    const [fromB] = await applyQueuedChanges(requestContext(), b.userId, [activityChange((await addContact(b.userId)).id, "B's note", shared)]);
    expect(fromA!.status).toBe("applied");
    expect(fromB).toMatchObject({ status: "applied" });
    expect(fromB!.replayed).toBeUndefined();
    expect(fromB!.id).not.toBe(fromA!.id);
  });

  it("a deal moved elsewhere keeps the server's stage, and the agent's move and note are kept on its timeline", async () => {
    const { userId } = await agent();
    const deal = await addDeal(userId, { stage: "showing" });
    await moveDeal(requestContext(), userId, deal.id, { stage: "under_contract", afterId: null, beforeId: null, lostReason: null });
    const [result] = await applyQueuedChanges(requestContext(), userId, [
      { key: key(), type: "move_deal", dealId: deal.id, fromStage: "showing", toStage: "offer", note: "Buyer wants to write Friday" },
    ]);
    expect(result).toMatchObject({ status: "conflict", id: deal.id });
    expect(result!.message).toBe(
      "The deal had moved to Under Contract on another device, so it stays there. Your move to Offer and your note are saved on the deal's timeline.",
    );
    expect((await db.select().from(deals).where(eq(deals.id, deal.id)).get())?.stage).toBe("under_contract");
    // Porchlight's record of the move that lost, not an activity the agent logged (figures.ts LOGGED_TYPES).
    const notes = await db
      .select()
      .from(crmActivities)
      .where(and(eq(crmActivities.dealId, deal.id), eq(crmActivities.type, "sync_conflict")));
    expect(notes.map((n) => n.notes)).toEqual([
      "Moved offline to Offer, but the deal had moved to Under Contract on another device, which stands. Note: Buyer wants to write Friday",
    ]);
  });

  it("a deal already in the stage the phone moved it to stays put, records no second move, and keeps the note", async () => {
    const { userId } = await agent();
    const deal = await addDeal(userId, { stage: "showing" });
    // Moved to Offer on the laptop while the phone, offline, made the same move.
    await moveDeal(requestContext(), userId, deal.id, { stage: "offer", afterId: null, beforeId: null, lostReason: null });
    const stageChanges = async () =>
      (
        await db
          .select()
          .from(crmActivities)
          .where(and(eq(crmActivities.dealId, deal.id), eq(crmActivities.type, "stage_change")))
      ).length;
    const before = await stageChanges();
    const [result] = await applyQueuedChanges(requestContext(), userId, [
      { key: key(), type: "move_deal", dealId: deal.id, fromStage: "showing", toStage: "offer", note: "Offer drafted in the car" },
    ]);
    expect(result).toEqual({ key: expect.any(String), status: "applied", message: "Already in Offer", id: deal.id });
    expect((await db.select().from(deals).where(eq(deals.id, deal.id)).get())?.stage).toBe("offer");
    expect(await stageChanges()).toBe(before);
    const notes = await db
      .select()
      .from(crmActivities)
      .where(and(eq(crmActivities.dealId, deal.id), eq(crmActivities.type, "note")));
    expect(notes.map((n) => n.notes)).toEqual(["Offer drafted in the car"]);
  });

  it("a move to a stage removed since is refused with a message, the deal stays where it was, and the note is kept", async () => {
    const { userId } = await agent();
    const deal = await addDeal(userId, { stage: "showing" });
    // The phone's copy still had Offer; online, the agent took that stage out of the pipeline.
    const withoutOffer = (await getStages(requestContext(), userId)).filter((stage) => stage.key !== "offer");
    expect((await saveStages(requestContext(), userId, withoutOffer)).ok).toBe(true);
    const [result] = await applyQueuedChanges(requestContext(), userId, [
      { key: key(), type: "move_deal", dealId: deal.id, fromStage: "showing", toStage: "offer", note: "Buyer ready to write" },
    ]);
    expect(result).toEqual({
      key: expect.any(String),
      status: "rejected",
      message: "That stage no longer exists. Your note is saved on the deal's timeline.",
      id: null,
    });
    expect((await db.select().from(deals).where(eq(deals.id, deal.id)).get())?.stage).toBe("showing");
    const activities = await db
      .select({ type: crmActivities.type, notes: crmActivities.notes })
      .from(crmActivities)
      .where(eq(crmActivities.dealId, deal.id));
    expect(activities).toEqual([{ type: "note", notes: "Buyer ready to write" }]);
    // Without a note: refused, and nothing is written at all.
    const [bare] = await applyQueuedChanges(requestContext(), userId, [
      { key: key(), type: "move_deal", dealId: deal.id, fromStage: "showing", toStage: "offer" },
    ]);
    expect(bare).toMatchObject({ status: "rejected", message: "That stage no longer exists.", id: null });
    expect(await db.select().from(crmActivities).where(eq(crmActivities.dealId, deal.id))).toHaveLength(1);
  });

  it("a deal won offline closes on the day the phone gave, not the day the change arrives; without one, today in the agent's timezone", async () => {
    const { userId } = await agent();
    const wonOffline = await addDeal(userId, { stage: "under_contract", expectedCloseDate: dayFromToday(20) });
    const noDay = await addDeal(userId, { stage: "under_contract" });
    const results = await applyQueuedChanges(requestContext(), userId, [
      { key: key(), type: "move_deal", dealId: wonOffline.id, fromStage: "under_contract", toStage: "closed_won", closedDate: dayFromToday(-3) },
      { key: key(), type: "move_deal", dealId: noDay.id, fromStage: "under_contract", toStage: "closed_won" },
      {
        key: key(),
        type: "move_deal",
        dealId: (await addDeal(userId, { stage: "offer" })).id,
        fromStage: "offer",
        toStage: "closed_won",
        closedDate: "2026-02-30",
      },
    ]);
    expect(results.map((r) => [r.status, r.message])).toEqual([
      ["applied", "Moved to Closed Won"],
      ["applied", "Moved to Closed Won"],
      ["rejected", "Closed date must be a real date."],
    ]);
    expect(
      await db
        .select({ stage: deals.stage, closedDate: deals.closedDate, expected: deals.expectedCloseDate })
        .from(deals)
        .where(eq(deals.id, wonOffline.id))
        .get(),
    ).toEqual({
      stage: "closed_won",
      closedDate: dayFromToday(-3),
      expected: dayFromToday(20),
    });
    expect((await db.select({ closedDate: deals.closedDate }).from(deals).where(eq(deals.id, noDay.id)).get())?.closedDate).toBe(dayFromToday(0));
  });

  it("a task deleted elsewhere is not completed, and the note made with it goes on the contact's timeline", async () => {
    const { userId } = await agent();
    const contact = await addContact(userId);
    const task = await addTask(userId, 0, { contactId: contact.id });
    await db.delete(crmTasks).where(eq(crmTasks.id, task.id));
    const [result] = await applyQueuedChanges(requestContext(), userId, [
      { key: key(), type: "complete_task", taskId: task.id, contactId: contact.id, note: "They want a second showing" },
    ]);
    expect(result).toMatchObject({
      status: "conflict",
      message: "That task was deleted on another device, so it was not completed. Your note was saved on the contact's timeline.",
    });
    expect((await db.select().from(crmActivities).where(eq(crmActivities.contactId, contact.id))).map((a) => a.notes)).toEqual([
      "They want a second showing",
    ]);
    // Completed elsewhere already: done is done.
    const twice = await addTask(userId, 0);
    await completeTask(requestContext(), userId, twice.id);
    const [again] = await applyQueuedChanges(requestContext(), userId, [{ key: key(), type: "complete_task", taskId: twice.id }]);
    expect(again).toMatchObject({ status: "applied", message: "Task was already done" });
  });

  it("refuses bad changes and another agent's rows with a message, changing nothing, and goes on with the rest", async () => {
    const { userId } = await agent();
    const other = await agent();
    const theirContact = await addContact(other.userId);
    const theirDeal = await addDeal(other.userId, { stage: "showing" });
    const theirTask = await addTask(other.userId, 0);
    const mine = await addContact(userId);
    const results = await applyQueuedChanges(requestContext(), userId, [
      activityChange(theirContact.id),
      { key: key(), type: "move_deal", dealId: theirDeal.id, fromStage: "showing", toStage: "offer" },
      { key: key(), type: "complete_task", taskId: theirTask.id },
      { key: key(), type: "add_contact", contact: { name: "" } },
      { key: "short", type: "add_task", task: { title: "x", dueDate: dayFromToday(0) } },
      { key: key(), type: "delete_everything" },
      "not an object",
      { key: key(), type: "move_deal", dealId: (await addDeal(userId, { stage: "showing" })).id, fromStage: "showing", toStage: "closed_lost" },
      activityChange(mine.id, "Still applied"),
    ]);
    expect(results.map((r) => [r.status, r.message])).toEqual([
      ["rejected", "That contact was not found. Pick one from the list."],
      ["conflict", "That deal was deleted on another device, so it was not moved."],
      ["conflict", "That task was deleted on another device, so it was not completed."],
      ["rejected", "Name is required"],
      ["rejected", "A change's key must be 8 to 80 letters, digits, - or _."],
      ["rejected", "That is not a change the app can send."],
      ["rejected", "That is not a change the app can send."],
      ["rejected", "A deal can be marked lost only online, where the reason is asked."],
      ["applied", "Activity logged"],
    ]);
    expect((await db.select().from(deals).where(eq(deals.id, theirDeal.id)).get())?.stage).toBe("showing");
    expect((await db.select().from(crmTasks).where(eq(crmTasks.id, theirTask.id)).get())?.status).toBe("open");
    expect(await db.select().from(crmActivities).where(eq(crmActivities.contactId, theirContact.id))).toEqual([]);
  });

  it("POST /api/sync/changes: signed in, JSON, at most 50 at a time", async () => {
    const user = await agent();
    const contact = await addContact(user.userId);
    const post = (browser: TestBrowser, body: unknown, type = "application/json") =>
      browser.fetch("/api/sync/changes", {
        method: "POST",
        headers: { Origin: "http://localhost", "Content-Type": type },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
    expect((await post(new TestBrowser(), { changes: [activityChange(contact.id)] })).status).toBe(401);
    const browser = await signInAs(user);
    const ok = await post(browser, { changes: [activityChange(contact.id)] });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { results: { status: string }[] }).results.map((r) => r.status)).toEqual(["applied"]);
    expect(await (await post(browser, { changes: [] })).json()).toEqual({ ok: false, error: "Send at least one change." });
    expect(await (await post(browser, { changes: Array.from({ length: 51 }, () => activityChange(contact.id)) })).json()).toEqual({
      ok: false,
      error: "Send at most 50 changes at a time.",
    });
    expect((await post(browser, { changes: "all of them" })).status).toBe(400);
    expect((await post(browser, "changes=1", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post(browser, "{not json")).status).toBe(400);
  });

  it("the cron's upkeep drops keys after 60 days", async () => {
    expect(JOBS["*/5 * * * *"]?.map((job) => job.name)).toContain("syncUpkeepJob");
    const { userId } = await agent();
    const contact = await addContact(userId);
    const change = activityChange(contact.id);
    await applyQueuedChanges(requestContext(), userId, [change], Date.now() - 61 * DAY);
    expect(await pruneAppliedChanges(requestContext())).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(appliedChanges).where(eq(appliedChanges.key, change.key))).toEqual([]);
  });

  it("the log holds ids only, one entry per change of a synced field", async () => {
    const { userId } = await agent();
    const contact = await addContact(userId);
    const entries = async () =>
      db
        .select()
        .from(syncLog)
        .where(and(eq(syncLog.userId, userId), eq(syncLog.rowId, contact.id)));
    expect(await entries()).toHaveLength(1);
    await db.update(contacts).set({ timeline: "Spring" }).where(eq(contacts.id, contact.id));
    expect(await entries()).toHaveLength(1);
    await db.update(contacts).set({ status: "warm" }).where(eq(contacts.id, contact.id));
    expect((await entries()).map((e) => e.kind)).toEqual(["contact", "contact"]);
  });
});
