import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { DealStage } from "~/db/schema";
import { changeRowId } from "./change-id";
import {
  COPY_CHANGED,
  MAX_CHANGES_PER_REQUEST,
  QUEUE_SYNC_TAG,
  type FieldContact,
  type FieldDeal,
  type FieldSync,
  type FieldTask,
} from "./field-copy";
import type { QueuedChange, QueuedChangeResult } from "./queued-changes.schema";

// The phone's field copy in IndexedDB (ADR 0031), one database per signed-in agent
// ("porchlight-field-<user id>"), kept up to date from GET /api/sync by cursor. Signing out deletes it, a sign-in
// as someone else deletes every other agent's, and a session the server no longer accepts (signed out everywhere,
// password changed) drops it at the next sync. Changes made offline wait in the same database (`queue`), in order,
// until they are sent; the copy itself only ever holds what the server sent. The service worker sends them too, when
// the browser has Background Sync (send-queue.sw.ts): this module is bundled into it, so both send the same way.

const COPY_PREFIX = "porchlight-field-";

export interface CopyMeta {
  cursor: string;
  savedAt: number;
  today: string;
  timezone: string;
  currency: FieldSync["currency"];
  /** Missing in a copy saved before they were sent: the view then uses the defaults until the next sync. */
  dateFormat?: FieldSync["dateFormat"];
  timeFormat?: FieldSync["timeFormat"];
  truncated: FieldSync["truncated"];
}

/**
 * A change made offline, waiting to be sent (pending) or answered by the server with something the agent must read
 * (conflict, rejected), kept until they dismiss it. Applied changes leave the queue: the next sync brings their rows.
 */
export interface QueuedEntry {
  /** The order the changes were made in (and are sent in). */
  seq?: number;
  change: QueuedChange & { key: string };
  /** What the agent did, in words: "Call logged with Dana Whitfield". */
  label: string;
  createdAt: number;
  status: "pending" | QueuedChangeResult["status"];
  message: string | null;
}

export type StageRow = DealStage & { order: number };

/**
 * How many changes made offline have reached the server in the current round (since the queue was last empty), and
 * when the last of them went: whoever sent them, this page or the service worker.
 */
export interface SentTally {
  count: number;
  at: number;
}

interface CopySchema extends DBSchema {
  /** "sync": the copy's CopyMeta; "sent": the SentTally. */
  meta: { key: "sync" | "sent"; value: CopyMeta | SentTally };
  contacts: { key: string; value: FieldContact };
  tasks: { key: string; value: FieldTask };
  deals: { key: string; value: FieldDeal };
  stages: { key: string; value: StageRow };
  queue: { key: number; value: QueuedEntry };
}

const STORES = ["meta", "contacts", "tasks", "deals", "stages"] as const;
export type CopyDB = IDBPDatabase<CopySchema>;

export function openCopy(userId: string): Promise<CopyDB> {
  return openDB<CopySchema>(`${COPY_PREFIX}${userId}`, 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore("meta");
        db.createObjectStore("contacts", { keyPath: "id" });
        db.createObjectStore("tasks", { keyPath: "id" });
        db.createObjectStore("deals", { keyPath: "id" });
        db.createObjectStore("stages", { keyPath: "key" });
      }
      if (oldVersion < 2) db.createObjectStore("queue", { keyPath: "seq", autoIncrement: true });
    },
  });
}

/** The agent whose copy is on this device (a sign-in deletes every other agent's), or null when there is none. */
export async function copyOwner(): Promise<string | null> {
  if (typeof indexedDB.databases !== "function") return null;
  const name = (await indexedDB.databases()).map((d) => d.name ?? "").find((n) => n.startsWith(COPY_PREFIX));
  return name ? name.slice(COPY_PREFIX.length) : null;
}

export interface CopyContents {
  meta: CopyMeta | null;
  sent: SentTally | null;
  contacts: FieldContact[];
  tasks: FieldTask[];
  deals: FieldDeal[];
  stages: StageRow[];
  queue: QueuedEntry[];
}

/** Everything the copy holds, read in one transaction. */
export async function readCopy(db: CopyDB): Promise<CopyContents> {
  const tx = db.transaction([...STORES, "queue"]);
  const [meta, sent, contacts, tasks, deals, stages, queue] = await Promise.all([
    tx.objectStore("meta").get("sync") as Promise<CopyMeta | undefined>,
    tx.objectStore("meta").get("sent") as Promise<SentTally | undefined>,
    tx.objectStore("contacts").getAll(),
    tx.objectStore("tasks").getAll(),
    tx.objectStore("deals").getAll(),
    tx.objectStore("stages").getAll(),
    tx.objectStore("queue").getAll(),
  ]);
  await tx.done;
  return { meta: meta ?? null, sent: sent ?? null, contacts, tasks, deals, stages: stages.sort((a, b) => a.order - b.order), queue };
}

