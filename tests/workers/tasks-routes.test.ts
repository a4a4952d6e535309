import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { logActivity, timeline } from "~/modules/activities/activities.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact } from "~/modules/contacts/contacts.server";
import { linkTaskContact, quickAddTask } from "~/modules/tasks/task-actions.server";
import type { TaskActionResult } from "~/modules/tasks/task.schema";
import { createTask, getTask, listTasks } from "~/modules/tasks/tasks.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { activityInput, taskInput } from "../factories/tasks";
import { createUser, setSubscriptionStatus } from "../factories/users";

async function twoAgents() {
  const alice = await createUser(env.DB);
  const bob = await createUser(env.DB);
  const ctx = requestContext();
  const contact = await createContact(
    ctx,
    alice.id as UserId,
    ContactInputSchema.parse({ name: "Alice's Client", email: "alice-client@example.com" }),
  );
  const created = await createTask(ctx, alice.id as UserId, taskInput({ title: "Alice's private call", contactId: contact.id }));
  if (!created.ok) throw new Error("task not created");
  const logged = await logActivity(ctx, alice.id as UserId, activityInput({ contactId: contact.id, notes: "Alice's private note" }));
  if (!logged.ok) throw new Error("activity not logged");
  return {
    alice,
    bob,
    contact,
    task: created.task,
    activity: logged.activity,
    ctx,
    aliceBrowser: await signInAs(alice),
    bobBrowser: await signInAs(bob),
  };
}

const feedUrl = async (browser: TestBrowser) => {
  const response = await browser.post("/calendar-feed", { intent: "create" });
  expect(response.status).toBe(200);
  const body = await response.text();
  const match = /\/api\/calendar\/[\w-]+\.ics/.exec(body);
  expect(match).not.toBeNull();
  return match![0];
};

describe("tasks and activities through the app", () => {
  it("show each agent only their own tasks and activity", async () => {
    const { aliceBrowser, bob, bobBrowser, ctx } = await twoAgents();
    // Bob's own task and note: his pages must show them, so an error page or a redirect cannot pass.
    expect((await createTask(ctx, bob.id as UserId, taskInput({ title: "Bob's own call", dueDate: dayFromToday(1) }))).ok).toBe(true);
    const bobsClient = await createContact(ctx, bob.id as UserId, ContactInputSchema.parse({ name: "Bob's Client", phone: "555 0123" }));
    expect((await logActivity(ctx, bob.id as UserId, activityInput({ contactId: bobsClient.id, notes: "Bob's own note" }))).ok).toBe(true);
    expect(await (await aliceBrowser.get("/tasks?view=upcoming")).text()).toContain("Alice&#x27;s private call");
    for (const view of ["today", "overdue", "upcoming", "completed", "month", "week"]) {
      const page = await bobBrowser.page(`/tasks?view=${view}&date=${dayFromToday(1)}`);
      expect(page).toContain(bob.email);
      if (view === "month" || view === "week") expect(page).toContain("Bob&#x27;s own call");
      expect(page).not.toContain("Alice");
    }
    expect(await (await aliceBrowser.get("/activities")).text()).toContain("Alice&#x27;s private note");
    const activities = await bobBrowser.page("/activities");
    expect(activities).toContain("Bob&#x27;s own note");
    expect(activities).not.toContain("Alice");
  });

  it("refuse another agent's edit, complete, delete and logging, and change nothing", async () => {
    const { alice, contact, task, activity, ctx, bobBrowser } = await twoAgents();
    const owner = alice.id as UserId;
    expect((await bobBrowser.post("/tasks", { intent: "update", id: task.id, title: "Taken", dueDate: dayFromToday(2) })).status).toBe(404);
    expect((await bobBrowser.post("/tasks", { intent: "complete", id: task.id })).status).toBe(404);
    expect((await bobBrowser.post("/tasks", { intent: "delete", id: task.id })).status).toBe(404);
    expect((await bobBrowser.post("/tasks", { intent: "create", title: "Mine", dueDate: dayFromToday(2), contactId: contact.id })).status).toBe(400);
    expect((await bobBrowser.post("/activities", { intent: "log", type: "call", contactId: contact.id, date: dayFromToday(-3) })).status).toBe(400);
    expect((await bobBrowser.post("/activities", { intent: "delete", id: activity.id })).status).toBe(400);
    expect(await getTask(ctx, owner, task.id)).toMatchObject({ title: "Alice's private call", status: "open" });
    expect((await timeline(ctx, owner, { contactId: contact.id })).activities.map((a) => a.id)).toEqual([activity.id]);
  });

  it("bad task input gets a clear message and saves nothing", async () => {
    const { aliceBrowser, alice, ctx } = await twoAgents();
    const response = await aliceBrowser.post("/tasks", { intent: "create", title: "", dueDate: "2026-13-01" });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain("Enter a task title.");
    expect((await aliceBrowser.post("/tasks", { intent: "quick-add", text: "   " })).status).toBe(400);
    const page = await listTasks(ctx, alice.id as UserId, "upcoming", { date: "2000-01-01", time: "00:00" });
    expect(page.tasks.map((t) => t.title)).toEqual(["Alice's private call"]);
  });
});

