// The answer a form action sends back to a fetcher or the page (ADR 0053). Client-safe: components read it.

/** What an action answers: done (with a sentence for a toast), or refused (with a sentence and per-field errors). */
export type ActionResult<Done extends object = object> =
  | ({ ok: true; intent: string; message?: string } & Done)
  | { ok: false; intent: string; error: string; fieldErrors: Record<string, string> };

/** The refusal's sentence when no field of the form shows it (a form-wide error or an unknown action), for the form's top. */
export function formWideError(result: ActionResult | undefined): string | undefined {
  if (!result || result.ok) return undefined;
  return Object.values(result.fieldErrors).includes(result.error) ? undefined : result.error;
}
