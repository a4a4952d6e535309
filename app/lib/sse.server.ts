/** One server-sent event: its name (`event:`) and its data, written as JSON (`data:`). */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

const HEADERS = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "private, no-store", "X-Accel-Buffering": "no" };

/**
 * The one way the app answers with server-sent events: a text/event-stream Response that writes each event of
 * `source` as `event: <name>\ndata: <JSON>\n\n`, in order, and ends when the source does.
 * By default the source is read as the client reads it, and a client that goes away ends it (its return() runs,
 * so a generator's finally blocks do). With `keepRunning` (the request's waitUntil) the source is read to its end
 * whatever the client does, for work that must finish and clean up; what comes after the client left is dropped.
 */
export function eventStreamResponse(
  source: AsyncIterable<ServerSentEvent>,
  options: { keepRunning?: (done: Promise<unknown>) => void } = {},
): Response {
  const encoder = new TextEncoder();
  const encode = ({ event, data }: ServerSentEvent) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  if (options.keepRunning) {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    let open = true;
    const done = (async () => {
      try {
        for await (const message of source) {
          if (!open) continue;
          try {
            await writer.write(encode(message));
          } catch {
            open = false;
          }
        }
      } finally {
        await writer.close().catch(() => undefined);
      }
    })();
    options.keepRunning(done);
    return new Response(readable, { headers: HEADERS });
  }
  const iterator = source[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, { headers: HEADERS });
}

/**
 * What `produce` emits, as an async source for eventStreamResponse, in the order emitted; it ends when `produce`
 * settles (and throws what it throws). For work written with a callback (emit) rather than as a generator.
 */
export async function* emitted<E>(produce: (emit: (event: E) => Promise<void>) => Promise<unknown>): AsyncGenerator<E> {
  const queue: E[] = [];
  let wake = () => {};
  let finished = false;
  const done = produce(async (event) => {
    queue.push(event);
    wake();
  }).finally(() => {
    finished = true;
    wake();
  });
  for (;;) {
    const next = queue.shift();
    if (next !== undefined) yield next;
    else if (finished) break;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
  await done;
}
