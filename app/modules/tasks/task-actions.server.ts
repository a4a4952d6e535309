import { data } from "@remix-run/cloudflare";
import { SYSTEM_WHERE, type AuditWhere } from "~/modules/audit/audit.server";
import * as z from "zod";
import { ACTIVITY_TYPES, SYSTEM_ACTIVITY_TYPES } from "~/db/enums";
import type { RequestContext } from "~/lib/context.server";
import { fieldErrors, optionalText } from "~/lib/schema-fields";
import type { UserId } from "~/modules/auth/session.server";
import { parseQuickAdd } from "./quick-add";
import { TASK_MESSAGES, TaskInputSchema, type TaskActionResult } from "./task.schema";
import { contactMatchesFor } from "./contact-match.server";
import { completeTask, createTask, deleteTask, getTask, reopenTask, restoreTask, setTaskContact, updateTask, userNow } from "./tasks.server";
import { SUBMISSION_KEY_FIELD } from "~/modules/sync/submission-key";
import { once, readSubmissionKey } from "~/modules/sync/submissions.server";

// The task actions every page posts to /tasks, one function per intent (the route dispatches them, ADR 0053): create,
// quick add, edit, link a contact, complete (optionally logging the activity), reopen (undo of complete), delete and
// restore (undo of delete). One answer shape for fetchers: ActionResult with the task's id, message and undo.

const id = z.string().min(1).max(64);
const CompleteSchema = z.object({
  id,
  log: z.preprocess((v) => v === "1" || v === "on" || v === "true", z.boolean()),
  activityType: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .enum(ACTIVITY_TYPES)
      .exclude([...SYSTEM_ACTIVITY_TYPES])
      .optional(),
  ),
  outcome: optionalText(200, "Outcome"),
  notes: optionalText(5_000, "Notes"),
});
const LinkContactSchema = z.object({ id, contactId: optionalText(64, "Contact") });
const ReopenSchema = z.object({ id, nextTaskId: optionalText(64, "Next task"), activityId: optionalText(64, "Activity") });
type Result = ReturnType<typeof data<TaskActionResult>>;
const refuse = (intent: string, error: string, status = 400, errors: Record<string, string> = {}): Result =>
  data<TaskActionResult>({ ok: false, intent, error, fieldErrors: errors }, { status });

/** The task form's fields, or the refusal that names the first one to fix. */
function readTaskForm(intent: string, values: Record<string, FormDataEntryValue>) {
  const parsed = TaskInputSchema.safeParse(values);
  if (parsed.success) return { ok: true as const, data: parsed.data };
  const errors = fieldErrors(parsed.error);
  return { ok: false as const, refusal: refuse(intent, Object.values(errors)[0] ?? TASK_MESSAGES.saveFailed, 400, errors) };
}

/** The answer a create gives, from its task: what a retry of the same submission is answered with (ADR 0051). */
async function createdAnswer(context: RequestContext, userId: UserId, intent: string, id: string): Promise<TaskActionResult | null> {
  const task = await getTask(context, userId, id);
  if (!task) return null;
  return {
    ok: true,
    intent,
    message: TASK_MESSAGES.created,
    taskId: task.id,
    ...(intent === "quick-add" ? { due: { dueDate: task.dueDate, dueTime: task.dueTime } } : {}),
  };
}

/**
 * One task intent: its form, read with the submission key every task form may carry. Creates use the key so a retry
 * of the same one is answered with the first result, never a second task; a key that is not one is refused first.
 */
function taskIntent(
  intent: string,
  run: (
    context: RequestContext,
    userId: UserId,
    values: Record<string, FormDataEntryValue>,
    key: string | null,
    intent: string,
    where: AuditWhere,
  ) => Promise<Result>,
) {
  return async (context: RequestContext, userId: UserId, form: FormData, where: AuditWhere = SYSTEM_WHERE): Promise<Result> => {
    const submission = readSubmissionKey(form.get(SUBMISSION_KEY_FIELD));
    if ("error" in submission) return refuse(intent, submission.error);
    return run(context, userId, Object.fromEntries(form), submission.key, intent, where);
  };
}

/** Runs a create once per submission key; a retry of the same one is answered from the task the first made (ADR 0051). */
async function createOnce(
  context: RequestContext,
  userId: UserId,
  key: string | null,
  intent: string,
  make: (id: string) => Promise<TaskActionResult & { status?: number }>,
): Promise<Result> {
  const created = await once<TaskActionResult & { status?: number }>(context, userId, "task", key, make, (id) =>
    createdAnswer(context, userId, intent, id),
  );
  return created.ok ? data<TaskActionResult>(created) : refuse(intent, created.error, created.status ?? 400, created.fieldErrors);
}

/** A new task from the task form, once per submission key. */
export const createTaskFromForm = taskIntent("create", async (context, userId, values, key, intent) => {
  const parsed = readTaskForm(intent, values);
  if (!parsed.ok) return parsed.refusal;
  return createOnce(context, userId, key, intent, async (id) => {
    const result = await createTask(context, userId, parsed.data, id);
    return result.ok
      ? { ok: true, intent, message: TASK_MESSAGES.created, taskId: result.task.id }
      : { ok: false, intent, error: result.error, fieldErrors: result.fieldErrors, status: result.status };
  });
});

