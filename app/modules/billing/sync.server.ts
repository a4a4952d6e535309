import { and, eq, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { checkoutSessions, stripeEvents, subscribers, trialClaims } from "~/db/schema";
import type { Plan, SubscriptionStatus } from "~/db/enums";
import type { Db } from "~/db/client.server";
import type { BillingPeriod } from "./plans";
import { trialEmailKey } from "./plans";

/** What a subscription looks like after an event: the fields Porchlight keeps in `subscribers`. */
export interface SubscriptionUpdate {
  status: SubscriptionStatus;
  billingPeriod?: BillingPeriod | null;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  trialEndsAt?: Date | null;
  currentPeriodEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
  /** The plan and its seats (the Stripe quantity), when the event says. */
  plan?: Plan;
  seats?: number;
}

/** The event being applied; `id` makes the change idempotent, `createdAt` orders it against others. */
export interface AppliedEvent {
  id: string;
  type: string;
  createdAt: Date;
}

export type ApplyResult = "applied" | "duplicate" | "stale" | "unknown-user";

async function alreadyProcessed(db: Db, eventId: string) {
  return (await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, eventId)).get()) !== undefined;
}

/**
 * Applies a subscription state for one user, once per event, never letting an older event overwrite a
 * newer one. The event record and the change are one D1 batch: both happen or neither does.
 */
export async function applySubscriptionState(
  db: Db,
  userId: string,
  state: SubscriptionUpdate,
  event: AppliedEvent,
  extra: BatchItem<"sqlite">[] = [],
  /** Apply only over these statuses (an event that may not move others, e.g. a paid invoice); else "stale". */
  onlyFrom?: readonly SubscriptionStatus[],
): Promise<ApplyResult> {
  if (await alreadyProcessed(db, event.id)) return "duplicate";
  const newer = or(isNull(subscribers.statusChangedAt), lte(subscribers.statusChangedAt, event.createdAt)) as SQL;
  const fresh = onlyFrom ? (and(newer, inArray(subscribers.subscriptionStatus, [...onlyFrom])) as SQL) : newer;
  const set = {
    subscriptionStatus: state.status,
    statusChangedAt: event.createdAt,
    updatedAt: new Date(),
    ...(state.billingPeriod !== undefined ? { billingPeriod: state.billingPeriod } : {}),
    ...(state.stripeCustomerId !== undefined ? { stripeCustomerId: state.stripeCustomerId } : {}),
    ...(state.stripeSubscriptionId !== undefined ? { stripeSubscriptionId: state.stripeSubscriptionId } : {}),
    ...(state.trialEndsAt !== undefined ? { trialEndsAt: state.trialEndsAt } : {}),
    ...(state.currentPeriodEnd !== undefined ? { currentPeriodEnd: state.currentPeriodEnd } : {}),
    ...(state.cancelAtPeriodEnd !== undefined ? { cancelAtPeriodEnd: state.cancelAtPeriodEnd } : {}),
    ...(state.plan !== undefined ? { plan: state.plan } : {}),
    ...(state.seats !== undefined ? { seats: state.seats } : {}),
  };
  try {
    const [, updated] = await db.batch([
      db.insert(stripeEvents).values({ id: event.id, type: event.type, stripeCreatedAt: event.createdAt, processedAt: new Date() }),
      db
        .update(subscribers)
        .set(set)
        .where(and(eq(subscribers.userId, userId), fresh))
        .returning({ userId: subscribers.userId }),
      ...extra,
    ]);
    if (updated.length > 0) return "applied";
    const exists = await db.select({ userId: subscribers.userId }).from(subscribers).where(eq(subscribers.userId, userId)).get();
    return exists ? "stale" : "unknown-user";
  } catch (error) {
    // The same event delivered twice at once: the second insert hits the primary key, its batch rolls back.
    if (String(error).includes("UNIQUE") && (await alreadyProcessed(db, event.id))) return "duplicate";
    throw error;
  }
}

/** Records that this customer has had its trial (one per normalised e-mail and per Stripe customer). */
export function claimTrialStatement(db: Db, input: { email: string; userId: string; stripeCustomerId?: string | null }) {
  return db
    .insert(trialClaims)
    .values({ emailKey: trialEmailKey(input.email), userId: input.userId, stripeCustomerId: input.stripeCustomerId ?? null, claimedAt: new Date() })
    .onConflictDoNothing();
}

export async function hasHadTrial(db: Db, email: string, stripeCustomerId?: string | null): Promise<boolean> {
  const byEmail = eq(trialClaims.emailKey, trialEmailKey(email));
  const where = stripeCustomerId ? or(byEmail, eq(trialClaims.stripeCustomerId, stripeCustomerId)) : byEmail;
  return (await db.select({ key: trialClaims.emailKey }).from(trialClaims).where(where).get()) !== undefined;
}

export function completeCheckoutStatement(db: Db, checkoutId: string) {
  return db.update(checkoutSessions).set({ status: "completed" }).where(eq(checkoutSessions.id, checkoutId));
}

/** The user a Stripe customer belongs to, from the id stored at checkout. */
export async function userIdForCustomer(db: Db, customerId: string): Promise<string | null> {
  const row = await db.select({ userId: subscribers.userId }).from(subscribers).where(eq(subscribers.stripeCustomerId, customerId)).get();
  return row?.userId ?? null;
}
