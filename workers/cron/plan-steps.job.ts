import type { Db } from "~/db/client.server";
import { createRequestContext } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { runDuePlanSteps } from "~/modules/plans/runner.server";

/** A scheduled event has no request's context: nothing here is left to run after the job returns. */
const noWaiting = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext;

/**
 * Action plans' due steps (ADR 0072), after the replies are read (a reply stops a plan before its next step): each
 * claimed once, then its e-mail sent or its task made.
 */
export async function planStepsJob(_db: Db, controller: ScheduledController, env: Env): Promise<string> {
  const pass = await runDuePlanSteps(createRequestContext(env, noWaiting, ""), new Date(controller.scheduledTime));
  return `${count(pass.steps, "step")} done: ${count(pass.emails, "e-mail")} sent, ${count(pass.tasks, "task")} made, ${count(pass.stopped, "plan")} stopped`;
}
