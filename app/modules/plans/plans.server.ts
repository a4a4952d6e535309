import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { actionPlans, crmTemplates, planRunEvents, planRuns, type ActionPlan, type PlanRun, type PlanRunEvent, type PlanStep } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { addDays } from "~/lib/dates";
import type { UserId } from "~/modules/auth/session.server";
import { nextSendingMoment, sendingHours } from "~/modules/intake/first-reply.server";
import { instantOf, localNow } from "~/modules/tasks/due";
import { addStarterTemplates } from "~/modules/templates/templates.server";
import { PLAN_MESSAGES, STARTER_PLANS, type PlanInput } from "./plan";
import { stopPlanRuns } from "./stop.server";

// Action plans (ADR 0072): the agent's plans, and starting, pausing, resuming and stopping a contact's run of one. The
// cron's runner (runner.server.ts) does each step when it is due.

export type Hours = { from: number; until: number; timezone: string };

/**
 * When a step `waitDays` after `from` is due: the same time of day on the agent's clock that many days later (so a
 * daylight-saving change moves no step), then into their sending hours (or when they next open).
 */
export function stepDueAt(from: Date, waitDays: number, hours: Hours): Date {
  if (waitDays === 0) return nextSendingMoment(from, hours);
  const local = localNow(hours.timezone, from);
  return nextSendingMoment(instantOf(addDays(local.date, waitDays), local.time, hours.timezone), hours);
}

/** The user's plans, by name. */
export function listPlans(db: Db, userId: UserId): Promise<ActionPlan[]> {
  return db.select().from(actionPlans).where(eq(actionPlans.userId, userId)).orderBy(asc(actionPlans.name));
}

/** One of the user's plans, or undefined (another user's plan too). */
export function getPlan(db: Db, userId: UserId, id: string): Promise<ActionPlan | undefined> {
  return db
    .select()
    .from(actionPlans)
    .where(and(eq(actionPlans.id, id), eq(actionPlans.userId, userId)))
    .get();
}

/** The step whose template is not one the user may use (their own or their team's), as its sentence; null when all are. */
async function templateProblem(db: Db, userId: UserId, steps: PlanStep[]): Promise<string | null> {
  const ids = [...new Set(steps.map((s) => s.templateId).filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return null;
  const usable = await db
    .select({ id: crmTemplates.id, kind: crmTemplates.kind })
    .from(crmTemplates)
    .where(
      and(
        inArray(crmTemplates.id, ids),
        sql`((${crmTemplates.userId} = ${userId} and ${crmTemplates.teamId} is null) or ${crmTemplates.teamId} in (select team_id from team_members where user_id = ${userId}))`,
      ),
    );
  const kinds = new Map(usable.map((t) => [t.id, t.kind]));
  const bad = steps.findIndex((s) => s.templateId && kinds.get(s.templateId) !== (s.kind === "text_task" ? "text" : "email"));
  return bad < 0 ? null : PLAN_MESSAGES.unknownTemplate(bad + 1);
}

/** Creates or (with `id`) saves one of the user's plans; the sentence of what is wrong otherwise. */
export async function savePlan(
  context: RequestContext,
  userId: UserId,
  input: PlanInput,
  id?: string,
): Promise<{ ok: true; id: string } | { ok: false; error: string }> {
  const problem = await templateProblem(context.db, userId, input.steps);
  if (problem) return { ok: false, error: problem };
  const values = { name: input.name, steps: input.steps, startSource: input.startSource, startStage: input.startStage, stopStages: input.stopStages };
  if (!id) {
    const created = newId();
    await context.db.insert(actionPlans).values({ id: created, userId, ...values });
    return { ok: true, id: created };
  }
  const saved = await context.db
    .update(actionPlans)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(actionPlans.id, id), eq(actionPlans.userId, userId)))
    .returning({ id: actionPlans.id });
  return saved.length === 1 ? { ok: true, id } : { ok: false, error: PLAN_MESSAGES.notFound };
}

