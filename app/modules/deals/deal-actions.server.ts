import { data } from "@remix-run/cloudflare";
import type { SQL } from "drizzle-orm";
import type { RequestContext } from "~/lib/context.server";
import { fieldErrors } from "~/lib/schema-fields";
import type { UserId } from "~/modules/auth/session.server";
import { DEAL_MESSAGES, type DealMoveResult } from "./deal.messages";
import { DealInputSchema, DealMoveSchema, type DealSaveResult } from "./deal.schema";
import { SUBMISSION_KEY_FIELD } from "~/modules/sync/submission-key";
import { once, readSubmissionKey } from "~/modules/sync/submissions.server";
import { createDeal, getDeal, moveDeal, updateDeal } from "./deals.server";

// The deal form posts shared by /pipeline and /deals/{id}: parse, save, answer in one shape (ActionResult, ADR 0053).

export async function saveDealFromForm(context: RequestContext, userId: UserId, form: FormData, id: string | null) {
  const intent = id ? "update" : "create";
  const parsed = DealInputSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return data<DealSaveResult>(
      { ok: false, intent, error: Object.values(errors)[0] ?? DEAL_MESSAGES.saveFailed, fieldErrors: errors },
      { status: 400 },
    );
  }
  if (!id) {
    // A new deal carries its form's submission key: a retry of the same one is answered with the first deal (ADR 0051).
    const submission = readSubmissionKey(form.get(SUBMISSION_KEY_FIELD));
    if ("error" in submission) return data<DealSaveResult>({ ok: false, intent, error: submission.error, fieldErrors: {} }, { status: 400 });
    const created = await once<DealSaveResult & { status?: number }>(
      context,
      userId,
      "deal",
      submission.key,
      async (rowId) => {
        const result = await createDeal(context, userId, parsed.data, rowId);
        return result.ok
          ? { ok: true, intent, deal: { id: result.deal.id, title: result.deal.title } }
          : { ok: false, intent, error: result.error, fieldErrors: result.fieldErrors, status: result.status };
      },
      async (rowId) => {
        const deal = await getDeal(context, userId, rowId);
        return deal ? { ok: true, intent, deal: { id: deal.id, title: deal.title } } : null;
      },
    );
    const { status, ...answer } = created;
    return data<DealSaveResult>(answer, { status: created.ok ? 200 : (status ?? 400) });
  }
  const result = await updateDeal(context, userId, id, parsed.data);
  if (!result.ok) return data<DealSaveResult>({ ok: false, intent, error: result.error, fieldErrors: result.fieldErrors }, { status: result.status });
  return data<DealSaveResult>({ ok: true, intent, deal: { id: result.deal.id, title: result.deal.title } });
}

/** A move of the user's deal; `by` names a teammate making it for them (the team pipeline), `requires` their right to. */
export async function moveDealFromForm(context: RequestContext, userId: UserId, form: FormData, by: string | null = null, requires?: SQL) {
  const parsed = DealMoveSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return data<DealMoveResult>(
      { ok: false, intent: "move", error: Object.values(fieldErrors(parsed.error))[0] ?? DEAL_MESSAGES.stageRequired, fieldErrors: {} },
      { status: 400 },
    );
  const result = await moveDeal(context, userId, String(form.get("id") ?? ""), parsed.data, by, requires);
  if (!result.ok) return data<DealMoveResult>({ ok: false, intent: "move", error: result.error, fieldErrors: {} }, { status: result.status });
  return data<DealMoveResult>({ ok: true, intent: "move", from: result.from ?? null, closedDate: result.deal.closedDate });
}
