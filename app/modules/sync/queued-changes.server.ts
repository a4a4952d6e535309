import { DAY_MS } from "~/lib/dates";
import { eq, lt } from "drizzle-orm";
import { appliedChanges, crmTasks, deals } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import { logActivity } from "~/modules/activities/activities.server";
import type { UserId } from "~/modules/auth/session.server";
import { createLead } from "~/modules/contacts/contacts.server";

import { moveDeal } from "~/modules/deals/deals.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { stageByKey } from "~/modules/pipeline/stages";
import { completeTask, createTask, userNow } from "~/modules/tasks/tasks.server";
import { raiseLeadAlertLater } from "~/modules/push/lead-alerts.server";
import { changeRowId } from "./change-id";
import { answeredBefore, isUniqueViolation, remember } from "./submissions.server";
import { QueuedChangeSchema, type QueuedChangeResult } from "./queued-changes.schema";

// Applies changes an agent queued offline (ADR 0031), in the order sent. Exactly once, by construction (the
// same mechanism every online create uses, submissions.server.ts):
// - a key already answered gets its stored answer back;
// - a change that creates a row makes it under an id derived from the agent and the key, so a retry after the
//   change went in but before its answer was stored fails to insert it again and is answered "applied";
// - completing a task and moving a deal are compare-and-set: done already counts as done, and a deal that has
//   moved since the phone's copy keeps the server's stage.

/** Keys are kept this long: longer than a phone keeps a queue (the copy itself syncs in full after 30 days). */
const APPLIED_KEY_DAYS = 60;

/**
 * A note kept on a timeline: the agent's own words ("note", a logged activity), or Porchlight's record of a change it
 * could not make as sent ("sync_conflict", which no figure counts as the agent's work).
 */
async function keepNote(
  context: RequestContext,
  userId: UserId,
  link: { contactId?: string | null; dealId?: string | null },
  text: string,
  id: string,
  type: "note" | "sync_conflict" = "note",
): Promise<boolean> {
  const now = await userNow(context, userId);
  const saved = await logActivity(
    context,
    userId,
    { type: "note", contactId: link.contactId ?? null, dealId: link.dealId ?? null, date: now.date, time: now.time, outcome: null, notes: text },
    id,
    type,
  ).catch((error: unknown) => {
    if (isUniqueViolation(error)) return { ok: true as const };
    throw error;
  });
  return saved.ok;
}

