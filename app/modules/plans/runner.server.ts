import { and, asc, eq, lte } from "drizzle-orm";
import { contacts, crmTasks, planRunEvents, planRuns, type PlanRun, type PlanStep } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { liveSubscription } from "~/modules/billing/plan-change.server";
import { contactRepliedAt } from "~/modules/conversations/replies.server";
import { sendContactEmail } from "~/modules/conversations/send.server";
import { sendingHours } from "~/modules/intake/first-reply.server";
import { rememberedAppOrigin } from "~/modules/ops/app-origin.server";
import { localNow } from "~/modules/tasks/due";
import { fillFields } from "~/modules/templates/merge";
import { mergeValuesFor, templateForUse } from "~/modules/templates/templates.server";
import { stepDueAt } from "./plans.server";
import { REPLIED_STOP_REASON, stopPlanRuns } from "./stop.server";

// The action plans' runner (ADR 0072): each five-minute cron pass (once per database) takes the runs whose next step is
// due, claims the step by moving the run on in one statement (a retried pass finds it claimed and does nothing: a step
// never runs twice), then does it: sends the e-mail, or makes the task. A reply, an unsubscribe or a bounce stops the run.

/** Runs a pass takes: far inside one invocation's queries and subrequests (a step costs a dozen queries at most). */
const DUE_PER_RUN = 25;

export interface PassResult {
  steps: number;
  emails: number;
  tasks: number;
  stopped: number;
}

/** One pass over the due steps of this database's runs. */
export async function runDuePlanSteps(context: RequestContext, now = new Date()): Promise<PassResult> {
  const result: PassResult = { steps: 0, emails: 0, tasks: 0, stopped: 0 };
  const due = await context.db
    .select()
    .from(planRuns)
    .where(and(eq(planRuns.status, "running"), lte(planRuns.nextAt, now)))
    .orderBy(asc(planRuns.nextAt))
    .limit(DUE_PER_RUN);
  for (const run of due) {
    try {
      const done = await runStep(context, run, now);
      if (done === "email") result.emails++;
      if (done === "task") result.tasks++;
      if (done === "stopped") result.stopped++;
      if (done !== "claimed elsewhere") result.steps++;
    } catch (error) {
      console.error(JSON.stringify({ event: "plan_step_failed", run: run.id, step: run.nextStep, message: String(error) }));
    }
  }
  return result;
}

type StepOutcome = "email" | "task" | "stopped" | "skipped" | "claimed elsewhere";

async function runStep(context: RequestContext, run: PlanRun, now: Date): Promise<StepOutcome> {
  const { db } = context;
  const userId = run.userId as Parameters<typeof sendContactEmail>[1];
  const index = run.nextStep;
  const step = run.steps[index];
  if (!run.contactId || !step) {
    await stopPlanRuns(db, run.userId, run.contactId ?? "", "The contact is gone.", now, { runId: run.id });
    return "stopped";
  }
  // Before anything: a reply since the plan started stops it (the agent takes the conversation from here).
  const replied = await contactRepliedAt(db, run.userId, run.contactId, run.startedAt);
  if (replied) {
    await stopPlanRuns(db, run.userId, run.contactId, REPLIED_STOP_REASON, now, { runId: run.id });
    return "stopped";
  }
  if (!(await liveSubscription(context, userId))) {
    await stopPlanRuns(db, run.userId, run.contactId, "Your subscription ended.", now, { runId: run.id });
    return "stopped";
  }
  // The claim: this step is this pass's, and the run moves on to the next (due after its wait, from this step's due time).
  const hours = await sendingHours(db, run.userId);
  const next = run.steps[index + 1];
  const nextAt = next ? stepDueAt(run.nextAt ?? now, next.waitDays, hours) : null;
  const claimed = await db
    .update(planRuns)
    .set({ nextStep: index + 1, nextAt, updatedAt: now })
    .where(and(eq(planRuns.id, run.id), eq(planRuns.status, "running"), eq(planRuns.nextStep, index)))
    .returning({ id: planRuns.id });
  if (claimed.length === 0) return "claimed elsewhere";
  const outcome = await doStep(context, run, step, index, now, hours.timezone);
  // The last step done (and the run not stopped by it): finished.
  if (!next && outcome !== "stopped") {
    const finished = await db
      .update(planRuns)
      .set({ status: "finished", endedAt: now, updatedAt: now })
      .where(and(eq(planRuns.id, run.id), eq(planRuns.status, "running")))
      .returning({ id: planRuns.id });
    if (finished.length > 0)
      await db.insert(planRunEvents).values({ id: newId(), runId: run.id, userId: run.userId, kind: "finished", detail: "Every step done", at: now });
  }
  return outcome;
}