const announce = () => window.dispatchEvent(new Event(COPY_CHANGED));

/** A change as the app makes it, before it gets its key. */
export type NewChange = QueuedChange extends infer C ? (C extends { key: string } ? Omit<C, "key"> : never) : never;

/**
 * Queues a change made offline, with a fresh key. Returns the key and the id of the row it creates (the one the server
 * will make: derived from the agent and the key).
 */
export async function queueChange(userId: string, change: NewChange, label: string): Promise<{ id: string; key: string }> {
  const key = crypto.randomUUID();
  const db = await openCopy(userId);
  try {
    const tx = db.transaction(["queue", "meta"], "readwrite");
    // The first change of a new round (nothing waiting) starts the count of changes sent again.
    const waiting = (await tx.objectStore("queue").getAll()).some((entry) => entry.status === "pending");
    if (!waiting) await tx.objectStore("meta").put({ count: 0, at: Date.now() } satisfies SentTally, "sent");
    await tx
      .objectStore("queue")
      .add({ change: { ...change, key } as QueuedEntry["change"], label, createdAt: Date.now(), status: "pending", message: null });
    await tx.done;
  } finally {
    db.close();
  }
  announce();
  void askForBackgroundSend();
  return { id: await changeRowId(userId, key), key };
}

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/**
 * Asks the service worker to send the queue once the connection is back, even if Porchlight is closed by then
 * (Background Sync, where the browser has it). Where it does not, the online event or the next start sends it.
 */
async function askForBackgroundSend(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as SyncRegistration | undefined;
    await registration?.sync?.register(QUEUE_SYNC_TAG);
  } catch {
    // No service worker, or sync refused (permission): the open app sends the queue.
  }
}

/**
 * Takes a deal's waiting moves off the queue (the Undo of a move made offline), taking turns with a send in progress
 * (the queue's Web Lock) so a move is never both sent and withdrawn. Returns how many were withdrawn: none when they
 * had been sent already.
 */
export async function withdrawMoves(userId: string, dealId: string): Promise<number> {
  const withdraw = async () => {
    const db = await openCopy(userId);
    try {
      const tx = db.transaction("queue", "readwrite");
      let withdrawn = 0;
      for (const entry of await tx.store.getAll()) {
        if (entry.status === "pending" && entry.change.type === "move_deal" && entry.change.dealId === dealId && entry.seq !== undefined) {
          await tx.store.delete(entry.seq);
          withdrawn += 1;
        }
      }
      await tx.done;
      return withdrawn;
    } finally {
      db.close();
    }
  };
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  const withdrawn = locks ? await locks.request("porchlight-send-queue", withdraw) : await withdraw();
  announce();
  return withdrawn;
}

/** The server's answers to sent changes that did not go as made, oldest first, until the agent dismisses them. */
export async function readAnswers(userId: string): Promise<QueuedEntry[]> {
  const db = await openCopy(userId);
  try {
    return (await db.getAll("queue")).filter((entry) => entry.status !== "pending");
  } finally {
    db.close();
  }
}

/** Takes answered changes (conflicts, refusals) off the list once the agent has read them. */
export async function dismissAnswers(userId: string): Promise<void> {
  const db = await openCopy(userId);
  try {
    const tx = db.transaction("queue", "readwrite");
    for (const entry of await tx.store.getAll()) if (entry.status !== "pending" && entry.seq !== undefined) await tx.store.delete(entry.seq);
    await tx.done;
  } finally {
    db.close();
  }
  announce();
}

export type SendOutcome = "sent" | "offline" | "signed-out";

/**
 * Sends the pending changes in order and files each answer, calling `filed` after each batch. The app and the service
 * worker take turns (a Web Lock), so a change is never in two requests at once; a retry is harmless anyway (its key).
 */
export async function sendQueue(db: CopyDB, filed: () => void): Promise<SendOutcome> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return sendBatches(db, filed);
  return await locks.request("porchlight-send-queue", () => sendBatches(db, filed));
}

/** The pending changes, at most MAX_CHANGES_PER_REQUEST a request. */
async function sendBatches(db: CopyDB, filed: () => void): Promise<SendOutcome> {
  for (;;) {
    const pending = (await db.getAll("queue")).filter((entry) => entry.status === "pending").slice(0, MAX_CHANGES_PER_REQUEST);
    if (pending.length === 0) return "sent";
    let response: Response;
    try {
      response = await fetch("/api/sync/changes", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ changes: pending.map((entry) => entry.change) }),
      });
    } catch {
      return "offline";
    }
    if (response.status === 401) return "signed-out";
    // A server error or an ended subscription: the changes wait, unchanged, for the next try.
    if (!response.ok) return "offline";
    const { results } = (await response.json()) as { results: QueuedChangeResult[] };
    const byKey = new Map(results.map((result) => [result.key, result]));
    const tx = db.transaction(["queue", "meta"], "readwrite");
    const queue = tx.objectStore("queue");
    let sent = 0;
    for (const entry of pending) {
      const result = byKey.get(entry.change.key);
      if (!result || entry.seq === undefined) continue;
      sent += 1;
      if (result.status === "applied") await queue.delete(entry.seq);
      else await queue.put({ ...entry, status: result.status, message: result.message });
    }
    // Every answered change was sent, a conflict too (its answer is shown apart): the "N changes sent" of the view.
    const tally = (await tx.objectStore("meta").get("sent")) as SentTally | undefined;
    await tx.objectStore("meta").put({ count: (tally?.count ?? 0) + sent, at: Date.now() } satisfies SentTally, "sent");
    await tx.done;
    filed();
    if (pending.length < MAX_CHANGES_PER_REQUEST) return "sent";
  }
}

