import { describe, expect, it } from "vitest";
import { emitted, eventStreamResponse, type ServerSentEvent } from "~/lib/sse.server";

// The one server-sent-events writer (app/lib/sse.server.ts), used by POST /api/ai/generate and the QA runs.

describe("eventStreamResponse", () => {
  it("writes each event as `event:` and JSON `data:`, in order, with the stream's headers", async () => {
    async function* source(): AsyncGenerator<ServerSentEvent> {
      yield { event: "text", data: { text: "Hello\nthere" } };
      yield { event: "done", data: {} };
    }
    for (const response of [eventStreamResponse(source()), eventStreamResponse(source(), { keepRunning: () => undefined })]) {
      expect(response.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      expect(response.headers.get("X-Accel-Buffering")).toBe("no");
      expect(await response.text()).toBe('event: text\ndata: {"text":"Hello\\nthere"}\n\nevent: done\ndata: {}\n\n');
    }
  });

  it("ends the source when the client goes away, so its cleanup runs", async () => {
    let cleaned = false;
    let produced = 0;
    async function* source(): AsyncGenerator<ServerSentEvent> {
      try {
        for (;;) yield { event: "tick", data: ++produced };
      } finally {
        cleaned = true;
      }
    }
    const reader = eventStreamResponse(source()).body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(cleaned).toBe(true);
    expect(produced).toBeLessThan(5);
  });

  it("with keepRunning, reads the source to its end after the client went away", async () => {
    let finished: Promise<unknown> = Promise.resolve();
    const seen: number[] = [];
    async function* source(): AsyncGenerator<ServerSentEvent> {
      for (let i = 1; i <= 5; i++) {
        seen.push(i);
        yield { event: "result", data: i };
      }
    }
    const reader = eventStreamResponse(source(), { keepRunning: (done) => (finished = done) }).body!.getReader();
    await reader.read();
    await reader.cancel();
    await finished;
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("emitted", () => {
  it("gives what the callback emits in order, and throws what it throws after", async () => {
    const got: string[] = [];
    const events = emitted<string>(async (emit) => {
      await emit("start");
      await Promise.resolve();
      await emit("result");
      throw new Error("stopped");
    });
    await expect(
      (async () => {
        for await (const event of events) got.push(event);
      })(),
    ).rejects.toThrow("stopped");
    expect(got).toEqual(["start", "result"]);
  });
});
