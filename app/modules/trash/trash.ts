import type { TrashKind } from "~/db/enums";

// The trash's words, constants and result shape, without zod: the Undo of every delete is in the signed-in shell, and
// importing the schema file from there shipped zod (25 KiB gzip) on every page. The form's schema is trash.schema.ts.

/** How long a deleted contact, deal or task waits in the trash before the cron deletes it for good. */
export const TRASH_DAYS = 30;

/** Where every trash action posts: Settings → Trash and the Undo of every delete. */
export const TRASH_ACTION = "/settings/trash";

export type TrashActionResult = { ok: true; intent: string; message: string; count: number } | { ok: false; intent: string; error: string };

export const TRASH_MESSAGES = {
  notFound: "Those items are no longer in the trash.",
  unknown: "Unknown action.",
  conflict: "Some items could not be restored: a record with the same id exists again.",
  failed: "The trash could not be changed. Nothing was changed; please try again.",
};

export const KIND_LABELS: Record<TrashKind, { one: string; many: string }> = {
  contact: { one: "contact", many: "contacts" },
  deal: { one: "deal", many: "deals" },
  task: { one: "task", many: "tasks" },
};

const plural = (n: number, kind: TrashKind) => `${n.toLocaleString("en-US")} ${n === 1 ? KIND_LABELS[kind].one : KIND_LABELS[kind].many}`;

/** "2 contacts restored", "1 deal restored", or "5 items restored" when kinds are mixed. */
export function restoredMessage(byKind: Record<TrashKind, number>): string {
  const kinds = (Object.keys(byKind) as TrashKind[]).filter((k) => byKind[k] > 0);
  const total = kinds.reduce((n, k) => n + byKind[k], 0);
  if (kinds.length === 1) return `${plural(total, kinds[0]!)} restored`;
  return `${total.toLocaleString("en-US")} ${total === 1 ? "item" : "items"} restored`;
}
