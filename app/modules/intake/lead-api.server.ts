import { and, eq } from "drizzle-orm";
import * as z from "zod";
import { CONTACT_SOURCES, contacts, crmActivities } from "~/db/schema";
import { readJson } from "~/lib/body.server";
import type { RequestContext } from "~/lib/context.server";
import { sha256 } from "~/lib/crypto";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import type { UserId } from "~/modules/auth/session.server";
import { liveSubscription } from "~/modules/billing/plan-change.server";
import { once } from "~/modules/sync/submissions.server";
import { apiKeyOf } from "./api-keys.server";
import { INTAKE_MESSAGES } from "./intake";
import { leadContactInput, placeLead } from "./intake.server";

// The lead API (ADR 0066): POST /api/v1/leads with a key from Settings → Lead sources, for Zapier, a website's own
// form handler or a lead vendor. A lead is placed as a lead e-mail's is (intake.server.ts): a new contact with its
// alert and speed to lead, or an enquiry on the contact the agent has. An Idempotency-Key makes a retry answer as the
// first call did; every refusal says what to fix, in JSON.

const text = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((v) => v || null);

/** The request body: one lead. Fields it does not know are ignored (Zapier sends what the trigger had). */
export const LeadApiSchema = z
  .object({
    name: z.string({ error: "name is required: the lead's full name." }).trim().min(1, "name is required: the lead's full name.").max(200),
    email: z.email("email must be an e-mail address.").max(320).nullish(),
    phone: text(40, "phone"),
    message: text(5_000, "message"),
    source: z.enum(CONTACT_SOURCES, { error: `source must be one of ${CONTACT_SOURCES.join(", ")}.` }).default("website"),
    property: z
      .object({
        address: text(300, "property.address"),
        mls: text(40, "property.mls"),
        price: z.number({ error: "property.price must be a number (dollars)." }).nonnegative().max(1_000_000_000).nullish(),
        url: z
          .url({ protocol: /^https?$/, error: "property.url must be an http or https address." })
          .max(500)
          .nullish(),
      })
      .nullish(),
    tags: z.array(z.string().max(40)).max(20, "tags: at most 20.").optional(),
  })
  .refine((lead) => Boolean(lead.email || lead.phone), { message: "email or phone is required: a way to reach the lead.", path: ["email"] });

export type LeadApiAnswer = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

const refuse = (status: number, error: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): LeadApiAnswer => ({
  status,
  body: { error, ...extra },
  headers,
});

export const LEAD_API_MESSAGES = {
  noKey: "Send your API key as Authorization: Bearer <key>. Make one in Porchlight: Settings → Lead sources → API keys.",
  badKey: "This API key is not valid or was revoked. Make a new one in Porchlight: Settings → Lead sources → API keys.",
  idempotencyKey: "Idempotency-Key must be 1 to 200 printable ASCII characters, not only spaces.",
} as const;

type Placed = { ok: true; status: "created" | "attached"; contact: { id: string; name: string } };

/** One call of POST /api/v1/leads, answered in JSON. */
export async function receiveApiLead(context: RequestContext, request: Request): Promise<LeadApiAnswer> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
  if (!bearer) return refuse(401, LEAD_API_MESSAGES.noKey, {}, { "WWW-Authenticate": 'Bearer realm="porchlight"' });
  const key = await apiKeyOf(context, bearer);
  if (!key) return refuse(401, LEAD_API_MESSAGES.badKey, {}, { "WWW-Authenticate": 'Bearer realm="porchlight", error="invalid_token"' });
  const limit = await hitRateLimit(context.cloudflare.env.KV, "lead-api", key.id, RATE_LIMITS.leadApi);
  if (!limit.allowed)
    return refuse(
      429,
      `Too many leads with this key: at most ${RATE_LIMITS.leadApi.limit} a minute.`,
      {},
      { "Retry-After": String(limit.retryAfterSeconds) },
    );
  if (!(await liveSubscription(context, key.userId))) return refuse(403, INTAKE_MESSAGES.inactive);

  const idempotency = request.headers.get("Idempotency-Key");
  if (idempotency !== null && !(/^[\x20-\x7e]{1,200}$/.test(idempotency) && idempotency.trim() !== ""))
    return refuse(400, LEAD_API_MESSAGES.idempotencyKey);
  const body = await readJson(request);
  const parsed = LeadApiSchema.safeParse(body);
  if (!parsed.success) {
    const fields = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join(".") || "body", i.message]));
    return refuse(400, Object.values(fields)[0] ?? "The lead is not valid.", { fields });
  }
  const lead = parsed.data;
  const property = lead.property ?? null;
  const reading = {
    format: "api" as const,
    source: lead.source,
    complete: true,
    lead: {
      name: lead.name,
      email: lead.email ?? null,
      phone: lead.phone,
      message: lead.message,
      property: property
        ? {
            address: property.address,
            mls: property.mls,
            priceCents: property.price == null ? null : Math.round(property.price * 100),
            url: property.url ?? null,
          }
        : null,
    },
  };
  const input = leadContactInput(reading.lead, lead.source, lead.tags ?? []);
  if (!input.success) {
    const fields = Object.fromEntries(input.error.issues.map((i) => [i.path.join("."), i.message]));
    return refuse(400, Object.values(fields)[0] ?? "The lead is not valid.", { fields });
  }
  const userId = key.userId;
  const now = new Date();
  const placed = await once<Placed>(
    context,
    userId,
    "api-lead",
    idempotency === null ? null : await sha256(idempotency),
    async (rowId) => {
      const done = await placeLead(context, userId, input.data, reading, { leadAt: now, at: now, rowId, firstReply: true });
      return { ok: true, status: done.status, contact: { id: done.contactId, name: done.contactName } };
    },
    (rowId) => placedBefore(context, userId, rowId),
  );
  return { status: placed.status === "created" ? 201 : 200, body: { status: placed.status, contact: placed.contact } };
}

/** What a call under `rowId` placed before: the contact it made, or the contact it added an enquiry to. */
async function placedBefore(context: RequestContext, userId: UserId, rowId: string): Promise<Placed | null> {
  const made = await context.db
    .select({ id: contacts.id, name: contacts.name })
    .from(contacts)
    .where(and(eq(contacts.id, rowId), eq(contacts.userId, userId)))
    .get();
  if (made) return { ok: true, status: "created", contact: made };
  const enquiry = await context.db
    .select({ id: contacts.id, name: contacts.name })
    .from(crmActivities)
    .innerJoin(contacts, eq(contacts.id, crmActivities.contactId))
    .where(and(eq(crmActivities.id, rowId), eq(crmActivities.userId, userId)))
    .get();
  return enquiry ? { ok: true, status: "attached", contact: enquiry } : null;
}
