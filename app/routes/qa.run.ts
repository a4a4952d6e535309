import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { appOrigin } from "~/modules/auth/accounts.server";
import { requireQaAdmin } from "~/modules/qa/access.server";
import { runSystemChecks, type QaEvent } from "~/modules/qa/runner.server";

/**
 * POST /qa/run (issue 19): runs the QA Dashboard's checks and streams each result as a server-sent event
 * (start, result…, done). The run goes on to the end (and cleans up) even if the page goes away; its results
 * are in qa_results either way.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireQaAdmin(request, context);
  const dispatch = context.dispatch;
  if (!dispatch) return new Response("The QA runner needs the Worker's request handler.", { status: 503 });
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  const emit = async (event: QaEvent) => {
    if (!open) return;
    try {
      await writer.write(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
    } catch {
      open = false;
    }
  };
  const run = runSystemChecks({ env: context.cloudflare.env, db: context.db, userId: user.id, origin: appOrigin(context, request), dispatch, emit })
    .catch(async (error) => {
      console.error(JSON.stringify({ event: "qa_run_failed", message: String(error) }));
      await emit({ type: "done", runId: "", counts: { passed: 0, failed: 0, skipped: 0, criticalFailed: 0, total: 0 }, blocked: true });
    })
    .finally(() => writer.close().catch(() => undefined));
  context.cloudflare.ctx.waitUntil(run);
  return new Response(readable, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "private, no-store", "X-Accel-Buffering": "no" } });
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
