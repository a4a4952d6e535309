import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { DealStage } from "~/db/schema";
import type { FieldContact, FieldDeal, FieldSync, FieldTask } from "./field-copy";

// The phone's field copy in IndexedDB (issue 20, ADR 0031), one database per signed-in agent
// ("porchlight-field-<user id>"), kept up to date from GET /api/sync by cursor. Signing out deletes it, a sign-in
// as someone else deletes every other agent's, and a session the server no longer accepts (signed out everywhere,
// password changed) drops it at the next sync.

export const COPY_PREFIX = "porchlight-field-";

export interface CopyMeta {
  cursor: string;
  savedAt: number;
  today: string;
  timezone: string;
  currency: string;
  truncated: FieldSync["truncated"];
}

interface CopySchema extends DBSchema {
  meta: { key: "sync"; value: CopyMeta };
  contacts: { key: string; value: FieldContact };
  tasks: { key: string; value: FieldTask };
  deals: { key: string; value: FieldDeal };
  stages: { key: string; value: DealStage & { order: number } };
}

const STORES = ["meta", "contacts", "tasks", "deals", "stages"] as const;

export function openCopy(userId: string): Promise<IDBPDatabase<CopySchema>> {
  return openDB<CopySchema>(`${COPY_PREFIX}${userId}`, 1, {
    upgrade(db) {
      db.createObjectStore("meta");
      db.createObjectStore("contacts", { keyPath: "id" });
      db.createObjectStore("tasks", { keyPath: "id" });
      db.createObjectStore("deals", { keyPath: "id" });
      db.createObjectStore("stages", { keyPath: "key" });
    },
  });
}

/** Puts a sync's answer into the copy in one transaction: all of it lands, or none. */
export async function applySync(db: IDBPDatabase<CopySchema>, sync: FieldSync): Promise<void> {
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
  const meta: CopyMeta = { cursor: sync.cursor, savedAt: sync.savedAt, today: sync.today, timezone: sync.timezone, currency: sync.currency, truncated: sync.truncated };
  work.push(tx.objectStore("meta").put(meta, "sync"));
  await Promise.all([...work, tx.done]);
}

/** Deletes the copies on this device: every agent's, or every one but `keep`'s. */
export async function wipeCopies(keep?: string): Promise<void> {
  const names = typeof indexedDB.databases === "function" ? (await indexedDB.databases()).map((d) => d.name ?? "") : [];
  await Promise.all(names.filter((name) => name.startsWith(COPY_PREFIX) && name !== `${COPY_PREFIX}${keep ?? ""}`).map((name) => deleteDB(name)));
}

let running: Promise<void> | null = null;

/**
 * Brings the agent's copy up to date: the changes since its cursor, or all of it. One sync at a time. A 401
 * (the session is gone) deletes the copy; other failures (offline, a server error) leave it as it was.
 */
export function syncCopy(userId: string): Promise<void> {
  running ??= (async () => {
    try {
      await wipeCopies(userId);
      const db = await openCopy(userId);
      try {
        const meta = await db.get("meta", "sync");
        const response = await fetch(`/api/sync${meta ? `?cursor=${encodeURIComponent(meta.cursor)}` : ""}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (response.status === 401) {
          db.close();
          await wipeCopies();
          return;
        }
        if (!response.ok) return;
        await applySync(db, (await response.json()) as FieldSync);
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