async function doStep(context: RequestContext, run: PlanRun, step: PlanStep, index: number, now: Date, timezone: string): Promise<StepOutcome> {
  const { db } = context;
  const userId = run.userId as Parameters<typeof sendContactEmail>[1];
  const contactId = run.contactId!;
  const event = (kind: "email_sent" | "task_created" | "skipped", detail: string, ids: { emailId?: string; taskId?: string } = {}) =>
    db
      .insert(planRunEvents)
      .values({ id: newId(), runId: run.id, userId: run.userId, kind, step: index, detail, at: now, ...ids })
      .onConflictDoNothing();
  const template = step.templateId ? await templateForUse(db, userId, step.templateId) : null;
  const values = await mergeValuesFor(context, userId, contactId);
  if (!values) {
    await stopPlanRuns(db, run.userId, contactId, "The contact is gone.", now, { runId: run.id });
    return "stopped";
  }
  const contact = await db.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, contactId)).get();
  const name = contact?.name ?? "the contact";
  const filled = template ? { subject: fillFields(template.subject ?? "", values), body: fillFields(template.body, values) } : null;
  const task = async (type: "call" | "email" | "follow_up", title: string, notes: string | null, why: string) => {
    const local = localNow(timezone, now);
    const taskId = newId();
    await db.insert(crmTasks).values({
      id: taskId,
      userId: run.userId,
      contactId,
      title: title.slice(0, 200),
      notes,
      type,
      priority: "high",
      dueDate: local.date,
      dueTime: local.time,
    });
    await event("task_created", why, { taskId });
    return "task" as const;
  };

  if ((step.kind === "email" || step.kind === "review_email") && !filled) {
    await event("skipped", `Step ${index + 1}: its template is gone.`);
    return "skipped";
  }
  if (step.kind === "email") {
    const origin = context.config.PUBLIC_URL ?? (await rememberedAppOrigin(context.cloudflare.env.KV));
    const sent = await sendContactEmail(
      context,
      userId,
      contactId,
      { subject: filled!.subject, body: filled!.body, templateId: template!.id, reviewed: false },
      { marketing: true, origin, now, planRunId: run.id, planName: run.planName },
    );
    if (sent.ok) {
      await event("email_sent", `Sent “${template!.name}” ${sent.via === "gmail" ? `from ${sent.from}` : "via Porchlight"}`, {
        emailId: sent.emailId,
      });
      return "email";
    }
    if (sent.final) {
      await stopPlanRuns(db, run.userId, contactId, sent.error, now, { runId: run.id });
      return "stopped";
    }
    // Anything the agent can fix (a field to fill, a phrase to review, a postal address, Gmail to reconnect): theirs to send.
    return task(
      "email",
      `Review and send “${template!.name}” to ${name}`,
      `Not sent automatically: ${sent.error}\n\nSubject: ${filled!.subject}\n\n${filled!.body}`,
      `Not sent automatically (${sent.error}): a task to review and send it instead`,
    );
  }
  if (step.kind === "review_email")
    return task(
      "email",
      `Send “${template!.name}” to ${name}`,
      `Subject: ${filled!.subject}\n\n${filled!.body}`,
      `A task to review and send “${template!.name}”`,
    );
  if (step.kind === "call_task")
    return task("call", `Call ${name}: ${step.title ?? "follow up"}`, null, `A task to call: ${step.title ?? "follow up"}`);
  const text = filled?.body ?? null;
  return task(
    "follow_up",
    `Text ${name}: ${step.title ?? template?.name ?? "follow up"}`,
    text,
    `A task to text from your phone${template ? `: “${template.name}”` : ""}`,
  );
}
