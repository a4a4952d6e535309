import { data } from "@remix-run/cloudflare";
import type { ActionResult } from "./action-result";

// The one way a route action chooses what to do (ADR 0053): the form's `intent` names one handler, each
// handler calls one module function and shapes its answer; a missing or unknown intent is a clear 400.

type Refusal = Extract<ActionResult, { ok: false }>;

/**
 * A refusal in the one answer shape (nothing changed): `error` is the form's own sentence (`fieldErrors.form`) or,
 * when only fields were wrong, the first field's; `fieldErrors` keeps each field's sentence for the form to show.
 */
export function refuse(intent: string, fieldErrors: Record<string, string>, status = 400, headers?: HeadersInit) {
  const { form, ...fields } = fieldErrors;
  const error = form ?? Object.values(fields)[0] ?? "That could not be done.";
  return data<Refusal>({ ok: false, intent, error, fieldErrors: fields }, { status, headers });
}

type Handlers = Record<string, () => unknown>;

async function dispatch<H extends Handlers, U>(form: FormData, handlers: H, unknown: (intent: string) => U) {
  const intent = String(form.get("intent") ?? "");
  if (!Object.hasOwn(handlers, intent)) return unknown(intent);
  return (await handlers[intent]!()) as Awaited<ReturnType<H[keyof H]>>;
}

const UNKNOWN = { form: "Unknown action." };

/** Runs the handler the form's `intent` names; anything else answers 400 "Unknown action." with nothing changed. */
export function dispatchIntent<H extends Handlers>(form: FormData, handlers: H) {
  return dispatch(form, handlers, (intent) => refuse(intent, UNKNOWN));
}

/**
 * The same for a resource route (an action with no page): Remix passes only a Response through there, so the
 * refusal is the same body as a plain JSON Response.
 */
export function dispatchResourceIntent<H extends Handlers>(form: FormData, handlers: H) {
  return dispatch(form, handlers, (intent) => {
    const { data: body, init } = refuse(intent, UNKNOWN);
    return Response.json(body, init ?? undefined);
  });
}
