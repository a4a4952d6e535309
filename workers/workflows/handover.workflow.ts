import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { applyTestClock } from "~/lib/clock";
import { durableStep, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { countHandover, finishHandover, HANDOVER_TABLES, moveHandoverPart, stopHandover, type HandoverParams } from "~/modules/team/handover.server";

const JOB = "handover";

/**
 * A removed member's handover (ADR 0039) as a durable job (ADR 0058): count the rows, then move each table's rows to
 * the teammate a part at a time (contacts first), each part one step within D1's limits and retried alone, then record
 * the result. When a part finds the job may not go on (the teammate left the team), it stops and records what moved
 * and what stayed with the former member.
 */
export class HandoverWorkflow extends WorkflowEntrypoint<Env, HandoverParams> {
  override async run(event: Readonly<WorkflowEvent<HandoverParams>>, step: WorkflowStep) {
    applyTestClock(this.env);
    const params = event.payload;
    try {
      await durableStep(step, this.env, JOB, "count the rows", (env) => countHandover(createDb(env.DB), params));
      let moved = 0;
      for (const table of HANDOVER_TABLES) {
        for (let part = 0; ; part++) {
          const result = await durableStep(step, this.env, JOB, `move ${table} part ${part}`, (env) =>
            moveHandoverPart(createDb(env.DB), params, table),
          );
          moved += result.moved;
          if (result.finished) break;
        }
      }
      const result = await durableStep(step, this.env, JOB, "record the result", (env) => finishHandover(createDb(env.DB), params));
      return { ok: true, moved, result };
    } catch (error) {
      const message = messageOf(error);
      const result = await durableStep(step, this.env, JOB, "record the stop", (env) => stopHandover(createDb(env.DB), params, message));
      return { ok: false, moved: 0, result };
    }
  }
}
