import * as z from "zod";
import { ActivityInputSchema } from "~/modules/activities/activity.schema";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { DealMoveSchema } from "~/modules/deals/deal.schema";
import { TaskInputSchema } from "~/modules/tasks/task.schema";
import { MAX_CHANGES_PER_REQUEST } from "./field-copy";

// Changes an agent makes offline, queued on the phone and sent in order when the connection returns
// (ADR 0031). Each carries a key the phone made (a UUID): the server applies a key once and answers a retry with the
// first answer. Each change's own fields are checked by the schema the same form online uses, so the messages match.

const key = z
  .string({ error: "Each change needs its key." })
  .regex(/^[A-Za-z0-9_-]{8,80}$/, "A change's key must be 8 to 80 letters, digits, - or _.");
const rowId = (what: string) =>
  z
    .string({ error: `Name the ${what}.` })
    .min(1, `Name the ${what}.`)
    .max(64, `That ${what} id is too long.`);
const note = z
  .string()
  .trim()
  .max(5_000, "Keep the note under 5,000 characters.")
  .nullish()
  .transform((v) => v || null);

export const QueuedChangeSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ key, type: z.literal("log_activity"), activity: ActivityInputSchema }),
    // The contact lets a note made with the completion be kept even when the task is gone on the server.
    z.object({ key, type: z.literal("complete_task"), taskId: rowId("task"), contactId: rowId("contact").nullish(), note }),
    z.object({ key, type: z.literal("add_task"), task: TaskInputSchema }),
    z.object({ key, type: z.literal("add_contact"), contact: ContactInputSchema }),
    // fromStage is the stage the phone's copy showed: if the deal has moved since, the server's stage stands. A move
    // into a closed stage carries the day it closed (the online move's field), asked on the phone: the change may reach
    // the server days later, so "today" there would be the wrong day.
    z.object({
      key,
      type: z.literal("move_deal"),
      dealId: rowId("deal"),
      fromStage: z.string().min(1).max(40),
      toStage: z.string().min(1).max(40),
      closedDate: DealMoveSchema.shape.closedDate.optional(),
      note,
    }),
  ],
  { error: "That is not a change the app can send." },
);
export type QueuedChange = z.input<typeof QueuedChangeSchema>;

export const QueuedChangesSchema = z.object(
  {
    changes: z
      .array(z.unknown(), { error: "Send the changes as a list." })
      .min(1, "Send at least one change.")
      .max(MAX_CHANGES_PER_REQUEST, `Send at most ${MAX_CHANGES_PER_REQUEST} changes at a time.`),
  },
  { error: "Send the changes as a list." },
);

/**
 * What happened to one change. applied: done (or done before: `replayed`); conflict: the server's data had moved on,
 * so its version stands and `message` says what happened (a note made with it is kept as an activity); rejected:
 * the change could not be made as sent (a bad field, a row that is not the agent's), and `message` says why.
 */
export interface QueuedChangeResult {
  key: string;
  status: "applied" | "conflict" | "rejected";
  message: string;
  /** The row the change made or touched. */
  id: string | null;
  /** True when this key had been applied before and this is the first answer again. */
  replayed?: boolean;
}
