import { EventSourceParserStream } from "eventsource-parser/stream";
import type { ServerSentEvent } from "~/lib/sse.server";
import { draft, fitToLimit } from "./drafter";
import type { DraftEnvelope, EngineId } from "./draft-types";
import { fallbackText } from "./fallback";
import { buildPrompt } from "./prompt";

// The generation service: engines tried in order — the Workers AI binding, an AI Gateway /
// OpenAI-style endpoint, then the offline drafter — with a first-token timeout and a total deadline for
// the model engines. The answer streams to the browser as server-sent events and always says which engine
// wrote it. See docs/decisions/0017.

/** The default Workers AI model: an 8B instruct model. */
const DEFAULT_AI_MODEL = "@cf/meta/llama-3.1-8b-instruct";
const DEFAULT_GATEWAY_MODEL = "gpt-4o-mini";
/** A model engine that has not produced text by then is abandoned for the next one. */
const FIRST_TOKEN_MS = 10_000;
/** A model engine still writing after this is cut off (what it wrote is kept). */
const TOTAL_MS = 45_000;
const MAX_TOKENS = 900;

/** The slice of the Workers AI binding used here (typed loosely: the model is configurable). */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

export interface EngineSettings {
  ai?: AiBinding;
  model?: string;
  gatewayUrl?: string;
  gatewayKey?: string;
  gatewayModel?: string;
  firstTokenMs?: number;
  totalMs?: number;
  fetcher?: typeof fetch;
  /** The offline writer; the drafter unless a test stands in a failing one. */
  offline?: (envelope: DraftEnvelope) => string;
}

/** A model engine: given the prompt, an async stream of text pieces. */
interface ModelEngine {
  id: Exclude<EngineId, "offline" | "fallback">;
  open(prompt: { system: string; user: string }, signal: AbortSignal): Promise<AsyncIterable<string>>;
}

async function* sseText(body: ReadableStream<Uint8Array>, pick: (data: unknown) => string | undefined): AsyncIterable<string> {
  const events = body
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .pipeThrough(new EventSourceParserStream());
  for await (const event of events as unknown as AsyncIterable<{ data: string }>) {
    if (event.data === "[DONE]") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(event.data);
    } catch {
      continue;
    }
    const text = pick(parsed);
    if (text) yield text;
  }
}

type Json = Record<string, unknown>;
// Workers AI text models stream {"response": "..."}; OpenAI-compatible ones {"choices":[{"delta":{"content":"..."}}]}.
const pickText = (data: unknown): string | undefined => {
  const d = data as Json;
  if (typeof d?.response === "string") return d.response;
  const choice = (d?.choices as Json[] | undefined)?.[0];
  const content = (choice?.delta as Json | undefined)?.content ?? (choice?.message as Json | undefined)?.content;
  return typeof content === "string" ? content : undefined;
};

function workersAi(ai: AiBinding, model: string): ModelEngine {
  return {
    id: "workers-ai",
    async open(prompt) {
      const result = await ai.run(model, {
        messages: [
          { role: "system", content: prompt.system },
          { role: "user", content: prompt.user },
        ],
        stream: true,
        max_tokens: MAX_TOKENS,
      });
      if (result instanceof ReadableStream) return sseText(result, pickText);
      // A model or binding that ignores `stream` answers at once.
      const text = pickText(result);
      return (async function* () {
        if (text) yield text;
      })();
    },
  };
}

function gateway(url: string, key: string | undefined, model: string, fetcher: typeof fetch): ModelEngine {
  return {
    id: "gateway",
    async open(prompt, signal) {
      const response = await fetcher(`${url.replace(/\/+$/, "")}/chat/completions`, {
        method: "POST",
        signal,
        headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({
          model,
          stream: true,
          max_tokens: MAX_TOKENS,
          messages: [
            { role: "system", content: prompt.system },
            { role: "user", content: prompt.user },
          ],
        }),
      });
      if (!response.ok || !response.body) throw new Error(`gateway answered ${response.status}`);
      return sseText(response.body, pickText);
    },
  };
}

/** The model engines configured, in order. None locally: the offline drafter writes. */
function modelEngines(settings: EngineSettings): ModelEngine[] {
  const engines: ModelEngine[] = [];
  if (settings.ai) engines.push(workersAi(settings.ai, settings.model || DEFAULT_AI_MODEL));
  if (settings.gatewayUrl)
    engines.push(gateway(settings.gatewayUrl, settings.gatewayKey, settings.gatewayModel || DEFAULT_GATEWAY_MODEL, settings.fetcher ?? fetch));
  return engines;
}

