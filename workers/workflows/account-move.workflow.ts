import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { applyTestClock } from "~/lib/clock";
import { durableStep, JobFailure, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import {
  copyMovePart,
  deleteMovedPart,
  failMove,
  finishMove,
  moveProgress,
  planMove,
  switchMove,
  undoMovePart,
  MOVE_MAX_PARTS,
  type AccountMoveParams,
} from "~/modules/shards/account-move.server";

const JOB = "account-move";

/** The next part's number, or a failure past MOVE_MAX_PARTS (a phase that stopped making progress). */
function nextPart(part: number): number {
  if (part + 1 >= MOVE_MAX_PARTS) throw new JobFailure(`The move stopped making progress after ${MOVE_MAX_PARTS} parts.`);
  return part + 1;
}

/**
 * An account's move to its team's database (ADR 0060) as a durable job (ADR 0058): plan, copy a part at a time (each
 * part's chunks committed with the cursor, so a retried part resumes where it stopped), switch the directory and add
 * the membership, then delete the old rows a part at a time. Each step is one invocation within D1's limits. A failure
 * before the switch undoes the copy and gives the invitation back.
 */
export class AccountMoveWorkflow extends WorkflowEntrypoint<Env, AccountMoveParams> {
  override async run(event: Readonly<WorkflowEvent<AccountMoveParams>>, step: WorkflowStep) {
    applyTestClock(this.env);
    const params = event.payload;
    let switched = false;
    try {
      const plan = await durableStep(step, this.env, JOB, "plan the move", async (env) => {
        const planned = await planMove(env, params);
        await moveProgress(env, params.jobId, "Copying your rows", { done: 0, total: planned.total });
        return planned;
      });
      let copied = 0;
      for (let part = 0; ; part = nextPart(part)) {
        const result = await durableStep(step, this.env, JOB, `copy part ${part}`, async (env) => {
          const done = await copyMovePart(env, params, plan);
          const table = done.table ? `Copying ${done.table.replace(/_/g, " ")}` : "Copied";
          await moveProgress(env, params.jobId, table, { done: Math.min(plan.total, copied + done.copied) });
          return done;
        });
        copied += result.copied;
        if (result.done) break;
      }
      await durableStep(step, this.env, JOB, "switch the directory", async (env) => {
        await switchMove(env, params);
        await moveProgress(env, params.jobId, "Tidying up the old database");
      });
      switched = true;
      for (let part = 0; ; part = nextPart(part)) {
        if (await durableStep(step, this.env, JOB, `delete part ${part}`, (env) => deleteMovedPart(env, params))) break;
      }
      await durableStep(step, this.env, JOB, "finish", (env) => finishMove(env, params, copied));
      return { ok: true, rows: copied };
    } catch (error) {
      const message = messageOf(error);
      if (!switched) {
        for (let part = 0; ; part = nextPart(part)) {
          if (await durableStep(step, this.env, JOB, `undo part ${part}`, (env) => undoMovePart(env, params))) break;
        }
      }
      await durableStep(step, this.env, JOB, "record the failure", (env) => failMove(env, params, message));
      return { ok: false, rows: 0 };
    }
  }
}