/** Puts a sync's answer into the copy in one transaction: all of it lands, or none. */
async function applySync(db: CopyDB, sync: FieldSync): Promise<void> {
  const tx = db.transaction(STORES, "readwrite");
  const contacts = tx.objectStore("contacts");
  const tasks = tx.objectStore("tasks");
  const work: Promise<unknown>[] = [];
  if (sync.full) work.push(contacts.clear(), tasks.clear());
  for (const id of sync.contacts.remove) work.push(contacts.delete(id));
  for (const contact of sync.contacts.upsert) work.push(contacts.put(contact));
  for (const id of sync.tasks.remove) work.push(tasks.delete(id));
  for (const task of sync.tasks.upsert) work.push(tasks.put(task));
  if (sync.deals) {
    const deals = tx.objectStore("deals");
    const stages = tx.objectStore("stages");
    work.push(deals.clear(), stages.clear());
    for (const deal of sync.deals.all) work.push(deals.put(deal));
    sync.deals.stages.forEach((stage, order) => work.push(stages.put({ ...stage, order })));
  }
  const meta: CopyMeta = {
    cursor: sync.cursor,
    savedAt: sync.savedAt,
    today: sync.today,
    timezone: sync.timezone,
    currency: sync.currency,
    dateFormat: sync.dateFormat,
    timeFormat: sync.timeFormat,
    truncated: sync.truncated,
  };
  work.push(tx.objectStore("meta").put(meta, "sync"));
  await Promise.all([...work, tx.done]);
}

/** Deletes the copies on this device: every agent's, or every one but `keep`'s. */
async function wipeCopies(keep?: string): Promise<void> {
  const names = typeof indexedDB.databases === "function" ? (await indexedDB.databases()).map((d) => d.name ?? "") : [];
  await Promise.all(names.filter((name) => name.startsWith(COPY_PREFIX) && name !== `${COPY_PREFIX}${keep ?? ""}`).map((name) => deleteDB(name)));
}

/** Deletes every other agent's copy on this device: at once when an agent's page starts, before the first sync. */
export function dropOtherCopies(userId: string): Promise<void> {
  return wipeCopies(userId);
}

let running: Promise<void> | null = null;

/**
 * Sends the changes waiting in the queue, then brings the agent's copy up to date: the changes since its cursor,
 * or all of it. One at a time. A 401 (the session is gone) deletes the copy with its queue; other failures
 * (offline, a server error) leave both as they were.
 */
export function syncCopy(userId: string): Promise<void> {
  running ??= (async () => {
    try {
      await wipeCopies(userId);
      const db = await openCopy(userId);
      try {
        const sent = await sendQueue(db, announce);
        if (sent === "signed-out") {
          db.close();
          await wipeCopies();
          return;
        }
        if (sent === "offline") {
          void askForBackgroundSend();
          return;
        }
        const meta = (await db.get("meta", "sync")) as CopyMeta | undefined;
        const response = await fetch(`/api/sync${meta ? `?cursor=${encodeURIComponent(meta.cursor)}` : ""}`, {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        });
        if (response.status === 401) {
          db.close();
          await wipeCopies();
          return;
        }
        if (!response.ok) return;
        await applySync(db, (await response.json()) as FieldSync);
        announce();
      } finally {
        db.close();
      }
    } catch {
      // Offline or storage refused (private browsing): the app works online without a copy.
    } finally {
      running = null;
    }
  })();
  return running;
}

/**
 * Before a sign-out: sends what is waiting if it can, then deletes every copy. Changes that could not be sent are
 * deleted with the copy only if the agent agrees (`confirmLoss`).
 */
export async function wipeForSignOut(confirmLoss: (waiting: number) => boolean): Promise<boolean> {
  const owner = await copyOwner();
  if (owner) {
    if (navigator.onLine) await syncCopy(owner);
    const db = await openCopy(owner);
    const waiting = (await db.getAll("queue").finally(() => db.close())).filter((entry) => entry.status === "pending").length;
    if (waiting > 0 && !confirmLoss(waiting)) return false;
  }
  await wipeCopies();
  return true;
}
