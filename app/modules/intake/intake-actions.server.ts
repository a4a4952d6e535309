import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import type { SettingsOutcome } from "~/modules/settings/settings-actions.server";
import { INTAKE_MESSAGES } from "./intake";
import { confirmReview, discardReview, rotateIntakeAddress, type ReviewResult } from "./intake.server";

// Settings → Lead sources' forms: a new address, and an e-mail to review added as a lead or discarded. Each answers
// as the settings page's other forms do (a redirect with its toast, or its errors for the form that was sent).

const TAB = "/settings?tab=leads";

export async function rotateFromSettings(context: RequestContext, userId: UserId): Promise<SettingsOutcome> {
  await rotateIntakeAddress(context, userId);
  return { ok: true, to: TAB, toast: { title: "New address ready", description: INTAKE_MESSAGES.rotated, variant: "success" } };
}

export async function reviewFromSettings(
  context: RequestContext,
  userId: UserId,
  intent: "confirm" | "discard",
  fields: Record<string, FormDataEntryValue>,
): Promise<SettingsOutcome> {
  const id = typeof fields.id === "string" ? fields.id : "";
  const result: ReviewResult =
    intent === "confirm"
      ? await confirmReview(context, userId, id, {
          name: fields.name,
          email: fields.email,
          phone: fields.phone,
          source: fields.source,
        })
      : await discardReview(context, userId, id);
  if (!result.ok) return { ok: false, status: result.status, errors: { form: result.error, ...result.fieldErrors, id } };
  return { ok: true, to: TAB, toast: { title: result.message, variant: "success" } };
}