/** An edit of the user's task from the task form. */
export const updateTaskFromForm = taskIntent("update", async (context, userId, values, _key, intent) => {
  const parsed = readTaskForm(intent, values);
  if (!parsed.ok) return parsed.refusal;
  const result = await updateTask(context, userId, String(values.id ?? ""), parsed.data);
  if (!result.ok) return refuse(intent, result.error, result.status, result.fieldErrors);
  return data<TaskActionResult>({ ok: true, intent, message: TASK_MESSAGES.updated, taskId: result.task.id });
});

/** Quick add: a task from one line of text ("call Ann tomorrow 3pm"), once per submission key. */
export const quickAddTask = taskIntent("quick-add", async (context, userId, values, key, intent) => {
  const parsed = parseQuickAdd(String(values.text ?? ""), await userNow(context, userId));
  if (!parsed) return refuse(intent, TASK_MESSAGES.quickAddEmpty, 400, { text: TASK_MESSAGES.quickAddEmpty });
  const input = TaskInputSchema.safeParse({
    ...parsed,
    priority: "medium",
    repeat: "",
    contactId: values.contactId ?? "",
    dealId: values.dealId ?? "",
  });
  if (!input.success)
    return refuse(intent, input.error.issues[0]?.message ?? TASK_MESSAGES.saveFailed, 400, { text: input.error.issues[0]?.message ?? "" });
  return createOnce(context, userId, key, intent, async (id) => {
    // Added from a contact's or deal's page, the task already has its link; elsewhere, a contact it names.
    const contactLink = input.data.contactId || input.data.dealId ? undefined : await contactMatchesFor(context, userId, input.data.title);
    const result = await createTask(context, userId, { ...input.data, contactId: contactLink?.linked?.id ?? input.data.contactId }, id);
    if (!result.ok) return { ok: false, intent, error: result.error, fieldErrors: result.fieldErrors, status: result.status };
    const { dueDate, dueTime } = result.task;
    return { ok: true, intent, message: TASK_MESSAGES.created, taskId: result.task.id, due: { dueDate, dueTime }, contactLink };
  });
});

/** Links the task to a contact, or unlinks it. */
export const linkTaskContact = taskIntent("link-contact", async (context, userId, values, _key, intent) => {
  const parsed = LinkContactSchema.safeParse(values);
  if (!parsed.success) return refuse(intent, TASK_MESSAGES.notFound, 404);
  const result = await setTaskContact(context, userId, parsed.data.id, parsed.data.contactId);
  if (!result.ok) return refuse(intent, result.error, result.status);
  return data<TaskActionResult>({
    ok: true,
    intent,
    message: result.contactName ? `Linked to ${result.contactName}` : TASK_MESSAGES.unlinked,
    taskId: result.task.id,
  });
});

/** Completes the task, optionally logging the activity; the answer carries its undo (reopen). */
export const completeTaskFromForm = taskIntent("complete", async (context, userId, values, _key, intent) => {
  const parsed = CompleteSchema.safeParse(values);
  if (!parsed.success) return refuse(intent, parsed.error.issues[0]?.message ?? TASK_MESSAGES.notFound);
  const { log, activityType, outcome, notes } = parsed.data;
  const result = await completeTask(context, userId, parsed.data.id, { log: log ? { type: activityType, outcome, notes } : null });
  if (!result.ok) return refuse(intent, result.error, result.status);
  return data<TaskActionResult>({
    ok: true,
    intent,
    message: TASK_MESSAGES.completed,
    taskId: result.task.id,
    nextTaskId: result.nextTaskId,
    activityId: result.activityId,
    undo: { intent: "reopen", id: result.task.id, nextTaskId: result.nextTaskId ?? "", activityId: result.activityId ?? "" },
  });
});

/** Reopens a completed task: the undo of complete. */
export const reopenTaskFromForm = taskIntent("reopen", async (context, userId, values, _key, intent) => {
  const parsed = ReopenSchema.safeParse(values);
  if (!parsed.success) return refuse(intent, TASK_MESSAGES.notFound);
  const result = await reopenTask(context, userId, parsed.data.id, parsed.data);
  if (!result.ok) return refuse(intent, result.error, result.status);
  return data<TaskActionResult>({ ok: true, intent, message: TASK_MESSAGES.reopened, taskId: result.task.id });
});

/** Moves the task to the trash; the answer carries its undo (restore). */
export const deleteTaskFromForm = taskIntent("delete", async (context, userId, values, _key, intent, where) => {
  const taskId = String(values.id ?? "");
  const trashId = await deleteTask(context, userId, taskId, where);
  if (!trashId) return refuse(intent, TASK_MESSAGES.notFound, 404);
  // The task is in the trash (ADR 0028): the undo sends back only the trash id.
  return data<TaskActionResult>({ ok: true, intent, message: TASK_MESSAGES.deleted, taskId, undo: { intent: "restore", trashId } });
});

/** Restores a deleted task from the trash: the undo of delete. */
export const restoreTaskFromForm = taskIntent("restore", async (context, userId, values, _key, intent, where) => {
  const parsed = id.safeParse(values.trashId);
  if (!parsed.success) return refuse(intent, TASK_MESSAGES.notFound, 404);
  const result = await restoreTask(context, userId, parsed.data, where);
  if (!result.ok) return refuse(intent, result.error, result.status);
  return data<TaskActionResult>({ ok: true, intent, message: TASK_MESSAGES.restored, taskId: result.task.id });
});
