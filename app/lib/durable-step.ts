import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { limitD1, reportD1, type LimitedBindings } from "./d1-limits";

// One step of a durable job (ADR 0058). Cloudflare runs each `step.do` of a Workflow as its own invocation, with its own
// budget of D1 queries and subrequests, persists its result, and retries it alone when it fails; a job is therefore
// sized step by step, and the limits harness (ADR 0055) meters each step as one invocation.

/** A failure that retrying will not mend (a backup file that does not match its manifest): the job stops at once. */
export class JobFailure extends Error {
  override name = "JobFailure";
}

/** Retries for every step: three more tries, 10 s apart and doubling, each try up to 10 minutes. */
const STEP_CONFIG: WorkflowStepConfig = { retries: { limit: 3, delay: "10 seconds", backoff: "exponential" }, timeout: "10 minutes" };

/**
 * Runs `run` as the workflow step `name` with its own metered env: with D1_LIMITS on, the step's D1 queries are counted
 * as one invocation (`workflow <job>: <step>`), and a step past 1,000 queries, 100 parameters or 100 KB of SQL fails.
 * A JobFailure ends the job without retries; any other error is retried.
 */
export function durableStep<E extends LimitedBindings, T extends Rpc.Serializable<T>>(
  step: Pick<WorkflowStep, "do">,
  env: E,
  job: string,
  name: string,
  run: (env: E) => Promise<T>,
): Promise<T> {
  return step.do(name, STEP_CONFIG, async () => {
    const limited = limitD1(env, `workflow ${job}: ${name}`);
    try {
      return await run(limited);
    } catch (error) {
      if (error instanceof JobFailure) throw new NonRetryableError(error.message);
      throw error;
    } finally {
      reportD1(limited);
    }
  });
}

/** An error's message, for the job's row: a step's error reaches the workflow with its class name put in front. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/^(?:\w*Error: )+/, "").slice(0, 500);
