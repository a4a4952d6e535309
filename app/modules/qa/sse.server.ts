import type { RequestContext } from "~/lib/context.server";

/**
 * A server-sent-events response fed by `run` (the QA suites' runs): each emitted event is written as
 * `event: <type>` with its JSON. The run is kept alive with waitUntil and goes on to its end (and its
 * cleanup) if the page goes away; writes to a closed stream are dropped.
 */
export function eventStream<E extends { type: string }>(context: RequestContext, run: (emit: (event: E) => Promise<void>) => Promise<unknown>, onError: (emit: (event: E) => Promise<void>) => Promise<void>): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  const emit = async (event: E) => {
    if (!open) return;
    try {
      await writer.write(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
    } catch {
      open = false;
    }
  };
  const done = run(emit)
    .catch(async (error) => {
      console.error(JSON.stringify({ event: "qa_run_failed", message: String(error) }));
      await onError(emit);
    })
    .finally(() => writer.close().catch(() => undefined));
  context.cloudflare.ctx.waitUntil(done);
  return new Response(readable, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "private, no-store", "X-Accel-Buffering": "no" } });
}

export function postOnly() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
