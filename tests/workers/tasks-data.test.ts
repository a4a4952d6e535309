import { env } from "cloudflare:workers";
import { SYSTEM_WHERE } from "~/modules/audit/audit.server";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contacts, crmActivities } from "~/db/schema";
import { d1MeterOf, limitD1 } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import type { UserId } from "~/modules/auth/session.server";
import { deleteActivity, logActivity, occurredAt, timeline } from "~/modules/activities/activities.server";
import { ActivityInputSchema } from "~/modules/activities/activity.schema";
import { createContact, trashContacts } from "~/modules/contacts/contacts.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { mergeContacts } from "~/modules/contacts/duplicates.server";
import { createDeal, getDeal, moveDeal } from "~/modules/deals/deals.server";
import { saveDisplayPreferences } from "~/modules/settings/preferences.server";
import { localNow } from "~/modules/tasks/due";
import { createCalendarFeed, findCalendarFeed, renderCalendarFeed, revokeCalendarFeed } from "~/modules/tasks/calendar-feed.server";
import { TaskInputSchema } from "~/modules/tasks/task.schema";
import {
  calendarMonth,
  calendarRange,
  completeTask,
  createTask,
  deleteTask,
  getTask,
  listTasks,
  reopenTask,
  restoreTask,
  tasksFor,
  updateTask,
} from "~/modules/tasks/tasks.server";
import { restoreFromTrash } from "~/modules/trash/trash.server";
import { requestContext } from "../factories/context";
import { dealInput } from "../factories/deals";
import { activityInput, taskInput } from "../factories/tasks";
import { createUser } from "../factories/users";

