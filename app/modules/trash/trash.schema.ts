import * as z from "zod";

const ids = z
  .array(z.string().min(1).max(64, "That is not an item of the trash."))
  .min(1, "Choose at least one item.")
  .max(5_000, "Choose at most 5,000 items at a time.");

/** Restore or delete for good some items (by trash id), or empty the whole trash (asked to confirm first). */
export const TrashActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("restore"), id: ids }),
  z.object({ intent: z.literal("delete"), id: ids }),
  z.object({ intent: z.literal("empty") }),
]);