describe("the calendar feed over HTTP", () => {
  it("needs the secret, serves iCalendar, and answers 404 once replaced, revoked or when billing stops", async () => {
    const { alice, bob, aliceBrowser, bobBrowser, ctx } = await twoAgents();
    expect((await createTask(ctx, bob.id as UserId, taskInput({ title: "Bob's own call" }))).ok).toBe(true);
    const anonymous = new TestBrowser();
    expect((await anonymous.get("/api/calendar/not-a-real-secret-at-all-0123456789.ics")).status).toBe(404);
    expect((await anonymous.get("/api/calendar/short.ics")).status).toBe(404);
    // Signed-out visitors cannot make a feed.
    expect((await anonymous.post("/calendar-feed", { intent: "create" })).status).toBe(302);

    const url = await feedUrl(aliceBrowser);
    const feed = await anonymous.get(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const text = await feed.text();
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text).toContain("SUMMARY:Alice's private call");
    // Bob's feed holds none of Alice's tasks.
    const bobFeed = await anonymous.page(await feedUrl(bobBrowser));
    expect(bobFeed).toContain("SUMMARY:Bob's own call");
    expect(bobFeed).not.toContain("Alice");

    const second = await feedUrl(aliceBrowser);
    expect((await anonymous.get(url)).status).toBe(404);
    expect((await anonymous.get(second)).status).toBe(200);
    await setSubscriptionStatus(env.DB, alice.id, "canceled");
    expect((await anonymous.get(second)).status).toBe(404);
    await setSubscriptionStatus(env.DB, alice.id, "active");
    expect((await aliceBrowser.post("/calendar-feed", { intent: "revoke" })).status).toBe(200);
    expect((await anonymous.get(second)).status).toBe(404);
  });
});

/** The /tasks action's intents as the page's fetchers call them (the answer is data, not a page). */
async function act(userId: string, fields: Record<string, string> & { intent: "quick-add" | "link-contact" }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const run = { "quick-add": quickAddTask, "link-contact": linkTaskContact }[fields.intent];
  const answer = await run(requestContext(), userId as UserId, form);
  return { status: answer.init?.status ?? 200, body: answer.data as TaskActionResult & { taskId: string; contactLink?: unknown } };
}

describe("quick add links the contact it names", () => {
  it("links the agent's one matching contact, never another agent's, and unlinks and relinks on request", async () => {
    const alice = await createUser(env.DB);
    const bob = await createUser(env.DB);
    const ctx = requestContext();
    const priya = await createContact(ctx, alice.id as UserId, ContactInputSchema.parse({ name: "Priya Shah", email: "priya@example.com" }));
    const bobsPriya = await createContact(ctx, bob.id as UserId, ContactInputSchema.parse({ name: "Priya Bobson", email: "priya@example.com" }));
    const added = (await act(alice.id, { intent: "quick-add", text: "call Priya tomorrow 3pm" })).body;
    expect(added).toMatchObject({
      ok: true,
      contactLink: { linked: { id: priya.id, name: "Priya Shah" }, candidates: [] },
      due: { dueTime: "15:00" },
    });
    expect((await getTask(ctx, alice.id as UserId, added.taskId))!.contactId).toBe(priya.id);

    const unlinked = await act(alice.id, { intent: "link-contact", id: added.taskId, contactId: "" });
    expect(unlinked.body).toMatchObject({ ok: true, message: "Contact unlinked" });
    expect((await getTask(ctx, alice.id as UserId, added.taskId))!.contactId).toBeNull();
    // Another agent's contact is "not found", and the task stays as it was.
    expect((await act(alice.id, { intent: "link-contact", id: added.taskId, contactId: bobsPriya.id })).status).toBe(404);
    expect((await getTask(ctx, alice.id as UserId, added.taskId))!.contactId).toBeNull();
    expect((await act(alice.id, { intent: "link-contact", id: added.taskId, contactId: priya.id })).body).toMatchObject({
      message: "Linked to Priya Shah",
    });
    // Nor can another agent relink Alice's task.
    expect((await act(bob.id, { intent: "link-contact", id: added.taskId, contactId: bobsPriya.id })).status).toBe(404);
    expect((await getTask(ctx, alice.id as UserId, added.taskId))!.contactId).toBe(priya.id);
  });

  it("offers the tied contacts when two match, and links nothing when none does", async () => {
    const alice = await createUser(env.DB);
    const ctx = requestContext();
    const shah = await createContact(ctx, alice.id as UserId, ContactInputSchema.parse({ name: "Priya Shah", email: "priya@example.com" }));
    const patel = await createContact(ctx, alice.id as UserId, ContactInputSchema.parse({ name: "Priya Patel", email: "priya@example.com" }));
    const tied = (await act(alice.id, { intent: "quick-add", text: "text priya friday" })).body;
    expect(tied.contactLink).toEqual({
      linked: null,
      candidates: [
        { id: patel.id, name: "Priya Patel" },
        { id: shah.id, name: "Priya Shah" },
      ],
    });
    expect((await getTask(ctx, alice.id as UserId, tied.taskId))!.contactId).toBeNull();
    const none = (await act(alice.id, { intent: "quick-add", text: 'Order the "sign" (*) OR NEAR tomorrow' })).body;
    expect(none).toMatchObject({ ok: true, contactLink: { linked: null, candidates: [] } });
  });
});
