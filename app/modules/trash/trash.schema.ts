import * as z from "zod";
import type { TrashKind } from "~/db/enums";

/** How long a deleted contact, deal or task waits in the trash before the cron deletes it for good. */
export const TRASH_DAYS = 30;

/** Where every trash action posts: Settings → Trash and the Undo of every delete. */
export const TRASH_ACTION = "/settings/trash";

const ids = z.array(z.string().min(1).max(64, "That is not an item of the trash.")).min(1, "Choose at least one item.").max(5_000, "Choose at most 5,000 items at a time.");

/** Restore or delete for good some items (by trash id), or empty the whole trash (asked to confirm first). */
export const TrashActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("restore"), id: ids }),
  z.object({ intent: z.literal("delete"), id: ids }),
  z.object({ intent: z.literal("empty") }),
]);
export type TrashAction = z.infer<typeof TrashActionSchema>;

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
