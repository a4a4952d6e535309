import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { appOrigin } from "~/lib/context.server";
import { requireQaAdmin } from "~/modules/qa/access.server";
import { runSystemChecks, type QaEvent } from "~/modules/qa/runner.server";
import { eventStream, postOnly } from "~/modules/qa/sse.server";

/**
 * POST /qa/run: runs the QA Dashboard's checks and streams each result as a server-sent event
 * (start, result…, done). Its results are in qa_results either way.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireQaAdmin(request, context);
  const dispatch = context.dispatch;
  if (!dispatch) return new Response("The QA runner needs the Worker's request handler.", { status: 503 });
  return eventStream<QaEvent>(
    context,
    (emit) => runSystemChecks({ env: context.cloudflare.env, db: context.db, userId: user.id, origin: appOrigin(context, request), dispatch, emit }),
    (emit) =>
      emit({
        type: "done",
        runId: "",
        counts: { passed: 0, failed: 0, skipped: 0, criticalFailed: 0, criticalSkipped: 0, total: 0 },
        blocked: true,
        verdict: "blocked",
        headline: "The run stopped with an error: nothing was verified",
      }),
  );
}

export const loader = postOnly;
