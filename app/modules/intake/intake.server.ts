import { and, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { startPlansForLead } from "~/modules/plans/plans.server";
import { contacts, crmActivities, leadIntakeAddresses, leadIntakeMessages, properties, teams, type IntakeStatus } from "~/db/schema";
import { createRequestContext, type RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import type { Env } from "~/lib/env.server";
import { bucketOf } from "~/lib/instant-buckets";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { HOME_SHARD, requestShard, shardDatabases, shardEnv } from "~/lib/shards.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { liveSubscription } from "~/modules/billing/plan-change.server";
import { ContactInputSchema, fieldErrors, type ContactInput } from "~/modules/contacts/contact.schema";
import { insertContact } from "~/modules/contacts/contacts.server";
import { possibleDuplicates } from "~/modules/contacts/duplicates.server";
import { rememberedAppOrigin } from "~/modules/ops/app-origin.server";
import { raiseLeadAlert } from "~/modules/push/lead-alerts.server";
import { distribution, receiveLead, requestDeps } from "~/modules/team/leads.server";
import { listApiKeys } from "./api-keys.server";
import { loadFirstReplySettings, queueFirstReply } from "./first-reply.server";
import { readMail, type LeadMail } from "./mail.server";
import { readLeadEmail, type Reading } from "./parse";
import { INTAKE_MESSAGES } from "./intake";

// Lead intake by e-mail (ADR 0065). Each agent has one private address, <key>@INTAKE_DOMAIN; Cloudflare Email Routing
// hands every e-mail to it to the Worker's email() handler, which calls receiveLeadEmail. The key names its database
// (`s<n>_`, ADR 0060), so nothing is read before the e-mail is routed; a key that is unknown or revoked, a message too
// large and a flood past the rate limit are rejected (the sender gets a bounce with the reason). What the e-mail says
// becomes a new lead, an enquiry on a contact the agent has, or, when not understood, a lead to review: nothing is lost.

/** The largest e-mail taken: a lead notification is a few kilobytes; images and attachments are not needed. */
export const INTAKE_MAX_BYTES = 512 * 1024;
/** How far back an e-mail's Date may set a lead's arrival (a forward of an old e-mail still counts from when it came). */
const SENT_AT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const KEY_LENGTH = 24;
/** A key: its database's prefix (none for the home database) and 24 lower-case base-32 characters (120 bits). */
const KEY = /^(?:s(\d{1,3})_)?([a-z2-7]{24})$/;

/** A new key on shard `n`: lower-case only, since some mail systems fold an address's case. */
function newIntakeKey(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_LENGTH));
  const body = Array.from(bytes, (b) => KEY_ALPHABET[b & 31]).join("");
  return n === HOME_SHARD ? body : `s${n}_${body}`;
}

/** The shard a key names, or null when it is not a key. */
function shardOfIntakeKey(key: string): number | null {
  const match = KEY.exec(key);
  if (!match) return null;
  return match[1] ? Number(match[1]) : HOME_SHARD;
}

const intakeAddress = (key: string, domain: string) => `${key}@${domain}`;

/**
 * Whose address: an agent's own (teamId null), or a team's (its leads are the team's, distributed by its mode; userId
 * is the owner at the time it is made).
 */
export type AddressHolder = { userId: UserId; teamId: string | null };

const heldBy = (holder: AddressHolder) =>
  holder.teamId
    ? and(eq(leadIntakeAddresses.teamId, holder.teamId), isNull(leadIntakeAddresses.revokedAt))
    : ownedBy(leadIntakeAddresses, holder.userId, isNull(leadIntakeAddresses.teamId), isNull(leadIntakeAddresses.revokedAt));

/** The live intake address of an agent or a team, made on first use. */
export async function intakeAddressOf(context: RequestContext, holder: AddressHolder): Promise<{ address: string; createdAt: number }> {
  const live = await context.db
    .select({ key: leadIntakeAddresses.key, createdAt: leadIntakeAddresses.createdAt })
    .from(leadIntakeAddresses)
    .where(heldBy(holder))
    .orderBy(desc(leadIntakeAddresses.createdAt))
    .get();
  if (live) return { address: intakeAddress(live.key, context.config.INTAKE_DOMAIN), createdAt: live.createdAt.getTime() };
  return rotateIntakeAddress(context, holder);
}