async function applyOne(context: RequestContext, userId: UserId, raw: unknown): Promise<QueuedChangeResult & { store: boolean }> {
  const parsed = QueuedChangeSchema.safeParse(raw);
  const rawKey = typeof (raw as { key?: unknown })?.key === "string" ? String((raw as { key: string }).key).slice(0, 80) : "";
  if (!parsed.success) {
    const keyOk = !parsed.error.issues.some((i) => i.path[0] === "key");
    return {
      key: rawKey,
      status: "rejected",
      message: parsed.error.issues[0]?.message ?? "That change could not be read.",
      id: null,
      store: keyOk && rawKey !== "",
    };
  }
  const change = parsed.data;
  const id = await changeRowId(userId, change.key);
  const done = (status: QueuedChangeResult["status"], message: string, rowId: string | null) => ({
    key: change.key,
    status,
    message,
    id: rowId,
    store: true,
  });
  const created = async (make: () => Promise<{ ok: boolean; error?: string }>, message: string) => {
    try {
      const result = await make();
      return result.ok ? done("applied", message, id) : done("rejected", result.error ?? "That change could not be saved.", null);
    } catch (error) {
      // The same key went in before and its answer was not stored: it is done.
      if (isUniqueViolation(error)) return done("applied", message, id);
      throw error;
    }
  };

  switch (change.type) {
    case "log_activity":
      return created(() => logActivity(context, userId, change.activity, id), "Activity logged");
    case "add_task":
      return created(() => createTask(context, userId, change.task, id), "Task added");
    case "add_contact":
      return created(async () => {
        const contact = await createLead(context, userId, change.contact, id);
        // A lead added offline arrives now: the agent's other devices are told, and the dashboard times it.
        raiseLeadAlertLater(context, userId, contact);
        return { ok: true };
      }, "Contact added");
    case "complete_task": {
      const task = await context.db
        .select({ status: crmTasks.status, contactId: crmTasks.contactId, dealId: crmTasks.dealId })
        .from(crmTasks)
        .where(ownedBy(crmTasks, userId, eq(crmTasks.id, change.taskId)))
        .get();
      if (!task) {
        const kept = change.note && change.contactId ? await keepNote(context, userId, { contactId: change.contactId }, change.note, id) : false;
        return done(
          "conflict",
          `That task was deleted on another device, so it was not completed.${kept ? " Your note was saved on the contact's timeline." : ""}`,
          null,
        );
      }
      if (task.status === "completed") return done("applied", "Task was already done", change.taskId);
      const result = await completeTask(context, userId, change.taskId, change.note ? { log: { outcome: null, notes: change.note } } : {});
      return result.ok ? done("applied", "Task completed", change.taskId) : done("applied", "Task was already done", change.taskId);
    }
    case "move_deal": {
      const deal = await context.db
        .select({ stage: deals.stage })
        .from(deals)
        .where(ownedBy(deals, userId, eq(deals.id, change.dealId)))
        .get();
      if (!deal) return done("conflict", "That deal was deleted on another device, so it was not moved.", null);
      const stages = await getStages(context, userId);
      const to = stageByKey(stages, change.toStage);
      // Moved there on another device meanwhile: the move stands once, and the note the agent wrote with it is kept.
      if (deal.stage === change.toStage) {
        if (change.note) await keepNote(context, userId, { dealId: change.dealId }, change.note, id);
        return done("applied", `Already in ${to?.name ?? change.toStage}`, change.dealId);
      }
      if (deal.stage !== change.fromStage) {
        const now = stageByKey(stages, deal.stage)?.name ?? deal.stage;
        const wanted = to?.name ?? change.toStage;
        const text = `Moved offline to ${wanted}, but the deal had moved to ${now} on another device, which stands.${change.note ? ` Note: ${change.note}` : ""}`;
        // Porchlight's record of the move that lost, not an activity the agent logged (figures.ts LOGGED_TYPES).
        await keepNote(context, userId, { dealId: change.dealId }, text, id, "sync_conflict");
        return done(
          "conflict",
          `The deal had moved to ${now} on another device, so it stays there. Your move to ${wanted}${change.note ? " and your note are" : " is"} saved on the deal's timeline.`,
          change.dealId,
        );
      }
      // Taken out of the pipeline online since the phone's copy: nothing moves, but the agent's words are not lost.
      if (!to) {
        const kept = change.note ? await keepNote(context, userId, { dealId: change.dealId }, change.note, id) : false;
        return done("rejected", `That stage no longer exists.${kept ? " Your note is saved on the deal's timeline." : ""}`, null);
      }
      if (to.kind === "lost") return done("rejected", "A deal can be marked lost only online, where the reason is asked.", null);
      const moved = await moveDeal(context, userId, change.dealId, {
        stage: to.key,
        afterId: null,
        beforeId: null,
        lostReason: null,
        closedDate: change.closedDate ?? null,
      });
      if (!moved.ok) return done("rejected", moved.error, null);
      if (change.note) await keepNote(context, userId, { dealId: change.dealId }, change.note, id);
      return done("applied", `Moved to ${to.name}`, change.dealId);
    }
  }
}

/**
 * Applies the changes in order and answers each. A key answered before gets that answer again (replayed). Answers
 * are stored with the key; a change that cannot be read and has no usable key is answered but not stored.
 */
export async function applyQueuedChanges(
  context: RequestContext,
  userId: UserId,
  changes: readonly unknown[],
  now = Date.now(),
): Promise<QueuedChangeResult[]> {
  const results: QueuedChangeResult[] = [];
  for (const raw of changes) {
    const key = typeof (raw as { key?: unknown })?.key === "string" ? (raw as { key: string }).key : null;
    if (key) {
      const before = await answeredBefore<QueuedChangeResult>(context, userId, key);
      if (before) {
        results.push({ ...before, replayed: true });
        continue;
      }
    }
    const { store, ...result } = await applyOne(context, userId, raw);
    if (store) await remember(context, userId, result.key, result, now);
    results.push(result);
  }
  return results;
}

/** The cron's upkeep: keys older than APPLIED_KEY_DAYS go. */
export async function pruneAppliedChanges(context: Pick<RequestContext, "db">, now = Date.now()): Promise<number> {
  const removed = await context.db.delete(appliedChanges).where(lt(appliedChanges.appliedAt, now - APPLIED_KEY_DAYS * DAY_MS));
  return removed.meta.changes ?? 0;
}
