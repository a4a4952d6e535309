import { DEFAULT_DISPLAY_PREFERENCES, formatDate, formatTime, type DisplayPreferences } from "~/lib/format";
import { localNow } from "~/modules/tasks/due";
import type { FieldActivity, FieldContact, FieldDeal, FieldTask } from "./field-copy";
import type { CopyContents, QueuedEntry } from "./local-copy.client";

// What the field view (/field) shows: the copy as the server last sent it, with the changes still waiting
// to be sent laid over it, each marked pending. Pure, so the views and the tests share it.

export interface ViewContact extends FieldContact {
  pending: boolean;
  activities: ViewActivity[];
}
interface ViewActivity extends FieldActivity {
  pending: boolean;
}
export interface ViewTask extends FieldTask {
  /** added: made offline; completed: done offline; both wait to be sent. */
  pending: "added" | "completed" | null;
}
export interface ViewDeal extends FieldDeal {
  /** The stage it was moved to offline, waiting to be sent. */
  movedTo: string | null;
  /** The day it closed, given with a move offline into a closed stage. */
  closedOn: string | null;
}

export interface FieldView {
  contacts: ViewContact[];
  tasks: ViewTask[];
  deals: ViewDeal[];
  pending: QueuedEntry[];
  /** Changes the server answered with a conflict or a refusal, kept until the agent has read them. */
  answered: QueuedEntry[];
}

/**
 * Lays the pending changes over the copy. `createdIds` maps a change's key to the id of the row it creates (the same
 * id the server will give it, change-id.ts).
 */
export function buildView(copy: Pick<CopyContents, "contacts" | "tasks" | "deals" | "queue">, createdIds: ReadonlyMap<string, string>): FieldView {
  const pending = copy.queue.filter((entry) => entry.status === "pending").sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const contacts = new Map<string, ViewContact>(
    copy.contacts.map((c) => [c.id, { ...c, pending: false, activities: c.activities.map((a) => ({ ...a, pending: false })) }]),
  );
  const tasks = new Map<string, ViewTask>(copy.tasks.map((t) => [t.id, { ...t, pending: null }]));
  const deals = new Map<string, ViewDeal>(copy.deals.map((d) => [d.id, { ...d, movedTo: null, closedOn: null }]));
  for (const { change, createdAt } of pending) {
    const id = createdIds.get(change.key) ?? change.key;
    switch (change.type) {
      case "add_contact": {
        const c = change.contact as Record<string, unknown>;
        contacts.set(id, {
          id,
          name: String(c.name ?? ""),
          phone: (c.phone as string | null | undefined) || null,
          email: (c.email as string | null | undefined) || null,
          status: (c.status as FieldContact["status"] | undefined) ?? "cold",
          budgetMin: null,
          budgetMax: null,
          propertyType: "house",
          location: (c.location as string | null | undefined) || null,
          notes: (c.notes as string | null | undefined) || null,
          tags: [],
          leadScore: 0,
          lastActivity: createdAt,
          activities: [],
          pending: true,
        });
        break;
      }
      case "log_activity": {
        const a = change.activity as Record<string, unknown>;
        const contact = typeof a.contactId === "string" ? contacts.get(a.contactId) : undefined;
        if (contact) {
          contact.activities = [
            {
              id,
              type: a.type as FieldActivity["type"],
              occurredAt: createdAt,
              outcome: (a.outcome as string | null | undefined) || null,
              notes: (a.notes as string | null | undefined) || null,
              dealId: (a.dealId as string | null | undefined) || null,
              pending: true,
            },
            ...contact.activities,
          ];
          contact.lastActivity = Math.max(contact.lastActivity, createdAt);
        }
        break;
      }
      case "add_task": {
        const t = change.task as Record<string, unknown>;
        const contactId = (t.contactId as string | null | undefined) || null;
        tasks.set(id, {
          id,
          title: String(t.title ?? ""),
          notes: (t.notes as string | null | undefined) || null,
          type: (t.type as FieldTask["type"] | undefined) ?? "follow_up",
          priority: (t.priority as FieldTask["priority"] | undefined) ?? "medium",
          dueDate: String(t.dueDate ?? ""),
          dueTime: (t.dueTime as string | null | undefined) || null,
          contactId,
          contactName: contactId ? (contacts.get(contactId)?.name ?? null) : null,
          pending: "added",
        });
        break;
      }
      case "complete_task": {
        const task = tasks.get(change.taskId);
        if (task) task.pending = "completed";
        break;
      }
      case "move_deal": {
        const deal = deals.get(change.dealId);
        if (deal) {
          deal.movedTo = change.toStage;
          deal.closedOn = typeof change.closedDate === "string" && change.closedDate ? change.closedDate : null;
        }
        break;
      }
    }
  }
  return {
    contacts: [...contacts.values()].sort((a, b) => b.lastActivity - a.lastActivity || a.name.localeCompare(b.name)),
    tasks: [...tasks.values()].sort(
      (a, b) => a.dueDate.localeCompare(b.dueDate) || (a.dueTime ?? "99").localeCompare(b.dueTime ?? "99") || a.title.localeCompare(b.title),
    ),
    deals: [...deals.values()],
    pending,
    answered: copy.queue.filter((entry) => entry.status !== "pending").sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)),
  };
}

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/**
 * Contacts whose name, e-mail, phone, location, tags or notes hold every word of the query (accents and case
 * ignored; a phone matches on its digits, however it was typed).
 */
