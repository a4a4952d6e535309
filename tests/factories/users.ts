import { eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { profiles, subscribers, userPreferences, users, type SubscriptionStatus, type UserRole } from "~/db/schema";
import { hashPassword } from "~/modules/auth/password";
import type { UserId } from "~/modules/auth/session.server";

let counter = 0;
/** A fresh address per call, so tests never collide in the shared test database. */
export function uniqueEmail(prefix = "agent") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`;
}

/** A fresh client address per call, so KV rate-limit windows of one test never touch another's. */
export function uniqueIp() {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

export const DEFAULT_PASSWORD = "correct horse battery staple";

// Hashing is deliberately slow (100,000 PBKDF2 rounds); hash the shared password once.
let defaultHash: Promise<string> | undefined;

export interface UserOptions {
  email?: string;
  password?: string;
  verified?: boolean;
  role?: UserRole;
  status?: SubscriptionStatus | null;
}

/** Inserts a user straight into D1 the way sign-up would, with a subscription status of choice. */
export async function createUser(d1: D1Database, options: UserOptions = {}) {
  const db = createDb(d1);
  const id = crypto.randomUUID();
  const email = (options.email ?? uniqueEmail()).toLowerCase();
  const password = options.password ?? DEFAULT_PASSWORD;
  const passwordHash = password === DEFAULT_PASSWORD ? await (defaultHash ??= hashPassword(DEFAULT_PASSWORD)) : await hashPassword(password);
  const status = options.status === undefined ? "active" : options.status;
  await db.batch([
    db.insert(users).values({
      id,
      email,
      passwordHash,
      role: options.role ?? "user",
      emailVerifiedAt: options.verified === false ? null : new Date(),
    }),
    db.insert(profiles).values({ userId: id }),
    db.insert(userPreferences).values({ userId: id }),
  ]);
  if (status) await db.insert(subscribers).values({ userId: id, email, subscriptionStatus: status });
  return { id, email, password };
}

export async function setSubscriptionStatus(d1: D1Database, userId: string, status: SubscriptionStatus) {
  await createDb(d1).update(subscribers).set({ subscriptionStatus: status }).where(eq(subscribers.userId, userId));
}

/** A signed-up agent with an active subscription, its id typed as the session gives it. */
export async function createAgent(d1: D1Database, options: UserOptions = {}) {
  const user = await createUser(d1, options);
  return { ...user, userId: user.id as UserId };
}
