import { appOrigin, type RequestContext } from "~/lib/context.server";
import type { ToastMessage } from "~/lib/toast";
import { changePassword } from "~/modules/auth/accounts.server";
import { auditWhere } from "~/modules/audit/audit.server";
import { ChangePasswordSchema } from "~/modules/auth/auth.schema";
import type { SessionUser, UserId } from "~/modules/auth/session.server";
import { setTestCancelAtPeriodEnd } from "~/modules/billing/details.server";
import { setDigest } from "~/modules/digest/digest.server";
import { IncomeGoalSchema, SourceCostsSchema } from "~/modules/reports/goals.schema";
import { saveIncomeGoal, saveSourceCosts } from "~/modules/reports/goals.server";
import { TeamNameSchema } from "~/modules/team/team.schema";
import { switchToSolo, switchToTeam } from "~/modules/team/team.server";
import { AgentProfileSchema } from "./agent-profile.schema";
import { saveAgentProfile } from "./agent-profile.server";
import { DisplayPreferencesSchema } from "./preferences.schema";
import { saveDisplayPreferences } from "./preferences.server";

// The settings page's forms, one function each: read the fields, apply the rule, and say where the page goes next
// with which toast, or which fields were refused.

type Fields = Record<string, FormDataEntryValue>;

/** Done (a redirect with a toast, and cookies to set) or refused (the errors by field, with the status). */
export type SettingsOutcome =
  | { ok: true; to: string; toast: Omit<ToastMessage, "id">; headers?: Headers }
  | { ok: false; status: 400 | 404 | 429; errors: Record<string, string> };

const invalid = (issues: { path: PropertyKey[]; message: string }[]): SettingsOutcome => ({
  ok: false,
  status: 400,
  errors: Object.fromEntries(issues.map((i) => [String(i.path[0]), i.message])),
});

export async function savePreferencesFromForm(context: RequestContext, userId: UserId, fields: Fields): Promise<SettingsOutcome> {
  const parsed = DisplayPreferencesSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error.issues);
  await saveDisplayPreferences(context, userId, parsed.data);
  return { ok: true, to: "/settings", toast: { title: "Preferences saved", variant: "success" } };
}

export async function saveAgentProfileFromForm(context: RequestContext, userId: UserId, fields: Fields): Promise<SettingsOutcome> {
  const parsed = AgentProfileSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error.issues);
  await saveAgentProfile(context, userId, parsed.data);
  return { ok: true, to: "/settings#agent-profile", toast: { title: "Agent profile saved", variant: "success" } };
}

export async function setDigestFromForm(context: RequestContext, request: Request, userId: UserId, fields: Fields): Promise<SettingsOutcome> {
  const on = fields.on === "1";
  await setDigest(context, userId, on, appOrigin(context, request));
  return {
    ok: true,
    to: "/settings?tab=notifications",
    toast: { title: on ? "Daily digest turned on" : "Daily digest turned off", variant: "success" },
  };
}

export async function saveIncomeGoalFromForm(context: RequestContext, userId: UserId, fields: Fields): Promise<SettingsOutcome> {
  const parsed = IncomeGoalSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error.issues);
  await saveIncomeGoal(context, userId, parsed.data);
  return {
    ok: true,
    to: "/settings?tab=goals",
    toast: { title: parsed.data.incomeGoalCents === null ? "Income goal removed" : "Income goal saved", variant: "success" },
  };
}

export async function saveSourceCostsFromForm(context: RequestContext, userId: UserId, fields: Fields): Promise<SettingsOutcome> {
  const parsed = SourceCostsSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error.issues);
  await saveSourceCosts(context, userId, parsed.data);
  return { ok: true, to: `/settings?tab=goals&month=${parsed.data.month}`, toast: { title: "Lead source costs saved", variant: "success" } };
}

/** A new password: every other device is signed out, and this one gets a fresh session cookie. */
export async function changePasswordFromForm(context: RequestContext, request: Request, userId: UserId, fields: Fields): Promise<SettingsOutcome> {
  const parsed = ChangePasswordSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error.issues);
  const result = await changePassword(context, request, userId, parsed.data);
  if (!result.ok) return { ok: false, status: 400, errors: { currentPassword: result.message.description } };
  const headers = new Headers();
  for (const cookie of result.setCookie) headers.append("Set-Cookie", cookie);
  return {
    ok: true,
    to: "/settings",
    toast: { title: "Password changed", description: "Every other device has been signed out.", variant: "success" },
    headers,
  };
}

/** Solo to Team: confirmed (the confirmation states the price change; a bare post changes nothing) and named. */
export async function switchToTeamFromForm(context: RequestContext, request: Request, user: SessionUser, fields: Fields): Promise<SettingsOutcome> {
  if (fields.confirm !== "yes")
    return { ok: false, status: 400, errors: { form: "Confirm the switch: Switch to the Team plan… says the new price first." } };
  const name = TeamNameSchema.safeParse(fields.teamName);
  if (!name.success) return invalid(name.error.issues.map((issue) => ({ ...issue, path: ["teamName"] })));
  const result = await switchToTeam(context, user, name.data, auditWhere(request));
  if (!result.ok) return { ok: false, status: 400, errors: { form: result.message } };
  return {
    ok: true,
    to: "/team",
    toast: {
      title: "You are on the Team plan",
      description: "Invite your agents: each one takes a seat. The Team price starts with your next billing period.",
      variant: "success",
    },
  };
}

export async function switchToSoloPlan(context: RequestContext, request: Request, user: SessionUser): Promise<SettingsOutcome> {
  const result = await switchToSolo(context, user, auditWhere(request));
  if (!result.ok) return { ok: false, status: 400, errors: { form: result.message } };
  return {
    ok: true,
    to: "/settings?tab=billing",
    toast: { title: "You are on the Solo plan", description: "The Solo price starts with your next billing period.", variant: "success" },
  };
}

/** Development without Stripe only (404 elsewhere): end or continue the subscription at the period's end. */
export async function setTestCancel(context: RequestContext, user: SessionUser, cancel: boolean): Promise<SettingsOutcome> {
  if (context.config.STRIPE_SECRET_KEY || !context.config.isDev) throw new Response("Not Found", { status: 404 });
  await setTestCancelAtPeriodEnd(context, user, cancel);
  return {
    ok: true,
    to: "/settings?tab=billing",
    toast: {
      title: cancel ? "Subscription will end" : "Subscription continues",
      description: cancel ? "You keep full access until the end of the period." : undefined,
      variant: "success",
    },
  };
}
