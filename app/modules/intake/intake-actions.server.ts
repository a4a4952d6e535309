import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import type { SettingsOutcome } from "~/modules/settings/settings-actions.server";
import { appOrigin } from "~/lib/context.server";
import { FIRST_REPLY_MESSAGES, ReplyHoursSchema, ReplyTemplateSchema, type ReplyTemplateInput } from "./first-reply";
import { saveReplyHours, saveReplyTemplate } from "./first-reply.server";
import { INTAKE_MESSAGES } from "./intake";
import { confirmReview, discardReview, rotateIntakeAddress, type ReviewResult } from "./intake.server";

// Settings → Lead sources' forms: a new address, and an e-mail to review added as a lead or discarded. Each answers
// as the settings page's other forms do (a redirect with its toast, or its errors for the form that was sent).

const TAB = "/settings?tab=leads";

export async function rotateFromSettings(context: RequestContext, userId: UserId): Promise<SettingsOutcome> {
  await rotateIntakeAddress(context, { userId, teamId: null });
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

/** One source's instant reply: on or off, subject and e-mail. Errors name the source, so its form shows them. */
export async function firstReplyFromSettings(
  context: RequestContext,
  request: Request,
  userId: UserId,
  fields: Record<string, FormDataEntryValue>,
): Promise<SettingsOutcome> {
  const source = typeof fields.source === "string" ? fields.source : "";
  const parsed = ReplyTemplateSchema.safeParse({ source, enabled: fields.enabled === "on", subject: fields.subject ?? "", body: fields.body ?? "" });
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] === "source" ? "form" : i.path[0]), i.message]));
    return { ok: false, status: 400, errors: { ...errors, source } };
  }
  await saveReplyTemplate(context, userId, parsed.data as ReplyTemplateInput, appOrigin(context, request));
  return { ok: true, to: TAB, toast: { title: FIRST_REPLY_MESSAGES.saved, variant: "success" } };
}

export async function replyHoursFromSettings(
  context: RequestContext,
  userId: UserId,
  fields: Record<string, FormDataEntryValue>,
): Promise<SettingsOutcome> {
  const parsed = ReplyHoursSchema.safeParse({ from: fields.from, until: fields.until });
  if (!parsed.success) return { ok: false, status: 400, errors: { until: FIRST_REPLY_MESSAGES.hours } };
  await saveReplyHours(context, userId, parsed.data);
  return { ok: true, to: TAB, toast: { title: FIRST_REPLY_MESSAGES.hoursSaved, variant: "success" } };
}
