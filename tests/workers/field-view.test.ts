import { describe, expect, it } from "vitest";
import { changeRowId } from "~/modules/sync/change-id";
import type { FieldContact, FieldDeal, FieldTask } from "~/modules/sync/field-copy";
import { buildView, copyPrefs, pageFor, savedAtLabel, screenFor, searchContacts } from "~/modules/sync/field-view";
import { localNow } from "~/modules/tasks/due";
import type { QueuedEntry } from "~/modules/sync/local-copy.client";

// What the field view (/field) shows offline: the saved copy with the changes still waiting laid over it,
// the search over the copy, and which screen an app page opens.

const contact = (over: Partial<FieldContact>): FieldContact => ({
  id: "c1",
  name: "Grace Liu",
  phone: "(512) 555-0109",
  email: "grace@example.com",
  status: "hot",
  budgetMin: 700_000,
  budgetMax: 820_000,
  propertyType: "house",
  location: "Tarrytown",
  notes: "Wants a big kitchen",
  tags: ["pre-approved"],
  leadScore: 80,
  lastActivity: 1_000,
  activities: [{ id: "a1", type: "showing", occurredAt: 900, outcome: "Loved the second home", notes: null, dealId: null }],
  ...over,
});
const task = (over: Partial<FieldTask>): FieldTask => ({
  id: "t1",
  title: "Call Grace",
  notes: null,
  type: "call",
  priority: "high",
  dueDate: "2026-05-01",
  dueTime: null,
  contactId: "c1",
  contactName: "Grace Liu",
  ...over,
});
const deal = (over: Partial<FieldDeal>): FieldDeal => ({
  id: "d1",
  title: "Liu purchase",
  stage: "showing",
  contactId: "c1",
  contactName: "Grace Liu",
  dealValueCents: 78_000_000,
  expectedCloseDate: null,
  netCents: 1_000_000,
  ...over,
});
const entry = (seq: number, change: QueuedEntry["change"], status: QueuedEntry["status"] = "pending"): QueuedEntry => ({
  seq,
  change,
  label: `change ${seq}`,
  createdAt: 5_000 + seq,
  status,
  message: status === "pending" ? null : "What happened",
});