/** A new address for the agent or team; the old one stops taking e-mail at once (its e-mails bounce). One batch. */
export async function rotateIntakeAddress(context: RequestContext, holder: AddressHolder): Promise<{ address: string; createdAt: number }> {
  const now = new Date();
  const key = newIntakeKey(requestShard(context.cloudflare.env));
  await context.db.batch([
    context.db.update(leadIntakeAddresses).set({ revokedAt: now }).where(heldBy(holder)),
    context.db.insert(leadIntakeAddresses).values({ id: newId(), userId: holder.userId, teamId: holder.teamId, key, createdAt: now }),
  ]);
  return { address: intakeAddress(key, context.config.INTAKE_DOMAIN), createdAt: now.getTime() };
}

/** An e-mail as the email() handler gets it (ForwardableEmailMessage's envelope and raw message). */
export interface IncomingMail {
  from: string;
  to: string;
  raw: ReadableStream<Uint8Array> | string;
  rawSize: number;
}

export type IntakeOutcome =
  | { ok: true; status: IntakeStatus | "duplicate"; messageId: string; contactId: string | null }
  | { ok: false; reject: string };

/** Takes one e-mail to an intake address: rejected with a reason, or recorded with what became of it. */
export async function receiveLeadEmail(env: Env, ctx: ExecutionContext, mail: IncomingMail, receivedAt = new Date()): Promise<IntakeOutcome> {
  if (mail.rawSize > INTAKE_MAX_BYTES) return { ok: false, reject: INTAKE_MESSAGES.tooLarge };
  const home = createRequestContext(env, ctx, "");
  const [local = "", domain = ""] = mail.to.trim().toLowerCase().split("@");
  const key = local.split("+")[0]!;
  const shard = shardOfIntakeKey(key);
  if (domain !== home.config.INTAKE_DOMAIN || shard === null || shard >= shardDatabases(env).length)
    return { ok: false, reject: INTAKE_MESSAGES.noSuchAddress };
  const context = shard === HOME_SHARD ? home : createRequestContext(shardEnv(env, shard), ctx, "");
  const address = await context.db
    .select({ id: leadIntakeAddresses.id, userId: leadIntakeAddresses.userId, teamId: leadIntakeAddresses.teamId })
    .from(leadIntakeAddresses)
    .where(and(eq(leadIntakeAddresses.key, key), isNull(leadIntakeAddresses.revokedAt)))
    .get();
  if (!address) return { ok: false, reject: INTAKE_MESSAGES.noSuchAddress };
  // A team's address: the team as it is now (its owner pays, and reviews what is not read).
  const team = address.teamId
    ? await context.db.select({ teamId: teams.id, name: teams.name, ownerId: teams.ownerId }).from(teams).where(eq(teams.id, address.teamId)).get()
    : null;
  if (address.teamId && !team) return { ok: false, reject: INTAKE_MESSAGES.noSuchAddress };
  const userId = (team?.ownerId ?? address.userId) as UserId;
  if (!(await liveSubscription(context, userId))) return { ok: false, reject: INTAKE_MESSAGES.inactive };
  const limit = await hitRateLimit(env.KV, "lead-intake", key, RATE_LIMITS.leadIntake);
  if (!limit.allowed) return { ok: false, reject: INTAKE_MESSAGES.tooMany };

  const raw = typeof mail.raw === "string" ? mail.raw : await new Response(mail.raw).arrayBuffer();
  if ((typeof raw === "string" ? new TextEncoder().encode(raw).length : raw.byteLength) > INTAKE_MAX_BYTES)
    return { ok: false, reject: INTAKE_MESSAGES.tooLarge };
  const read = await readMail(raw);
  const reading = readLeadEmail(read.input, home.config.INTAKE_DOMAIN);
  return recordLead(
    context,
    { userId, team: team ?? null, addressId: address.id, size: mail.rawSize, receivedAt, envelopeFrom: mail.from },
    read,
    reading,
  );
}

