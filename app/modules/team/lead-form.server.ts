import { eq } from "drizzle-orm";
import { teams } from "~/db/schema";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import { fieldErrors } from "~/lib/schema-fields";
import { newKeyOn, requestShard, routeRequestByKey, shardOfKey } from "~/lib/shards.server";
import { clientIp, hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import type { UserId } from "~/modules/auth/session.server";
import { liveSubscription } from "~/modules/billing/plan-change.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { LEAD_FORM_HONEYPOT, LEAD_FORM_MESSAGES } from "./lead-form";
import { distribution, LEAD_MESSAGES, receiveLead, requestDeps } from "./leads.server";
import { canManage, type Membership } from "./team.server";
import { auditPerson, auditWhere, teamSettingsAudit } from "~/modules/audit/audit.server";

// The team's public lead form (ADR 0040): a page at /inquire/<key> that anyone may fill in (the team links to
// it from its website, listings and social profiles). Each enquiry is a team lead with source "website", distributed
// as the team's mode says, so the agent who gets it is alerted and their speed to lead starts then. The key is a
// random secret: the owner and admins turn the form on, give it a new address (the old one stops answering) or turn it
// off. A team whose subscription has lapsed takes no enquiries. The key of a team on shard n begins "s<n>_" (ADR 0060):
// a visitor's request is routed there before it reads anything, and a key with its prefix changed finds no team.

const KEY_BYTES = 18;

export interface LeadFormTeam {
  teamId: string;
  teamName: string;
}

/** The team whose form lives at this key, if the form is on and the team's plan is live; else null (404). */
export async function leadFormTeam(context: RequestContext, key: string): Promise<LeadFormTeam | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(key)) return null;
  if (!routeRequestByKey(context.cloudflare.env, shardOfKey(key, KEY_BYTES))) return null;
  const team = await context.db
    .select({ teamId: teams.id, teamName: teams.name, ownerId: teams.ownerId })
    .from(teams)
    .where(eq(teams.leadFormKey, key))
    .get();
  if (!team || !(await liveSubscription(context, team.ownerId as UserId))) return null;
  return { teamId: team.teamId, teamName: team.teamName };
}

export type LeadFormResult = { ok: true } | { ok: false; status: 400 | 429 | 503; error: string; fieldErrors: Record<string, string> };

const MESSAGE_MAX = 2000;

/** An enquiry through the form: checked, rate-limited per form and sender, then a team lead like any other. */
export async function submitLeadForm(context: RequestContext, request: Request, team: LeadFormTeam, form: FormData): Promise<LeadFormResult> {
  const fail = (status: 400 | 429 | 503, error: string, errors: Record<string, string> = {}): LeadFormResult => ({
    ok: false,
    status,
    error,
    fieldErrors: errors,
  });
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  if (text(LEAD_FORM_HONEYPOT) !== "") return fail(400, LEAD_FORM_MESSAGES.bot);
  const parsed = ContactInputSchema.safeParse({
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    notes: "",
    status: "hot",
    source: "website",
    tags: [],
  });
  const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
  const message = text("message").trim();
  if (message.length > MESSAGE_MAX) errors.message = LEAD_FORM_MESSAGES.messageTooLong;
  // The contact schema asks for a phone or an e-mail too; the public form says it to the enquirer in its own words.
  if (!text("phone").trim() && !text("email").trim()) errors.phone = LEAD_FORM_MESSAGES.reachable;
  if (text("consent") !== "on") errors.consent = LEAD_FORM_MESSAGES.consent;
  if (!parsed.success || Object.keys(errors).length > 0) return fail(400, LEAD_FORM_MESSAGES.fix, errors);

  const limit = await hitRateLimit(context.cloudflare.env.KV, "lead-form", `${team.teamId}:${clientIp(request)}`, RATE_LIMITS.leadForm);
  if (!limit.allowed) return fail(429, LEAD_FORM_MESSAGES.tooMany);
  try {
    const lead = parsed.data;
    await receiveLead(
      requestDeps(context, appOrigin(context, request)),
      await distribution(context.db, team.teamId, team.teamName),
      { name: lead.name, email: lead.email, phone: lead.phone, source: "website", notes: message || null },
      null,
      new Date(),
    );
    return { ok: true };
  } catch (error) {
    console.error(JSON.stringify({ event: "lead_form_failed", teamId: team.teamId, message: String(error) }));
    return fail(503, LEAD_FORM_MESSAGES.failed);
  }
}

/** The form's address key for the Team leads page (managers only see it). */
export async function leadFormKeyOf(context: RequestContext, teamId: string): Promise<string | null> {
  const row = await context.db.select({ key: teams.leadFormKey }).from(teams).where(eq(teams.id, teamId)).get();
  return row?.key ?? null;
}

/** Turns the form on with a new address (or gives it a new one: the old stops answering), or off. */
export async function setLeadForm(
  context: RequestContext,
  request: Request,
  actor: { id: UserId },
  team: Membership,
  on: boolean,
): Promise<{ ok: true; message: string } | { ok: false; status: 403; error: string }> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  const was = (await leadFormKeyOf(context, team.teamId)) !== null;
  const at = new Date();
  const me = await auditPerson(context.db, actor.id);
  const change = was || on ? [{ setting: "lead form", from: was ? "on" : "off", to: on ? (was ? "on at a new address" : "on") : "off" }] : [];
  await context.db.batch([
    context.db
      .update(teams)
      .set({ leadFormKey: on ? newKeyOn(requestShard(context.cloudflare.env), KEY_BYTES) : null, updatedAt: at })
      .where(eq(teams.id, team.teamId)),
    ...(change.length > 0 ? [teamSettingsAudit(context, { teamId: team.teamId, actor: me, changes: change, where: auditWhere(request), at })] : []),
  ]);
  return { ok: true, message: on ? "The lead form has a new address" : "The lead form is off" };
}