/** Deletes one of the user's plans (its running copies stop where they are, their history kept); its name, or null. */
export async function deletePlan(context: RequestContext, userId: UserId, id: string): Promise<string | null> {
  const plan = await getPlan(context.db, userId, id);
  if (!plan) return null;
  const now = new Date();
  const live = await context.db
    .select({ contactId: planRuns.contactId, id: planRuns.id })
    .from(planRuns)
    .where(and(eq(planRuns.planId, id), eq(planRuns.userId, userId), inArray(planRuns.status, ["running", "paused"])));
  for (const run of live)
    if (run.contactId) await stopPlanRuns(context.db, userId, run.contactId, `The plan “${plan.name}” was deleted.`, now, { runId: run.id });
  await context.db.delete(actionPlans).where(and(eq(actionPlans.id, id), eq(actionPlans.userId, userId)));
  return plan.name;
}

/** Adds the starter plans the user does not have yet, with the starter templates they use; how many plans were added. */
export async function addStarterPlans(context: RequestContext, userId: UserId): Promise<number> {
  await addStarterTemplates(context, userId);
  const [templates, had] = await Promise.all([
    context.db
      .select({ id: crmTemplates.id, starter: crmTemplates.starter })
      .from(crmTemplates)
      .where(and(eq(crmTemplates.userId, userId), isNull(crmTemplates.teamId))),
    context.db.select({ starter: actionPlans.starter }).from(actionPlans).where(eq(actionPlans.userId, userId)),
  ]);
  const byKey = new Map(templates.map((t) => [t.starter, t.id]));
  const have = new Set(had.map((p) => p.starter));
  const missing = STARTER_PLANS.filter((p) => !have.has(p.key));
  if (missing.length === 0) return 0;
  await context.db.insert(actionPlans).values(
    missing.map((p) => ({
      id: newId(),
      userId,
      name: p.name,
      starter: p.key,
      startStage: p.startStage ?? null,
      stopStages: p.stopStages,
      steps: p.steps.map(({ template, ...step }) => ({ ...step, templateId: template ? (byKey.get(template) ?? null) : null })),
    })),
  );
  return missing.length;
}

/**
 * Starts the user's plan for one of their contacts (both checked in the insert itself): its first step is due after its
 * wait, in the agent's sending hours. Null when the plan or contact is not theirs, or the contact is already on it.
 */
export async function startPlanRun(db: Db, userId: UserId, contactId: string, planId: string, at = new Date()): Promise<string | null> {
  const [plan, hours] = await Promise.all([getPlan(db, userId, planId), sendingHours(db, userId)]);
  if (!plan || plan.steps.length === 0) return null;
  const id = newId();
  const due = stepDueAt(at, plan.steps[0]!.waitDays, hours);
  const inserted = await db.all<{ id: string }>(sql`
    insert into plan_runs (id, user_id, plan_id, plan_name, contact_id, steps, stop_stages, status, next_step, next_at, started_at, created_at, updated_at)
    select ${id}, ${userId}, p.id, p.name, c.id, p.steps, p.stop_stages, 'running', 0, ${due.getTime()}, ${at.getTime()}, ${at.getTime()}, ${at.getTime()}
    from action_plans p join contacts c on c.id = ${contactId} and c.user_id = ${userId}
    where p.id = ${planId} and p.user_id = ${userId}
    on conflict do nothing
    returning id`);
  if (inserted.length === 0) return null;
  await db.insert(planRunEvents).values({ id: newId(), runId: id, userId, kind: "started", detail: `Started “${plan.name}”`, at });
  return id;
}

/** Starts the user's plans that start on their own for a new lead from `source`; how many started. Never throws. */
export async function startPlansForLead(db: Db, userId: UserId, contactId: string, source: string, at = new Date()): Promise<number> {
  try {
    const plans = await db
      .select({ id: actionPlans.id })
      .from(actionPlans)
      .where(and(eq(actionPlans.userId, userId), sql`${actionPlans.startSource} = ${source}`));
    let started = 0;
    for (const plan of plans) if (await startPlanRun(db, userId, contactId, plan.id, at)) started++;
    return started;
  } catch (error) {
    console.error(JSON.stringify({ event: "plan_start_failed", message: String(error) }));
    return 0;
  }
}

/**
 * A deal of the contact's entered `stage`: their runs that stop there stop, and the plans that start there start.
 * Never throws: a stage move must not fail over a plan.
 */