describe("the field view lays waiting changes over the copy", () => {
  const copy = {
    contacts: [
      contact({}),
      contact({ id: "c2", name: "Priya Lindqvist", status: "warm", lastActivity: 2_000, location: "Mueller", phone: null, tags: [], activities: [] }),
    ],
    tasks: [task({}), task({ id: "t2", title: "Send comps", dueDate: "2026-04-30", contactId: null, contactName: null })],
    deals: [deal({})],
  };

  it("with nothing waiting, shows the copy as saved, contacts by last activity and tasks by due date", () => {
    const view = buildView({ ...copy, queue: [] }, new Map());
    expect(view.contacts.map((c) => c.name)).toEqual(["Priya Lindqvist", "Grace Liu"]);
    expect(view.tasks.map((t) => t.title)).toEqual(["Send comps", "Call Grace"]);
    expect(view.contacts.every((c) => !c.pending)).toBe(true);
    expect(view.pending).toEqual([]);
  });

  it("marks each kind of waiting change where it shows, under the id the server will give a new row", () => {
    const queue = [
      entry(1, { key: "k-add-contact-1", type: "add_contact", contact: { name: "Rowan Lee", phone: "555 0199", status: "warm" } as never }),
      entry(2, {
        key: "k-log-activity-1",
        type: "log_activity",
        activity: { type: "call", contactId: "c1", outcome: "Left a voicemail", date: "2026-05-01", time: "10:00" } as never,
      }),
      entry(3, {
        key: "k-add-task-0001",
        type: "add_task",
        task: { title: "Send Rowan listings", dueDate: "2026-05-02", contactId: "new-rowan" } as never,
      }),
      entry(4, { key: "k-complete-001", type: "complete_task", taskId: "t1" }),
      entry(5, { key: "k-move-deal-01", type: "move_deal", dealId: "d1", fromStage: "showing", toStage: "offer" }),
      entry(6, { key: "k-answered-001", type: "move_deal", dealId: "d1", fromStage: "lead", toStage: "qualified" }, "conflict"),
    ];
    const view = buildView(
      { ...copy, queue },
      new Map([
        ["k-add-contact-1", "new-rowan"],
        ["k-add-task-0001", "new-task"],
      ]),
    );
    const rowan = view.contacts.find((c) => c.id === "new-rowan");
    expect(rowan).toMatchObject({ name: "Rowan Lee", pending: true, status: "warm" });
    const grace = view.contacts.find((c) => c.id === "c1")!;
    expect(grace.activities[0]).toMatchObject({ type: "call", outcome: "Left a voicemail", pending: true });
    expect(grace.activities[1]).toMatchObject({ id: "a1", pending: false });
    expect(view.tasks.find((t) => t.id === "new-task")).toMatchObject({ title: "Send Rowan listings", pending: "added", contactName: "Rowan Lee" });
    expect(view.tasks.find((t) => t.id === "t1")?.pending).toBe("completed");
    // The waiting move, not the answered one, decides where the deal shows.
    expect(view.deals[0]).toMatchObject({ stage: "showing", movedTo: "offer" });
    expect(view.pending.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(view.answered.map((e) => e.seq)).toEqual([6]);
  });

  it("ignores waiting changes whose row is not in the copy", () => {
    const view = buildView(
      {
        ...copy,
        queue: [
          entry(1, { key: "k-complete-999", type: "complete_task", taskId: "gone" }),
          entry(2, { key: "k-move-999999", type: "move_deal", dealId: "gone", fromStage: "a", toStage: "b" }),
        ],
      },
      new Map(),
    );
    expect(view.tasks.every((t) => t.pending === null)).toBe(true);
    expect(view.deals[0]!.movedTo).toBeNull();
  });
});

describe("searching the copy", () => {
  const contacts = [
    contact({}),
    contact({ id: "c2", name: "Zoë Ångström", phone: "+1 512 555 0142", email: null, location: "Mueller", tags: ["investor"], notes: null }),
  ];

  it("matches every word in the name, e-mail, location, tags and notes, ignoring case and accents", () => {
    expect(searchContacts(contacts, "zoe").map((c) => c.id)).toEqual(["c2"]);
    expect(searchContacts(contacts, "ANGSTROM investor").map((c) => c.id)).toEqual(["c2"]);
    expect(searchContacts(contacts, "kitchen").map((c) => c.id)).toEqual(["c1"]);
    expect(searchContacts(contacts, "grace mueller")).toEqual([]);
    expect(searchContacts(contacts, "  ")).toHaveLength(2);
  });

  it("matches a phone by its digits however it was typed", () => {
    expect(searchContacts(contacts, "5550142").map((c) => c.id)).toEqual(["c2"]);
    expect(searchContacts(contacts, "(512)555-0109").map((c) => c.id)).toEqual(["c1"]);
    expect(searchContacts(contacts, "0109").map((c) => c.id)).toEqual(["c1"]);
    expect(searchContacts(contacts, "99999")).toEqual([]);
  });
});

describe("which screen an app page opens", () => {
  it("opens the copy's screens and names the pages that need the server", () => {
    expect(screenFor("#/contacts/abc-123")).toEqual({ name: "contact", id: "abc-123" });
    expect(screenFor("#/contacts?q=grace%20liu")).toEqual({ name: "contacts", q: "grace liu" });
    expect(screenFor("#/tasks")).toEqual({ name: "tasks" });
    expect(screenFor("#/pipeline/")).toEqual({ name: "pipeline" });
    expect(screenFor("")).toEqual({ name: "dashboard" });
    expect(screenFor("#/contacts/import")).toEqual({ name: "needs-server", page: "Importing contacts", path: "/contacts/import" });
    expect(screenFor("#/reports?range=ytd")).toEqual({ name: "needs-server", page: "Reports", path: "/reports" });
    expect(screenFor("#/deals/d1")).toMatchObject({ name: "needs-server", page: "A deal's page" });
    // Anything else (a typo, a hostile hash) is the dashboard.
    expect(screenFor("#/<script>")).toEqual({ name: "dashboard" });
    expect(screenFor("#/contacts/../../etc")).toEqual({ name: "dashboard" });
  });

  it("leads back to the same app page once online", () => {
    expect(pageFor({ name: "contact", id: "c1" })).toBe("/contacts/c1");
    expect(pageFor({ name: "contacts", q: "a&b" })).toBe("/contacts?q=a%26b");
    expect(pageFor({ name: "pipeline" })).toBe("/pipeline");
    expect(pageFor({ name: "needs-server", page: "Reports", path: "/reports" })).toBe("/reports");
  });
});

describe("times in the agent's timezone", () => {
  it("says when the copy was saved as the agent reads times (12- or 24-hour), with the day when it is not today", () => {
    const saved = Date.UTC(2026, 2, 10, 18, 32);
    const twelve = { timezone: "America/New_York", timeFormat: "12h", dateFormat: "US", currency: "USD" } as const;
    const twentyFour = { timezone: "America/New_York", timeFormat: "24h", dateFormat: "EU", currency: "EUR" } as const;
    expect(savedAtLabel(saved, twelve, new Date(Date.UTC(2026, 2, 10, 20, 0)))).toBe("2:32 PM");
    expect(savedAtLabel(saved, twelve, new Date(Date.UTC(2026, 2, 11, 20, 0)))).toBe("Mar 10, 2026, 2:32 PM");
    expect(savedAtLabel(saved, twentyFour, new Date(Date.UTC(2026, 2, 10, 20, 0)))).toBe("14:32");
    expect(savedAtLabel(saved, twentyFour, new Date(Date.UTC(2026, 2, 11, 20, 0)))).toBe("10/03/26, 14:32");
    // A copy saved before it held the formats reads them as the defaults (12-hour, US dates).
    expect(copyPrefs({ timezone: "Europe/Oslo", currency: "NOK" })).toEqual({
      timezone: "Europe/Oslo",
      currency: "NOK",
      timeFormat: "12h",
      dateFormat: "US",
    });
    // The field view's "today" and an offline activity's date and time come from the app's own localNow.
    expect(localNow("Asia/Tokyo", new Date(Date.UTC(2026, 2, 10, 18, 0))).date).toBe("2026-03-11");
    expect(localNow("America/New_York", new Date(Date.UTC(2026, 2, 10, 4, 5)))).toEqual({ date: "2026-03-10", time: "00:05" });
  });
});

describe("ids of rows made offline", () => {
  it("are the same on the phone and on the server for one agent and key, and differ between agents", async () => {
    const a = await changeRowId("user-a", "key-0001");
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await changeRowId("user-a", "key-0001")).toBe(a);
    expect(await changeRowId("user-b", "key-0001")).not.toBe(a);
  });
});
