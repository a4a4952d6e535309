import { COPY_CHANGED, QUEUE_SYNC_TAG } from "./field-copy";
import { copyOwner, openCopy, sendQueue } from "./local-copy.client";

// Background Sync (ADR 0031): the part of the service worker that sends the changes made offline once the
// connection is back, even when Porchlight is closed by then. Bundled on its own at build time (sw-bundle.vite.ts)
// and loaded by /sw.js (workers/service-worker.ts) with importScripts; it sends with the app's own code.

interface SyncEvent extends Event {
  tag: string;
  waitUntil(work: Promise<unknown>): void;
}
interface WorkerScope {
  addEventListener(type: "sync", listener: (event: SyncEvent) => void): void;
  clients: { matchAll(options: { type: "window" }): Promise<{ postMessage(message: unknown): void }[]> };
}
const worker = globalThis as unknown as WorkerScope;

/** Open Porchlight pages re-read the copy (the field view and the app's "Waiting to send"). */
function tellPages() {
  void worker.clients.matchAll({ type: "window" }).then((pages) => pages.forEach((page) => page.postMessage({ type: COPY_CHANGED })));
}

/**
 * Sends the queue of the agent whose copy is on this device. Still offline (or a server error): the promise rejects,
 * so the browser tries again later. A session that is gone (401) leaves the queue for the app, which asks the agent.
 */
export async function sendFromWorker(): Promise<void> {
  const owner = await copyOwner();
  if (!owner) return;
  const db = await openCopy(owner);
  try {
    if ((await sendQueue(db, tellPages)) === "offline") throw new Error("Porchlight could not reach the server; the browser will try again.");
  } finally {
    db.close();
  }
}

worker.addEventListener("sync", (event) => {
  if (event.tag === QUEUE_SYNC_TAG) event.waitUntil(sendFromWorker());
});
