import { EventSourceParserStream } from "eventsource-parser/stream";
import { useCallback, useEffect, useRef, useState } from "react";
import type { DraftTask, DraftTone, EngineId, ListingFacts } from "./draft-types";

const GENERATE_URL = "/api/ai/generate";

/** What the page asks the coach for (the server builds the facts from the user's own data). */
export interface GenerationRequest {
  task: DraftTask;
  tone: DraftTone;
  userInput: string;
  contactId?: string;
  location?: string;
  mlsLimit?: number | null;
  listing?: ListingFacts;
  variant: number;
}

/** The contact an answer is about, as the server chose it. */
interface DraftContactRef {
  id: string;
  name: string;
  email: string | null;
}

export interface GenerationState {
  status: "idle" | "running" | "done" | "failed";
  text: string;
  engine: EngineId | null;
  /** Why an earlier engine was skipped, e.g. "workers-ai did not answer in time." */
  note: string | null;
  error: string | null;
  /** The request that produced `text` (for Regenerate and Save). */
  request: GenerationRequest | null;
  contact: DraftContactRef | null;
}

const IDLE: GenerationState = { status: "idle", text: "", engine: null, note: null, error: null, request: null, contact: null };

/**
 * Runs a generation against POST /api/ai/generate and follows its server-sent events: the engine, text as
 * it streams, the finished text, an error. A new run or leaving the page aborts the one in flight.
 */
export function useGeneration() {
  const [state, setState] = useState<GenerationState>(IDLE);
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);

  const run = useCallback(async (request: GenerationRequest) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setState({ ...IDLE, status: "running", request });
    try {
      const response = await fetch(GENERATE_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        setState({ ...IDLE, status: "failed", request, error: body?.error ?? "The coach could not answer. Please try again." });
        return;
      }
      const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
      const reader = events.getReader();
      for (;;) {
        const { value: event, done } = await reader.read();
        if (done) break;
        const data = JSON.parse(event.data) as {
          engine?: EngineId;
          note?: string | null;
          text?: string;
          message?: string;
          contact?: DraftContactRef | null;
        };
        if (event.event === "context") setState((s) => ({ ...s, contact: data.contact ?? null }));
        else if (event.event === "engine") setState((s) => ({ ...s, engine: data.engine ?? null, note: data.note ?? null }));
        else if (event.event === "text") setState((s) => ({ ...s, text: s.text + (data.text ?? "") }));
        else if (event.event === "final") setState((s) => ({ ...s, text: data.text ?? s.text }));
        else if (event.event === "error") setState((s) => ({ ...s, error: data.message ?? null }));
      }
      setState((s) => ({
        ...s,
        status: s.text.trim() ? "done" : "failed",
        error: s.text.trim() ? s.error : (s.error ?? "The coach returned nothing. Please try again."),
      }));
    } catch (error) {
      if (controller.signal.aborted) return;
      setState((s) => ({
        ...s,
        status: s.text.trim() ? "done" : "failed",
        error: "The connection dropped before the answer was complete. Please try again.",
      }));
      console.error(error);
    }
  }, []);

  return { state, run };
}