/** What the browser receives, as server-sent events (the event name is the `type`). */
export type GenerationEvent =
  | { type: "context"; contact: { id: string; name: string; email: string | null } | null }
  | { type: "engine"; engine: EngineId; note: string | null }
  | { type: "text"; text: string }
  | { type: "final"; text: string }
  | { type: "error"; message: string }
  | { type: "done" };

class Timeout extends Error {}

function within<T>(promise: Promise<T>, ms: number, signal: AbortController): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        signal.abort();
        reject(new Timeout(`no answer within ${ms} ms`));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The finished text as it is kept: trimmed, and for listings cut to the MLS limit at a sentence or word. */
function finish(envelope: DraftEnvelope, text: string): string {
  const trimmed = text.trim();
  return envelope.task === "listing" ? fitToLimit(trimmed, envelope.mlsLimit) : trimmed;
}

const NOTE: Record<string, string> = {
  timeout: "did not answer in time",
  empty: "returned no text",
  error: "failed",
};

/**
 * Runs the engines in order and yields the events of one answer. A model engine that fails or stays silent
 * past the first-token timeout hands over to the next; once one has started writing, it keeps the answer
 * (cut off at the total deadline). The offline drafter always answers; the canned fallback is used only if
 * even it fails or writes nothing.
 */
export async function* generate(envelope: DraftEnvelope, settings: EngineSettings): AsyncGenerator<GenerationEvent> {
  const prompt = buildPrompt(envelope);
  const failures: string[] = [];
  // Whom the answer is about (the server may have picked the hot lead), so the page can save or mail it.
  const { contact } = envelope;
  yield { type: "context", contact: contact ? { id: contact.id, name: contact.name, email: contact.email } : null };
  for (const engine of modelEngines(settings)) {
    const abort = new AbortController();
    const deadline = Date.now() + (settings.totalMs ?? TOTAL_MS);
    let written = "";
    try {
      const pieces = (await within(engine.open(prompt, abort.signal), settings.firstTokenMs ?? FIRST_TOKEN_MS, abort))[Symbol.asyncIterator]();
      // Wait for the first non-blank text before committing to this engine.
      for (;;) {
        const next = await within(pieces.next(), settings.firstTokenMs ?? FIRST_TOKEN_MS, abort);
        if (next.done) break;
        written += next.value;
        if (written.trim()) break;
      }
      if (!written.trim()) {
        failures.push(`${engine.id} ${NOTE.empty}`);
        continue;
      }
      yield { type: "engine", engine: engine.id, note: failures.length ? `${failures.join("; ")}.` : null };
      yield { type: "text", text: written };
      let cut = false;
      try {
        for (;;) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Timeout("deadline");
          const next = await within(pieces.next(), left, abort);
          if (next.done) break;
          written += next.value;
          yield { type: "text", text: next.value };
        }
      } catch (error) {
        cut = true;
        console.error(JSON.stringify({ event: "ai_stream_cut", engine: engine.id, message: String(error) }));
        yield {
          type: "error",
          message:
            error instanceof Timeout
              ? "The model took too long and was stopped; what it wrote so far is below."
              : "The model stopped early; what it wrote so far is below.",
        };
      }
      if (!cut) void pieces.return?.();
      yield { type: "final", text: finish(envelope, written) };
      yield { type: "done" };
      return;
    } catch (error) {
      abort.abort();
      failures.push(`${engine.id} ${error instanceof Timeout ? NOTE.timeout : NOTE.error}`);
      console.error(JSON.stringify({ event: "ai_engine_failed", engine: engine.id, message: String(error) }));
    }
  }
  let text = "";
  let engine: EngineId = "offline";
  try {
    text = finish(envelope, (settings.offline ?? draft)(envelope));
  } catch (error) {
    console.error(JSON.stringify({ event: "ai_drafter_failed", task: envelope.task, message: String(error) }));
  }
  if (!text) {
    engine = "fallback";
    text = finish(envelope, fallbackText(envelope));
  }
  yield { type: "engine", engine, note: failures.length ? `${failures.join("; ")}.` : null };
  yield { type: "text", text };
  yield { type: "final", text };
  yield { type: "done" };
}

/** The events as server-sent events: the type names each event, the rest is its data. */
export async function* asServerSentEvents(events: AsyncGenerator<GenerationEvent>): AsyncGenerator<ServerSentEvent> {
  for await (const { type, ...data } of events) yield { event: type, data };
}