interface Arrival {
  userId: UserId;
  /** To a team's address: the team, whose lead it is. */
  team: { teamId: string; name: string } | null;
  addressId: string;
  size: number;
  receivedAt: Date;
  envelopeFrom: string;
}

/** The lead an e-mail carried: a new contact, an enquiry on the contact the agent has, or one to review. */
async function recordLead(context: RequestContext, arrival: Arrival, mail: LeadMail, reading: Reading): Promise<IntakeOutcome> {
  const { db } = context;
  const { userId } = arrival;
  // The lead arrived when it was sent (speed to lead starts then), within a week before it reached us, never after.
  const sent = mail.sentAt?.getTime() ?? arrival.receivedAt.getTime();
  const leadAt = new Date(Math.min(arrival.receivedAt.getTime(), Math.max(sent, arrival.receivedAt.getTime() - SENT_AT_MAX_AGE_MS)));
  const id = newId();
  const message = (status: IntakeStatus, contactId: string | null) =>
    db
      .insert(leadIntakeMessages)
      .values({
        id,
        userId,
        addressId: arrival.addressId,
        teamId: arrival.team?.teamId ?? null,
        contactId,
        messageId: mail.messageId,
        receivedAt: arrival.receivedAt,
        sentAt: mail.sentAt,
        fromAddress: (mail.input.from.address || arrival.envelopeFrom).slice(0, 320),
        subject: mail.input.subject,
        format: reading.format,
        status,
        lead: JSON.stringify({ source: reading.source, ...reading.lead }),
        body: mail.input.text,
        auth: JSON.stringify(mail.auth),
        size: arrival.size,
      })
      .onConflictDoNothing();
  // The same e-mail delivered again (a retry, a second forward of it) is taken once.
  if (mail.messageId) {
    const seen = await db
      .select({ id: leadIntakeMessages.id, contactId: leadIntakeMessages.contactId })
      .from(leadIntakeMessages)
      .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.messageId, mail.messageId)))
      .get();
    if (seen) return { ok: true, status: "duplicate", messageId: seen.id, contactId: seen.contactId };
  }

  const input = reading.complete ? contactInput(reading) : null;
  if (!input) {
    await message("review", null).run();
    return { ok: true, status: "review", messageId: id, contactId: null };
  }
  if (arrival.team) {
    // The team's lead: recorded first (a second delivery finds it), then distributed as the team's mode says.
    await message("created", null).run();
    await teamLead(context, arrival.team, id, input, reading.lead.property, leadAt);
    return { ok: true, status: "created", messageId: id, contactId: null };
  }
  const placed = await placeLead(
    context,
    userId,
    input,
    reading,
    { leadAt, at: arrival.receivedAt, intakeMessageId: id, firstReply: true },
    (status, contactId) => [message(status, contactId)],
  );
  return { ok: true, messageId: id, ...placed };
}

/**
 * A lead to a team's address becomes the team's lead (ADR 0038's pond, round robin or first to claim), arriving when
 * it was sent. Should that fail, the e-mail waits for the owner's review instead: nothing is lost.
 */
async function teamLead(
  context: RequestContext,
  team: { teamId: string; name: string },
  messageId: string,
  input: ContactInput,
  property: Reading["lead"]["property"],
  at: Date,
) {
  try {
    const origin = context.config.PUBLIC_URL ?? (await rememberedAppOrigin(context.cloudflare.env.KV)) ?? undefined;
    const lead = { name: input.name, email: input.email, phone: input.phone, source: input.source, notes: input.notes, property };
    await receiveLead(requestDeps(context, origin), await distribution(context.db, team.teamId, team.name), lead, null, at);
  } catch (error) {
    console.error(JSON.stringify({ event: "team_intake_failed", teamId: team.teamId, message: String(error) }));
    await context.db.update(leadIntakeMessages).set({ status: "review" }).where(eq(leadIntakeMessages.id, messageId));
  }
}

type Batchable = Parameters<RequestContext["db"]["batch"]>[0][number];

/**
 * Places a lead (from an e-mail or the lead API): an enquiry on the agent's contact with that e-mail or phone (on their
 * timeline, not a second contact), else a new contact that arrived as a lead at `leadAt`, its alert raised; the
 * property asked about linked to it either way. `record` adds the caller's own write (the intake message) to the same
 * batch. `rowId`, when given, is the new contact's or the enquiry's id, so a retry under the same id adds nothing.
 */