export async function plansOnStage(
  db: Db,
  userId: UserId,
  contactId: string | null,
  stage: string,
  stageName: string,
  at = new Date(),
): Promise<void> {
  if (!contactId) return;
  try {
    await stopPlanRuns(db, userId, contactId, `The deal moved to ${stageName}.`, at, { stage });
    const plans = await db
      .select({ id: actionPlans.id })
      .from(actionPlans)
      .where(and(eq(actionPlans.userId, userId), eq(actionPlans.startStage, stage)));
    for (const plan of plans) await startPlanRun(db, userId, contactId, plan.id, at);
  } catch (error) {
    console.error(JSON.stringify({ event: "plan_stage_failed", message: String(error) }));
  }
}

/** Pauses a running run: what is left of its wait is kept. False when it is not the user's or not running. */
export async function pausePlanRun(db: Db, userId: UserId, runId: string, at = new Date()): Promise<boolean> {
  const paused = await db
    .update(planRuns)
    .set({ status: "paused", remainingMs: sql`max(0, ${planRuns.nextAt} - ${at.getTime()})`, nextAt: null, updatedAt: at })
    .where(and(eq(planRuns.id, runId), eq(planRuns.userId, userId), eq(planRuns.status, "running")))
    .returning({ id: planRuns.id });
  if (paused.length === 0) return false;
  await db.insert(planRunEvents).values({ id: newId(), runId, userId, kind: "paused", detail: "Paused", at });
  return true;
}

/** Resumes a paused run: its next step is due after the wait it had left (then into the sending hours). */
export async function resumePlanRun(db: Db, userId: UserId, runId: string, at = new Date()): Promise<boolean> {
  const run = await db
    .select({ remainingMs: planRuns.remainingMs })
    .from(planRuns)
    .where(and(eq(planRuns.id, runId), eq(planRuns.userId, userId), eq(planRuns.status, "paused")))
    .get();
  if (!run) return false;
  const due = nextSendingMoment(new Date(at.getTime() + (run.remainingMs ?? 0)), await sendingHours(db, userId));
  const resumed = await db
    .update(planRuns)
    .set({ status: "running", nextAt: due, remainingMs: null, updatedAt: at })
    .where(and(eq(planRuns.id, runId), eq(planRuns.userId, userId), eq(planRuns.status, "paused")))
    .returning({ id: planRuns.id });
  if (resumed.length === 0) return false;
  await db.insert(planRunEvents).values({ id: newId(), runId, userId, kind: "resumed", detail: "Resumed", at });
  return true;
}

/** The agent stops one of their runs. */
export async function stopPlanRun(db: Db, userId: UserId, runId: string, at = new Date()): Promise<boolean> {
  const run = await db
    .select({ contactId: planRuns.contactId })
    .from(planRuns)
    .where(and(eq(planRuns.id, runId), eq(planRuns.userId, userId)))
    .get();
  if (!run?.contactId) return false;
  return (await stopPlanRuns(db, userId, run.contactId, "Stopped by you.", at, { runId })) === 1;
}

export interface ContactPlanRun {
  run: Pick<PlanRun, "id" | "planId" | "planName" | "status" | "nextStep" | "nextAt" | "stopReason" | "startedAt" | "endedAt" | "steps">;
  events: Pick<PlanRunEvent, "id" | "kind" | "step" | "detail" | "at" | "emailId" | "taskId">[];
}

/** A contact's plan runs, newest first, each with its history (oldest first): the contact page's panel. */
export async function plansForContact(db: Db, userId: UserId, contactId: string): Promise<ContactPlanRun[]> {
  const runs = await db
    .select()
    .from(planRuns)
    .where(and(eq(planRuns.userId, userId), eq(planRuns.contactId, contactId)))
    .orderBy(desc(planRuns.startedAt))
    .limit(20);
  if (runs.length === 0) return [];
  const events = await db
    .select()
    .from(planRunEvents)
    .where(
      and(
        eq(planRunEvents.userId, userId),
        inArray(
          planRunEvents.runId,
          runs.map((r) => r.id),
        ),
      ),
    )
    // In time order, and in the order they were written within one moment (a start and its first step).
    .orderBy(asc(planRunEvents.at), sql`rowid`);
  return runs.map((run) => ({ run, events: events.filter((e) => e.runId === run.id) }));
}
