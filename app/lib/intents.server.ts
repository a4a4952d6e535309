import { data } from "@remix-run/cloudflare";
import type { ActionResult } from "./action-result";

// The one way a route action chooses what to do (ADR 0053): the form's `intent` names one handler, each
// handler calls one module function and shapes its answer; a missing or unknown intent is a clear 400.

type Handlers = Record<string, () => unknown>;

/** Runs the handler the form's `intent` names; anything else answers 400 "Unknown action." with nothing changed. */
export async function dispatchIntent<H extends Handlers>(form: FormData, handlers: H) {
  const intent = String(form.get("intent") ?? "");
  if (!Object.hasOwn(handlers, intent)) {
    return data<Extract<ActionResult, { ok: false }>>({ ok: false, intent, error: "Unknown action.", fieldErrors: {} }, { status: 400 });
  }
  return (await handlers[intent]!()) as Awaited<ReturnType<H[keyof H]>>;
}