export function searchContacts<T extends FieldContact>(contacts: readonly T[], query: string): T[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...contacts];
  return contacts.filter((contact) => {
    const text = fold([contact.name, contact.email, contact.phone, contact.location, contact.notes, ...contact.tags].filter(Boolean).join(" "));
    const digits = (contact.phone ?? "").replace(/\D/g, "");
    return words.every((word) => {
      const wordDigits = word.replace(/[().+-]/g, "");
      return text.includes(word) || (/^\d{3,}$/.test(wordDigits) && digits.includes(wordDigits));
    });
  });
}

/**
 * When the copy was saved, as the agent reads times: "2:32 PM" or "14:32", with the date in their format ("Nov 24,
 * 2026, 2:32 PM", "24/11/26, 14:32") when it was saved on another day than today.
 */
export function savedAtLabel(savedAt: number, prefs: DisplayPreferences, now = new Date()): string {
  const time = formatTime(savedAt, prefs);
  if (localNow(prefs.timezone, new Date(savedAt)).date === localNow(prefs.timezone, now).date) return time;
  return `${formatDate(savedAt, prefs)}, ${time}`;
}

/** The agent's display preferences as the copy holds them (a copy saved before it held the formats: the defaults). */
export function copyPrefs(meta: Pick<CopyContents["meta"] & object, "timezone" | "currency" | "dateFormat" | "timeFormat">): DisplayPreferences {
  return {
    timezone: meta.timezone,
    currency: meta.currency,
    dateFormat: meta.dateFormat ?? DEFAULT_DISPLAY_PREFERENCES.dateFormat,
    timeFormat: meta.timeFormat ?? DEFAULT_DISPLAY_PREFERENCES.timeFormat,
  };
}

/** A screen of the field view, named by the path after the # (the app page the agent was opening). */
export type FieldScreen =
  | { name: "dashboard" }
  | { name: "contacts"; q: string }
  | { name: "contact"; id: string }
  | { name: "add-contact" }
  | { name: "tasks" }
  | { name: "pipeline" }
  | { name: "needs-server"; page: string; path: string };

/** App pages that work from the whole account on the server, by path: what the field view calls them. */
const SERVER_PAGES: [RegExp, string][] = [
  [/^\/contacts\/import(\/|$)/, "Importing contacts"],
  [/^\/contacts\/duplicates(\/|$)/, "Finding duplicates"],
  [/^\/contacts\/export/, "Exporting contacts"],
  [/^\/pipeline\/commissions(\/|$)/, "Commissions"],
  [/^\/pipeline\/stages(\/|$)/, "Pipeline stages"],
  [/^\/deals\//, "A deal's page"],
  [/^\/reports(\/|$)/, "Reports"],
  [/^\/ai-assistant(\/|$)/, "The AI Assistant"],
  [/^\/settings(\/|$)/, "Settings"],
  [/^\/activities(\/|$)/, "The activity log"],
  [/^\/calendar-feed(\/|$)/, "The calendar feed"],
  [/^\/onboarding(\/|$)/, "Getting started"],
  [/^\/operations(\/|$)/, "The Operations Center"],
  [/^\/admin(\/|$)/, "Admin"],
  [/^\/qa(\/|$)/, "The QA Dashboard"],
];

export function screenFor(hash: string): FieldScreen {
  const [rawPath = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  const path = rawPath.replace(/\/+$/, "") || "/dashboard";
  for (const [pattern, page] of SERVER_PAGES) if (pattern.test(path)) return { name: "needs-server", page, path };
  if (path === "/dashboard") return { name: "dashboard" };
  if (path === "/contacts") return { name: "contacts", q: new URLSearchParams(query).get("q") ?? "" };
  if (path === "/add-contact") return { name: "add-contact" };
  const contact = /^\/contacts\/([A-Za-z0-9-]{1,64})$/.exec(path);
  if (contact) return { name: "contact", id: contact[1]! };
  if (path === "/tasks") return { name: "tasks" };
  if (path === "/pipeline") return { name: "pipeline" };
  return { name: "dashboard" };
}

/** The app page a screen stands for: where "Open the full app" goes once the connection is back. */
export function pageFor(screen: FieldScreen): string {
  switch (screen.name) {
    case "contacts":
      return screen.q ? `/contacts?q=${encodeURIComponent(screen.q)}` : "/contacts";
    case "contact":
      return `/contacts/${screen.id}`;
    case "add-contact":
      return "/contacts";
    case "needs-server":
      return screen.path;
    default:
      return `/${screen.name}`;
  }
}