const owner = async () => (await createUser(env.DB)).id as UserId;
const ok = <T extends { ok: boolean }>(result: T) => {
  if (!result.ok) throw new Error(`expected success: ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
};
const contact = (ctx: ReturnType<typeof requestContext>, userId: UserId, name: string) =>
  createContact(ctx, userId, ContactInputSchema.parse({ name, email: `${name.replace(/\W/g, "").toLowerCase()}@example.com` }));
const prefs = (timezone: string) => ({ dateFormat: "US" as const, timeFormat: "12h" as const, timezone, currency: "USD" as const });

describe("when a logged activity happened", () => {
  // 10:15:30 in New York (EDT) on 1 June 2026.
  const now = new Date("2026-06-01T14:15:30.000Z");
  const tz = "America/New_York";
  it("is now when the form says this minute or the one before, so it sorts after what was just done", () => {
    // The dialog opened at 10:14 and was saved at 10:15:30: still "now", after a task completed at 10:14:40.
    expect(occurredAt({ date: "2026-06-01", time: "10:15" }, tz, now).getTime()).toBe(now.getTime());
    expect(occurredAt({ date: "2026-06-01", time: "10:14" }, tz, now).getTime()).toBe(now.getTime());
  });
  it("is the minute given when that is earlier or later", () => {
    expect(occurredAt({ date: "2026-06-01", time: "10:13" }, tz, now).toISOString()).toBe("2026-06-01T14:13:00.000Z");
    expect(occurredAt({ date: "2026-06-01", time: "10:16" }, tz, now).toISOString()).toBe("2026-06-01T14:16:00.000Z");
    expect(occurredAt({ date: "2026-05-31", time: null }, tz, now).toISOString()).toBe("2026-05-31T16:00:00.000Z");
  });
});

describe("task input", () => {
  it("refuses what is not a task with clear messages", () => {
    const bad = TaskInputSchema.safeParse({ title: "  ", dueDate: "2026-02-30", dueTime: "25:00", type: "nap", repeat: "hourly" });
    expect(bad.success).toBe(false);
    expect(Object.fromEntries(bad.error!.issues.map((i) => [String(i.path[0]), i.message]))).toEqual({
      title: "Enter a task title.",
      dueDate: "Enter the due date as a real date.",
      dueTime: "Enter the time as hours and minutes, e.g. 15:30.",
      type: "Choose a task type.",
      repeat: "Choose how often the task repeats.",
    });
    expect(TaskInputSchema.safeParse({ title: "x" }).error?.issues[0]?.message).toBe("Choose a due date.");
    expect(taskInput({ dueTime: "09:15:00" }).dueTime).toBe("09:15");
  });
});

describe("task lists in the user's timezone", () => {
  it("splits open tasks into overdue, today and upcoming by the user's clock, around midnight", async () => {
    const userId = await owner();
    const ctx = requestContext();
    await saveDisplayPreferences(ctx, userId, prefs("America/Los_Angeles"));
    // 07:30 UTC on Nov 23 is 23:30 on Nov 22 in Los Angeles: "today" is still the 22nd there.
    const now = localNow("America/Los_Angeles", new Date("2026-11-23T07:30:00Z"));
    const make = async (title: string, dueDate: string, dueTime = "") =>
      ok(await createTask(ctx, userId, taskInput({ title, dueDate, dueTime }))).task;
    const yesterday = await make("Yesterday", "2026-11-21");
    const earlier = await make("Earlier today", "2026-11-22", "09:00");
    const tonight = await make("Tonight", "2026-11-22", "23:45");
    const allDay = await make("All day today", "2026-11-22");
    const tomorrow = await make("Tomorrow (UTC's today)", "2026-11-23");
    const done = await make("Done", "2026-11-22");
    ok(await completeTask(ctx, userId, done.id));
    // Another agent's overdue task never shows.
    const stranger = await owner();
    ok(await createTask(ctx, stranger, taskInput({ title: "Not yours", dueDate: "2026-01-01" })));

    const overdue = await listTasks(ctx, userId, "overdue", now);
    expect(overdue.tasks.map((t) => t.id)).toEqual([yesterday.id, earlier.id]);
    expect(overdue.counts).toEqual({ overdue: 2, today: 2, upcoming: 1 });
    expect((await listTasks(ctx, userId, "today", now)).tasks.map((t) => t.id)).toEqual([allDay.id, tonight.id]);
    expect((await listTasks(ctx, userId, "upcoming", now)).tasks.map((t) => t.id)).toEqual([tomorrow.id]);
    expect((await listTasks(ctx, userId, "completed", now)).tasks.map((t) => t.id)).toEqual([done.id]);

    // Half an hour later it is Nov 23 in Los Angeles: everything of the 22nd is overdue, "tomorrow" is today.
    const later = localNow("America/Los_Angeles", new Date("2026-11-23T08:00:00Z"));
    expect((await listTasks(ctx, userId, "overdue", later)).counts).toEqual({ overdue: 4, today: 1, upcoming: 0 });
  });

  it("pages long lists", async () => {
    const userId = await owner();
    const ctx = requestContext();
    for (let i = 0; i < 3; i++) ok(await createTask(ctx, userId, taskInput({ title: `T${i}`, dueDate: `2030-01-0${i + 1}` })));
    const page = await listTasks(ctx, userId, "upcoming", { date: "2026-11-22", time: "12:00" }, 2);
    expect(page.tasks.map((t) => t.title)).toEqual(["T0", "T1"]);
    expect(page.hasMore).toBe(true);
  });
});

describe("tasks", () => {
  it("link only to the owner's contact and deal, and show on both", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const dana = await contact(ctx, userId, "Dana Buyer");
    const deal = ok(await createDeal(ctx, userId, dealInput({ contactId: dana.id }))).deal;
    const task = ok(await createTask(ctx, userId, taskInput({ contactId: dana.id, dealId: deal.id }))).task;
    expect((await tasksFor(ctx, userId, { contactId: dana.id })).map((t) => [t.id, t.contactName, t.dealTitle])).toEqual([
      [task.id, "Dana Buyer", deal.title],
    ]);
    expect((await tasksFor(ctx, userId, { dealId: deal.id })).map((t) => t.id)).toEqual([task.id]);

    const stranger = await owner();
    const theirs = await contact(ctx, stranger, "Their Contact");
    const theirDeal = ok(await createDeal(ctx, stranger, dealInput())).deal;
    expect(await createTask(ctx, userId, taskInput({ contactId: theirs.id }))).toMatchObject({
      ok: false,
      fieldErrors: { contactId: "That contact was not found. Pick one from the list." },
    });
    expect(await createTask(ctx, userId, taskInput({ dealId: theirDeal.id }))).toMatchObject({
      ok: false,
      fieldErrors: { dealId: "That deal was not found." },
    });
    // The stranger can neither read, edit, complete nor delete the task.
    expect(await getTask(ctx, stranger, task.id)).toBeNull();
    expect(await updateTask(ctx, stranger, task.id, taskInput({ title: "Hijacked" }))).toMatchObject({ ok: false, status: 404 });
    expect(await completeTask(ctx, stranger, task.id)).toMatchObject({ ok: false, status: 404 });
    expect(await deleteTask(ctx, stranger, task.id, SYSTEM_WHERE)).toBeNull();
    expect(await tasksFor(ctx, stranger, { contactId: dana.id })).toEqual([]);
    expect((await getTask(ctx, userId, task.id))?.title).toBe("Call the lender");
  });

  it("a contact's tasks are found through the contact, not by reading every task the agent has", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const dana = await contact(ctx, userId, "Dana Few Tasks");
    const hers = ok(await createTask(ctx, userId, taskInput({ contactId: dana.id, title: "Hers" }))).task;
    for (let i = 0; i < 80; i++) {
      const other = ok(await createTask(ctx, userId, taskInput({ title: `Other ${i}` }))).task;
      if (i % 2 === 0) ok(await completeTask(ctx, userId, other.id));
    }
    const measured = limitD1({ ...(env as Env), D1_LIMITS: "measure" }, "contact tasks");
    expect((await tasksFor(requestContext({ DB: measured.DB }), userId, { contactId: dana.id })).map((t) => t.id)).toEqual([hers.id]);
    // One open task of hers among the agent's 40 open and 40 completed: a handful of rows, not 80.
    const report = d1MeterOf(measured.DB)!.report();
    expect(report.queries).toBeGreaterThan(0);
    expect(report.rowsRead).toBeLessThan(20);
  });

  it("repeat: completing creates the next occurrence; undo takes it back", async () => {
    const userId = await owner();
    const ctx = requestContext();
    await saveDisplayPreferences(ctx, userId, prefs("UTC"));
    const weekly = ok(
      await createTask(ctx, userId, taskInput({ title: "Weekly check-in", dueDate: "2026-11-16", dueTime: "09:30", repeat: "weekly" })),
    ).task;
    const done = ok(await completeTask(ctx, userId, weekly.id, { at: new Date("2026-11-22T12:00:00Z") }));
    expect(done.nextTaskId).not.toBeNull();
    const next = await getTask(ctx, userId, done.nextTaskId!);
    // Due Monday Nov 16, finished on Sunday Nov 22: the next one is Monday Nov 23, same time, still weekly.
    expect(next).toMatchObject({
      title: "Weekly check-in",
      dueDate: "2026-11-23",
      dueTime: "09:30",
      repeat: "weekly",
      status: "open",
      repeatOf: weekly.id,
    });
    expect((await getTask(ctx, userId, weekly.id))?.status).toBe("completed");
    // Completing twice is refused (nothing new is created).
    expect(await completeTask(ctx, userId, weekly.id)).toMatchObject({ ok: false });

    ok(await reopenTask(ctx, userId, weekly.id, { nextTaskId: done.nextTaskId }));
    expect(await getTask(ctx, userId, done.nextTaskId!)).toBeNull();
    expect(await getTask(ctx, userId, weekly.id)).toMatchObject({ status: "open", completedAt: null });

    const monthly = ok(await createTask(ctx, userId, taskInput({ title: "Market report", dueDate: "2027-01-31", repeat: "monthly" }))).task;
    const m = ok(await completeTask(ctx, userId, monthly.id, { at: new Date("2027-01-31T12:00:00Z") }));
    expect((await getTask(ctx, userId, m.nextTaskId!))?.dueDate).toBe("2027-02-28");
  });

  it("completing can log the activity, and undo removes it", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const dana = await contact(ctx, userId, "Dana Log");
    const task = ok(await createTask(ctx, userId, taskInput({ title: "Call Dana", contactId: dana.id }))).task;
    const at = new Date("2030-01-01T15:00:00Z");
    const done = ok(await completeTask(ctx, userId, task.id, { at, log: { outcome: "Left voicemail", notes: null } }));
    const logged = (await timeline(ctx, userId, { contactId: dana.id })).activities;
    expect(logged).toMatchObject([{ id: done.activityId, type: "call", outcome: "Left voicemail", notes: "Call Dana", taskId: task.id }]);
    const row = await ctx.db.select({ lastActivity: contacts.lastActivity }).from(contacts).where(eq(contacts.id, dana.id)).get();
    expect(row?.lastActivity.getTime()).toBe(at.getTime());
    ok(await reopenTask(ctx, userId, task.id, { activityId: done.activityId }));
    expect((await timeline(ctx, userId, { contactId: dana.id })).activities).toEqual([]);
    const after = await ctx.db
      .select({ lastActivity: contacts.lastActivity, createdAt: contacts.createdAt })
      .from(contacts)
      .where(eq(contacts.id, dana.id))
      .get();
    expect(after?.lastActivity.getTime()).toBe(after?.createdAt.getTime());
  });

  it("delete and undo bring the task back with its links", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const dana = await contact(ctx, userId, "Dana Undo");
    const task = ok(await createTask(ctx, userId, taskInput({ contactId: dana.id, notes: "Bring the keys" }))).task;
    const trashId = await deleteTask(ctx, userId, task.id, SYSTEM_WHERE);
    expect(trashId).toBeTruthy();
    expect(await getTask(ctx, userId, task.id)).toBeNull();
    // Another user cannot restore it with the trash id.
    const stranger = await owner();
    expect(await restoreTask(ctx, stranger, trashId!, SYSTEM_WHERE)).toMatchObject({ ok: false, status: 404 });
    ok(await restoreTask(ctx, userId, trashId!, SYSTEM_WHERE));
    expect(await getTask(ctx, userId, task.id)).toMatchObject({ contactId: dana.id, notes: "Bring the keys" });
    // Restored once, the trash id is spent.
    expect(await restoreTask(ctx, userId, trashId!, SYSTEM_WHERE)).toMatchObject({ ok: false, status: 404 });
  });

  it("the calendar range has tasks and closing dates, not lost deals", async () => {
    const userId = await owner();
    const ctx = requestContext();
    ok(await createTask(ctx, userId, taskInput({ title: "In range", dueDate: "2027-03-10" })));
    ok(await createTask(ctx, userId, taskInput({ title: "Out of range", dueDate: "2027-04-01" })));
    const closing = ok(await createDeal(ctx, userId, dealInput({ title: "Closing deal", stage: "under_contract", closingDate: "2027-03-20" }))).deal;
    ok(await createDeal(ctx, userId, dealInput({ title: "Expected deal", stage: "offer", expectedCloseDate: "2027-03-05" })));
    const lost = ok(await createDeal(ctx, userId, dealInput({ title: "Lost deal", stage: "offer", expectedCloseDate: "2027-03-06" }))).deal;
    ok(await moveDeal(ctx, userId, lost.id, { stage: "closed_lost", afterId: null, beforeId: null, lostReason: "Financing fell through" }));
    const range = await calendarRange(ctx, userId, "2027-03-01", "2027-03-31", { date: "2027-03-01", time: "09:00" });
    expect(range.tasks.map((t) => t.title)).toEqual(["In range"]);
    expect(range.closings.map((c) => [c.title, c.date, c.kind])).toEqual([
      ["Expected deal", "2027-03-05", "expected"],
      [closing.title, "2027-03-20", "closing"],
    ]);
  });
});

describe("the month view", () => {
  it("counts each day's open tasks in SQL, with the first two titles, and sends only the chosen day's tasks", async () => {
    const userId = await owner();
    const stranger = await owner();
    const ctx = requestContext();
    const now = { date: "2027-03-10", time: "12:00" };
    const make = async (title: string, dueDate: string, dueTime = "") =>
      ok(await createTask(ctx, userId, taskInput({ title, dueDate, dueTime }))).task;
    await make("Late call", "2027-03-10", "16:00");
    await make("All day", "2027-03-10");
    await make("Morning call", "2027-03-10", "08:00");
    const done = await make("Done already", "2027-03-10", "07:00");
    ok(await completeTask(ctx, userId, done.id, { at: new Date("2027-03-10T12:00:00Z") }));
    await make("Last week", "2027-03-03");
    await make("Next month", "2027-04-30");
    ok(await createTask(ctx, stranger, taskInput({ title: "Not yours", dueDate: "2027-03-10" })));

    const month = await calendarMonth(ctx, userId, "2027-02-28", "2027-04-10", "2027-03-03", now);
    // "All day" sorts first (no time), then by time; the completed task counts in no cell.
    expect(month.cells["2027-03-10"]).toEqual({
      open: 3,
      overdue: true,
      first: [expect.objectContaining({ title: "All day", dueTime: null }), expect.objectContaining({ title: "Morning call", dueTime: "08:00" })],
    });
    expect(month.cells["2027-03-03"]).toMatchObject({ open: 1, overdue: true });
    expect(Object.keys(month.cells).sort()).toEqual(["2027-03-03", "2027-03-10"]);
    expect(month.tasks.map((t) => t.title)).toEqual(["Last week"]);
    // Only today's tasks due later are not overdue.
    const later = await calendarMonth(ctx, userId, "2027-03-10", "2027-03-10", "2027-03-10", { date: "2027-03-10", time: "07:30" });
    expect(later.cells["2027-03-10"]).toMatchObject({ open: 3, overdue: false });
    expect(later.tasks.map((t) => t.title)).toEqual(["All day", "Done already", "Morning call", "Late call"]);
  });
});

describe("activities", () => {
  it("log on a contact or deal, in the user's timezone, newest first, filtered by type; last_activity follows", async () => {
    const userId = await owner();
    const ctx = requestContext();
    await saveDisplayPreferences(ctx, userId, prefs("America/New_York"));
    const dana = await contact(ctx, userId, "Dana Timeline");
    const deal = ok(await createDeal(ctx, userId, dealInput({ contactId: dana.id }))).deal;
    const call = ok(await logActivity(ctx, userId, activityInput({ contactId: dana.id, date: "2030-03-01", time: "09:00" }))).activity;
    expect(call.occurredAt.toISOString()).toBe("2030-03-01T14:00:00.000Z");
    // Logged on the deal only: it is the deal's contact's activity too.
    const showing = ok(await logActivity(ctx, userId, activityInput({ type: "showing", dealId: deal.id, date: "2030-03-02", time: "" }))).activity;
    expect(showing).toMatchObject({ contactId: dana.id, dealId: deal.id });
    expect(showing.occurredAt.toISOString()).toBe("2030-03-02T17:00:00.000Z");
    const contactTimeline = await timeline(ctx, userId, { contactId: dana.id });
    expect(contactTimeline.activities.map((a) => a.id)).toEqual([showing.id, call.id]);
    expect((await timeline(ctx, userId, { contactId: dana.id, types: ["call"] })).activities.map((a) => a.id)).toEqual([call.id]);
    expect((await timeline(ctx, userId, { dealId: deal.id })).activities.map((a) => a.type)).toEqual(["showing"]);
    const last = async () =>
      (await ctx.db.select({ at: contacts.lastActivity }).from(contacts).where(eq(contacts.id, dana.id)).get())!.at.toISOString();
    expect(await last()).toBe("2030-03-02T17:00:00.000Z");
    // Deleting the latest puts last_activity back to the one before.
    expect(await deleteActivity(ctx, userId, showing.id)).toEqual({ ok: true });
    expect(await last()).toBe("2030-03-01T14:00:00.000Z");
  });

  it("refuse links to another user's records, need a contact or deal, and keep stage changes", async () => {
    const userId = await owner();
    const stranger = await owner();
    const ctx = requestContext();
    const theirs = await contact(ctx, stranger, "Their Person");
    expect(await logActivity(ctx, userId, activityInput({ contactId: theirs.id }))).toMatchObject({
      ok: false,
      fieldErrors: { contactId: "That contact was not found. Pick one from the list." },
    });
    expect(ActivityInputSchema.safeParse({ type: "call", date: "2026-11-20" }).error?.issues[0]?.message).toBe(
      "Choose a contact or a deal for this activity.",
    );
    expect(ActivityInputSchema.safeParse({ type: "stage_change", contactId: "x", date: "2026-11-20" }).success).toBe(false);
    const deal = ok(await createDeal(ctx, userId, dealInput())).deal;
    ok(await moveDeal(ctx, userId, deal.id, { stage: "showing", afterId: null, beforeId: null, lostReason: null }));
    const [change] = (await timeline(ctx, userId, { dealId: deal.id })).activities;
    expect(change?.type).toBe("stage_change");
    expect(await deleteActivity(ctx, userId, change!.id)).toEqual({
      ok: false,
      error: "Stage changes are the deal's history and cannot be deleted.",
    });
    // The stranger sees none of it and cannot delete it.
    expect((await timeline(ctx, stranger, { dealId: deal.id })).activities).toEqual([]);
    expect((await timeline(ctx, stranger)).activities).toEqual([]);
    const mine = ok(await logActivity(ctx, userId, activityInput({ dealId: deal.id }))).activity;
    expect(await deleteActivity(ctx, stranger, mine.id)).toEqual({ ok: false, error: "That activity was not found." });
  });

  it("the feed pages with a cursor", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const dana = await contact(ctx, userId, "Dana Feed");
    for (const day of ["01", "02", "03"]) ok(await logActivity(ctx, userId, activityInput({ contactId: dana.id, date: `2030-04-${day}` })));
    const first = await timeline(ctx, userId, { limit: 2 });
    expect(first.activities.map((a) => new Date(a.occurredAt).getUTCDate())).toEqual([3, 2]);
    const second = await timeline(ctx, userId, { limit: 2, before: first.nextCursor });
    expect(second.activities.map((a) => new Date(a.occurredAt).getUTCDate())).toEqual([1]);
    expect(second.nextCursor).toBeNull();
  });
});

describe("contacts and their tasks and activities", () => {
  it("deleting a contact unlinks its tasks and activities; undo links them again", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const dana = await contact(ctx, userId, "Dana Removed");
    const task = ok(await createTask(ctx, userId, taskInput({ contactId: dana.id }))).task;
    const activity = ok(await logActivity(ctx, userId, activityInput({ contactId: dana.id, date: "2030-05-01" }))).activity;
    const removed = await trashContacts(ctx, userId, [dana.id], SYSTEM_WHERE);
    expect((await getTask(ctx, userId, task.id))?.contactId).toBeNull();
    expect((await restoreFromTrash(env.DB, userId, removed.trashIds)).restored).toBe(1);
    expect((await getTask(ctx, userId, task.id))?.contactId).toBe(dana.id);
    expect((await timeline(ctx, userId, { contactId: dana.id })).activities.map((a) => a.id)).toEqual([activity.id]);
  });

  it("merging duplicates moves deals, tasks and activities to the kept contact", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const kept = await contact(ctx, userId, "Dana Kept");
    const dup = await contact(ctx, userId, "Dana Dup");
    const deal = ok(await createDeal(ctx, userId, dealInput({ contactId: dup.id }))).deal;
    const task = ok(await createTask(ctx, userId, taskInput({ contactId: dup.id }))).task;
    ok(await logActivity(ctx, userId, activityInput({ contactId: dup.id, date: "2030-06-01" })));
    expect(await mergeContacts(ctx, userId, kept.id, [dup.id])).not.toBeNull();
    expect((await getTask(ctx, userId, task.id))?.contactId).toBe(kept.id);
    expect((await timeline(ctx, userId, { contactId: kept.id })).activities.map((a) => a.dealId ?? "none")).toEqual(["none"]);
    expect((await tasksFor(ctx, userId, { contactId: kept.id })).length).toBe(1);
    const moved = await ctx.db.select({ contactId: crmActivities.contactId }).from(crmActivities).where(eq(crmActivities.userId, userId)).all();
    expect(moved.every((a) => a.contactId === kept.id)).toBe(true);
    expect((await getDeal(ctx, userId, deal.id))?.contactId).toBe(kept.id);
  });
});

describe("calendar feed", () => {
  it("is valid iCalendar with the user's tasks and closings, needs the secret, and stops when revoked", async () => {
    const userId = await owner();
    const ctx = requestContext();
    await saveDisplayPreferences(ctx, userId, prefs("America/Chicago"));
    const today = localNow("America/Chicago").date;
    const dana = await contact(ctx, userId, "Dana Feed");
    const timed = ok(
      await createTask(
        ctx,
        userId,
        taskInput({ title: "Showing at 12 Oak St", type: "showing", dueDate: today, dueTime: "15:00", contactId: dana.id }),
      ),
    ).task;
    const allDay = ok(await createTask(ctx, userId, taskInput({ title: "Send disclosures", dueDate: today }))).task;
    const deal = ok(await createDeal(ctx, userId, dealInput({ title: "12 Oak St", stage: "under_contract", closingDate: today }))).deal;
    const stranger = await owner();
    ok(await createTask(ctx, stranger, taskInput({ title: "Stranger's secret task", dueDate: today })));

    expect(await findCalendarFeed(ctx, "x".repeat(43))).toBeNull();
    const token = await createCalendarFeed(ctx, userId);
    const feed = await findCalendarFeed(ctx, token);
    expect(feed).toEqual({ userId, timezone: "America/Chicago" });
    const text = await renderCalendarFeed(ctx, feed!, "https://porchlight.test");
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents("vevent").map((e) => new ICAL.Event(e));
    const byUid = Object.fromEntries(events.map((e) => [e.uid, e]));
    expect(events).toHaveLength(3);
    const showing = byUid[`task-${timed.id}@porchlight`]!;
    expect(showing.summary).toBe("Showing at 12 Oak St");
    // 15:00 in Chicago, written in UTC.
    const [y, m, d] = today.split("-").map(Number);
    expect(showing.startDate.toJSDate().getTime()).toBe(Date.UTC(y!, m! - 1, d!, 15, 0) + chicagoOffsetMs(today));
    expect(showing.endDate.toJSDate().getTime() - showing.startDate.toJSDate().getTime()).toBe(30 * 60_000);
    expect(showing.description).toContain("Contact: Dana Feed");
    expect(byUid[`task-${allDay.id}@porchlight`]!.startDate.isDate).toBe(true);
    expect(byUid[`task-${allDay.id}@porchlight`]!.startDate.toString()).toBe(today);
    expect(byUid[`deal-${deal.id}-close@porchlight`]!.summary).toBe("Closing: 12 Oak St");
    expect(text).not.toContain("Stranger's secret task");

    // A new URL revokes the old one; turning it off revokes it too.
    const second = await createCalendarFeed(ctx, userId);
    expect(await findCalendarFeed(ctx, token)).toBeNull();
    expect(await revokeCalendarFeed(ctx, userId)).toBe(true);
    expect(await findCalendarFeed(ctx, second)).toBeNull();
  });
});

/** How far behind UTC Chicago's wall clock is on `day` (5 or 6 hours), in milliseconds. */
function chicagoOffsetMs(day: string) {
  const noon = new Date(`${day}T12:00:00Z`);
  const local = new Date(noon.toLocaleString("en-US", { timeZone: "America/Chicago" }));
  const utc = new Date(noon.toLocaleString("en-US", { timeZone: "UTC" }));
  return utc.getTime() - local.getTime();
}