export async function placeLead(
  context: RequestContext,
  userId: UserId,
  input: ContactInput,
  reading: Reading,
  when: { leadAt: Date; at: Date; intakeMessageId?: string; rowId?: string; firstReply?: boolean },
  record: (status: "created" | "attached", contactId: string) => Batchable[] = () => [],
): Promise<{ status: "created" | "attached"; contactId: string; contactName: string }> {
  const { db } = context;
  const [existing] = await possibleDuplicates(context, userId, input, { limit: 1 });
  const propertyRow = (contactId: string) =>
    reading.lead.property
      ? [
          db.insert(properties).values({
            id: newId(),
            userId,
            contactId,
            address: reading.lead.property.address,
            mlsNumber: reading.lead.property.mls,
            priceCents: reading.lead.property.priceCents,
            url: reading.lead.property.url,
            source: reading.source,
            createdAt: when.at,
            updatedAt: when.at,
          }),
        ]
      : [];
  if (existing) {
    await db.batch([
      db.insert(crmActivities).values({
        id: when.rowId ?? newId(),
        userId,
        contactId: existing.id,
        type: "enquiry",
        occurredAt: when.leadAt,
        notes: enquiryNote(reading),
        meta: { source: reading.source, format: reading.format, ...(when.intakeMessageId ? { intakeMessageId: when.intakeMessageId } : {}) },
      }),
      ...propertyRow(existing.id),
      ...record("attached", existing.id),
    ] as [Batchable, ...Batchable[]]);
    return { status: "attached", contactId: existing.id, contactName: existing.name };
  }
  const contactId = when.rowId ?? newId();
  await db.batch([insertContact(db, userId, input, contactId, when.leadAt, true), ...propertyRow(contactId), ...record("created", contactId)] as [
    Batchable,
    ...Batchable[],
  ]);
  // The new-lead alert and its push, as for a lead added by hand; its arrival is the e-mail's.
  ctxWait(
    context,
    raiseLeadAlert(context, userId, { id: contactId, name: input.name, phone: input.phone, email: input.email }, when.leadAt.getTime()),
  );
  // A lead that arrived on its own (not one the agent added from review) gets the source's instant reply, if it is on.
  if (when.firstReply)
    await queueFirstReply(
      context,
      userId,
      { contactId, email: input.email, source: input.source, property: reading.lead.property?.address ?? null },
      when.at,
    );
  // And the plans the agent set to start on their own for leads from this source (ADR 0072).
  if (when.firstReply) await startPlansForLead(db, userId, contactId, input.source, when.at);
  return { status: "created", contactId, contactName: input.name };
}

function ctxWait(context: RequestContext, work: Promise<unknown>) {
  context.cloudflare.ctx.waitUntil(
    work.catch((error: unknown) => console.error(JSON.stringify({ event: "lead_alert_failed", message: String(error) }))),
  );
}

/**
 * The contact a lead makes (from an e-mail, a review the agent corrected, or the lead API), through the contact form's
 * own schema: hot, its message and the property asked about in its notes. The name, e-mail and phone may come as
 * typed by the agent (form values), so they are checked here like any form's.
 */
export function leadContactInput(
  lead: { name: unknown; email: unknown; phone: unknown; message: string | null; property: Reading["lead"]["property"] },
  source: unknown,
  tags: string[] = [],
) {
  return ContactInputSchema.safeParse({
    name: lead.name ?? "",
    email: lead.email ?? "",
    phone: lead.phone ?? "",
    notes: [lead.message, propertyLine(lead.property)].filter(Boolean).join("\n\n").slice(0, 5_000),
    status: "hot",
    source,
    tags,
  });
}

/** The contact a reading makes; null when it does not pass (then: review). */
function contactInput(reading: Reading): ContactInput | null {
  const parsed = leadContactInput(reading.lead, reading.source);
  return parsed.success ? parsed.data : null;
}

