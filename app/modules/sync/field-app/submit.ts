import type { NewChange } from "../local-copy.client";
import { queueChange, syncCopy } from "../local-copy.client";
import { QueuedChangeSchema } from "../queued-changes.schema";

/** Queued: the change's key (to follow it to the server) and the id of the row it makes. */
export type Submitted = { ok: true; id: string; key: string } | { ok: false; error: string; field: string };

/**
 * Checks a change with the schema the server applies (the online form's rules and messages), queues it and, when
 * there is a connection, sends it at once. Nothing is queued when a field is wrong.
 */
export async function submitChange(userId: string, change: NewChange, label: string): Promise<Submitted> {
  const parsed = QueuedChangeSchema.safeParse({ ...change, key: "checked-before-queuing" });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: issue?.message ?? "That change could not be saved.", field: issue?.path.slice(1).map(String).join(".") ?? "" };
  }
  const { id, key } = await queueChange(userId, change, label);
  if (navigator.onLine) void syncCopy(userId);
  return { ok: true, id, key };
}
