import type { RequestContext } from "~/lib/context.server";
import { emitted, eventStreamResponse } from "~/lib/sse.server";

/**
 * A server-sent-events response fed by `run` (the QA suites' runs): each emitted event is written as
 * `event: <type>` with its JSON. The run is kept alive with waitUntil and goes on to its end (and its
 * cleanup) if the page goes away; writes to a closed stream are dropped.
 */
export function eventStream<E extends { type: string }>(
  context: RequestContext,
  run: (emit: (event: E) => Promise<void>) => Promise<unknown>,
  onError: (emit: (event: E) => Promise<void>) => Promise<void>,
): Response {
  const events = emitted<E>(async (emit) => {
    try {
      await run(emit);
    } catch (error) {
      console.error(JSON.stringify({ event: "qa_run_failed", message: String(error) }));
      await onError(emit);
    }
  });
  return eventStreamResponse(asServerSentEvents(events), { keepRunning: (done) => context.cloudflare.ctx.waitUntil(done) });
}

async function* asServerSentEvents<E extends { type: string }>(events: AsyncIterable<E>) {
  for await (const event of events) yield { event: event.type, data: event };
}

export function postOnly() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