function propertyLine(p: Reading["lead"]["property"]): string | null {
  if (!p) return null;
  const price = p.priceCents === null ? null : `$${(p.priceCents / 100).toLocaleString("en-US")}`;
  const parts = [p.address, p.mls ? `MLS ${p.mls}` : null, price].filter(Boolean);
  return parts.length > 0 ? `Asked about: ${parts.join(", ")}` : null;
}

function enquiryNote(reading: Reading): string {
  return [propertyLine(reading.lead.property), reading.lead.message].filter(Boolean).join("\n\n").slice(0, 5_000) || "Sent a new enquiry.";
}

/**
 * How many e-mails that arrived in [lo, hi) still wait for review, per month: `month` is the month's index among `starts`
 * (each month's first instant, bucketOf). Reports' lead sources show them beside the leads. Read off
 * lead_intake_messages_user_status alone.
 */
export function toReviewByMonth(db: RequestContext["db"], userId: UserId, range: { lo: number; hi: number }, starts: readonly number[]) {
  return db
    .select({ month: sql<number>`${bucketOf("received_at", starts)}`.as("month"), n: sql<number>`count(*)`.as("n") })
    .from(leadIntakeMessages)
    .where(
      ownedBy(
        leadIntakeMessages,
        userId,
        eq(leadIntakeMessages.status, "review"),
        gte(leadIntakeMessages.receivedAt, new Date(range.lo)),
        lt(leadIntakeMessages.receivedAt, new Date(range.hi)),
      ),
    )
    .groupBy(sql`month`);
}

/** The agent's e-mails waiting for review, newest first (at most 50), and how many there are. */
async function leadsToReview(context: RequestContext, userId: UserId) {
  const [rows, [count]] = await context.db.batch([
    context.db
      .select({
        id: leadIntakeMessages.id,
        receivedAt: leadIntakeMessages.receivedAt,
        fromAddress: leadIntakeMessages.fromAddress,
        subject: leadIntakeMessages.subject,
        lead: leadIntakeMessages.lead,
        body: leadIntakeMessages.body,
        auth: leadIntakeMessages.auth,
        teamId: leadIntakeMessages.teamId,
      })
      .from(leadIntakeMessages)
      .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.status, "review")))
      .orderBy(desc(leadIntakeMessages.receivedAt))
      .limit(50),
    context.db
      .select({ n: sql<number>`count(*)` })
      .from(leadIntakeMessages)
      .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.status, "review"))),
  ]);
  return {
    total: count?.n ?? 0,
    items: rows.map((row) => ({
      id: row.id,
      receivedAt: row.receivedAt.getTime(),
      fromAddress: row.fromAddress,
      subject: row.subject,
      guess: JSON.parse(row.lead) as Reading["lead"] & { source: Reading["source"] },
      body: row.body,
      auth: JSON.parse(row.auth) as LeadMail["auth"],
      team: row.teamId !== null,
    })),
  };
}

/** The agent's latest intake e-mails of every kind (newest first), for Settings → Lead sources. */
async function recentIntake(context: RequestContext, userId: UserId, limit = 10) {
  const rows = await context.db
    .select({
      id: leadIntakeMessages.id,
      receivedAt: leadIntakeMessages.receivedAt,
      format: leadIntakeMessages.format,
      status: leadIntakeMessages.status,
      contactId: leadIntakeMessages.contactId,
      contactName: contacts.name,
      subject: leadIntakeMessages.subject,
    })
    .from(leadIntakeMessages)
    .leftJoin(contacts, and(eq(contacts.id, leadIntakeMessages.contactId), eq(contacts.userId, userId)))
    .where(ownedBy(leadIntakeMessages, userId))
    .orderBy(desc(leadIntakeMessages.receivedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, receivedAt: r.receivedAt.getTime() }));
}

export type ReviewResult =
  | { ok: true; message: string; contactId: string | null }
  | { ok: false; status: 400 | 404; error: string; fieldErrors: Record<string, string> };

/**
 * The agent confirms an e-mail waiting for review as a lead, with the name, e-mail, phone and source as they corrected
 * them: placed like any lead e-mail (an enquiry on a contact they have, else a new lead from when the e-mail came).
 * The e-mail is claimed first (review → confirmed, only while it waits and is theirs), so a second press adds nothing.
 */
