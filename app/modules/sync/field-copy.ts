import type { Currency, DateFormat, TimeFormat } from "~/db/enums";
import type { ActivityType, ContactStatus, DealStage, PropertyType, TaskPriority, TaskType } from "~/db/schema";

/**
 * The field copy (ADR 0031): what a phone keeps of an agent's data to work without signal, and the
 * shape of a sync. Shared by the server (field-copy.server.ts) and the browser (IndexedDB), so no server imports.
 */

/**
 * The copy's caps. A copy holds at most this many of each; past a cap the most recent come first and the answer
 * says which were cut (`truncated`). The bench's large account (every cap but activities reached) makes a whole
 * copy of 774 KiB, 69 KiB gzipped (`BENCH_ONLY=sync npm run bench`); 20 long activities on every contact would
 * take it to about 5 MB.
 */
export const FIELD_COPY_LIMITS = {
  /** Hot and warm contacts, and every contact touched in the last `touchedDays`, most recently active first. */
  contacts: 1_500,
  touchedDays: 30,
  /** The last activities of each contact in the copy. */
  activitiesPerContact: 20,
  /** Open tasks due up to `taskDays` ahead (overdue ones included), earliest first. */
  tasks: 1_000,
  taskDays: 14,
  /** Open deals, earliest close first. */
  deals: 500,
} as const;

/** The window event that tells open views the copy or its queue changed (a sync, a change queued, an answer). */
export const COPY_CHANGED = "porchlight:copy-changed";
/**
 * Calls `listener` whenever the copy or its queue changes, in this page or in the service worker (which posts
 * COPY_CHANGED after sending the queue by Background Sync). Returns the function that stops listening.
 */
export function onCopyChanged(listener: () => void): () => void {
  const fromWorker = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === COPY_CHANGED) listener();
  };
  window.addEventListener(COPY_CHANGED, listener);
  navigator.serviceWorker?.addEventListener("message", fromWorker);
  return () => {
    window.removeEventListener(COPY_CHANGED, listener);
    navigator.serviceWorker?.removeEventListener("message", fromWorker);
  };
}

/** The Background Sync tag under which the service worker sends the queue of changes made offline. */
export const QUEUE_SYNC_TAG = "porchlight-send-queue";
/** The service worker's Background Sync part, built from send-queue.sw.ts (sw-bundle.vite.ts) into the client build. */
export const SW_SEND_QUEUE_FILE = "sw-send-queue.js";

/** Where the saved copy opens for an app page (the service worker does the same for a page it cannot load). */
export const fieldUrlFor = (path: string) => `/field#${path}`;

/** At most this many queued changes in one request; the phone sends a longer queue in turns. */
export const MAX_CHANGES_PER_REQUEST = 50;

export interface FieldContact {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  status: ContactStatus;
  budgetMin: number | null;
  budgetMax: number | null;
  propertyType: PropertyType;
  location: string | null;
  notes: string | null;
  tags: string[];
  leadScore: number;
  /** Epoch ms. */
  lastActivity: number;
  /** The contact's last activities, newest first (at most FIELD_COPY_LIMITS.activitiesPerContact). */
  activities: FieldActivity[];
}

export interface FieldActivity {
  id: string;
  type: ActivityType;
  /** Epoch ms. */
  occurredAt: number;
  outcome: string | null;
  notes: string | null;
  dealId: string | null;
}

export interface FieldTask {
  id: string;
  title: string;
  notes: string | null;
  type: TaskType;
  priority: TaskPriority;
  /** "YYYY-MM-DD" in the agent's timezone. */
  dueDate: string;
  dueTime: string | null;
  contactId: string | null;
  contactName: string | null;
}

export interface FieldDeal {
  id: string;
  title: string;
  stage: string;
  contactId: string | null;
  contactName: string | null;
  dealValueCents: number;
  expectedCloseDate: string | null;
  /** The agent's net if it closes as planned, after splits, fees and the cap. */
  netCents: number;
}

/** Rows to put in the copy (replacing any with the same id) and ids to take out of it. */
interface FieldChanges<T> {
  upsert: T[];
  remove: string[];
}

export interface FieldSync {
  /** Send it back on the next sync. Opaque. */
  cursor: string;
  /** True: this is the whole copy (replace what is kept); false: only what changed since the cursor sent. */
  full: boolean;
  /** When the server read it, epoch ms ("Offline — showing what was saved at 14:32"). */
  savedAt: number;
  /** The agent's day and timezone at that moment, and how they read dates, times and money. */
  today: string;
  timezone: string;
  currency: Currency;
  dateFormat: DateFormat;
  timeFormat: TimeFormat;
  contacts: FieldChanges<FieldContact>;
  tasks: FieldChanges<FieldTask>;
  /** All open deals and the stages when either changed since the cursor (the nets depend on the plan), else null. */
  deals: { all: FieldDeal[]; stages: DealStage[] } | null;
  /** Which collections hit their cap in this answer. */
  truncated: { contacts: boolean; tasks: boolean; deals: boolean };
}