export async function confirmReview(context: RequestContext, userId: UserId, id: string, fields: Record<string, unknown>): Promise<ReviewResult> {
  const row = await context.db
    .select()
    .from(leadIntakeMessages)
    .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.id, id), eq(leadIntakeMessages.status, "review")))
    .get();
  if (!row) return { ok: false, status: 404, error: INTAKE_MESSAGES.notFound, fieldErrors: {} };
  const guess = JSON.parse(row.lead) as Reading["lead"] & { source: Reading["source"] };
  const parsed = leadContactInput({ ...guess, name: fields.name, email: fields.email, phone: fields.phone }, fields.source ?? guess.source);
  if (!parsed.success) return { ok: false, status: 400, error: "Check the lead's details.", fieldErrors: fieldErrors(parsed.error) };
  if (!parsed.data.email && !parsed.data.phone)
    return { ok: false, status: 400, error: "Check the lead's details.", fieldErrors: { email: "Give an e-mail or a phone number to reach them." } };
  // An e-mail to a team's address is the team's lead: its owner, still the owner now, confirms it for the team.
  const team = row.teamId
    ? await context.db
        .select({ teamId: teams.id, name: teams.name })
        .from(teams)
        .where(and(eq(teams.id, row.teamId), eq(teams.ownerId, userId)))
        .get()
    : null;
  if (row.teamId && !team) return { ok: false, status: 404, error: INTAKE_MESSAGES.notFound, fieldErrors: {} };
  const claim = await context.db
    .update(leadIntakeMessages)
    .set({ status: "confirmed", updatedAt: new Date() })
    .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.id, id), eq(leadIntakeMessages.status, "review")))
    .returning({ id: leadIntakeMessages.id });
  if (claim.length === 0) return { ok: false, status: 404, error: INTAKE_MESSAGES.notFound, fieldErrors: {} };
  const leadAt = row.sentAt && row.sentAt.getTime() <= row.receivedAt.getTime() ? row.sentAt : row.receivedAt;
  if (team) {
    await teamLead(context, team, id, parsed.data, guess.property, leadAt);
    return { ok: true, message: INTAKE_MESSAGES.teamLead, contactId: null };
  }
  const reading: Reading = { format: row.format, source: parsed.data.source, lead: guess, complete: true };
  try {
    const placed = await placeLead(context, userId, parsed.data, reading, { leadAt, at: new Date(), intakeMessageId: id }, (_status, contactId) => [
      context.db
        .update(leadIntakeMessages)
        .set({ contactId })
        .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.id, id))),
    ]);
    return {
      ok: true,
      message: placed.status === "created" ? INTAKE_MESSAGES.confirmed : "Added to the contact you have",
      contactId: placed.contactId,
    };
  } catch (error) {
    // Nothing was placed: the e-mail waits for review again.
    await context.db
      .update(leadIntakeMessages)
      .set({ status: "review" })
      .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.id, id), eq(leadIntakeMessages.status, "confirmed")));
    throw error;
  }
}

/** The agent discards an e-mail waiting for review (not a lead); it stays listed as discarded. */
export async function discardReview(context: RequestContext, userId: UserId, id: string): Promise<ReviewResult> {
  const done = await context.db
    .update(leadIntakeMessages)
    .set({ status: "discarded", updatedAt: new Date() })
    .where(ownedBy(leadIntakeMessages, userId, eq(leadIntakeMessages.id, id), eq(leadIntakeMessages.status, "review")))
    .returning({ id: leadIntakeMessages.id });
  return done.length > 0
    ? { ok: true, message: INTAKE_MESSAGES.discarded, contactId: null }
    : { ok: false, status: 404, error: INTAKE_MESSAGES.notFound, fieldErrors: {} };
}

/** Settings → Lead sources: the address (made on first view), the e-mails to review and the latest ones. */
export async function loadLeadSources(context: RequestContext, userId: UserId) {
  const [address, review, recent, apiKeys, firstReply] = await Promise.all([
    intakeAddressOf(context, { userId, teamId: null }),
    leadsToReview(context, userId),
    recentIntake(context, userId),
    listApiKeys(context, userId),
    loadFirstReplySettings(context, userId),
  ]);
  return { ...address, review, recent, apiKeys, firstReply };
}
