import { and, eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { accountDirectory } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { acceptingShards, HOME_SHARD, homeDatabase, routeRequest, shardDatabases } from "~/lib/shards.server";
import { sessionUserId } from "~/modules/auth/session.server";

// The directory of accounts (ADR 0060): one row per agent in the home database, naming the database that holds the
// agent's rows. Each way into an account reaches it by one key: a session by the user id its KV record holds, sign-in,
// sign-up and a password reset by the e-mail address, an e-mailed link by the shard in its signed id.

const directory = (env: Env) => createDb(homeDatabase(env));

const normalEmail = (email: string) => email.trim().toLowerCase();

/** The shard that holds a user's rows; an agent without a row lives in the home database. */
async function shardOfUser(env: Env, userId: string): Promise<number> {
  const row = await directory(env).select({ shard: accountDirectory.shard }).from(accountDirectory).where(eq(accountDirectory.userId, userId)).get();
  return row?.shard ?? HOME_SHARD;
}

/** The shard that holds the account of an e-mail address (the home database when none is listed). */
async function shardOfEmail(env: Env, email: string): Promise<number> {
  const row = await directory(env)
    .select({ shard: accountDirectory.shard })
    .from(accountDirectory)
    .where(eq(accountDirectory.email, normalEmail(email)))
    .get();
  return row?.shard ?? HOME_SHARD;
}

/**
 * Routes a request by its signed-in session, once, before the app reads anything: a signed-out request stays home.
 * `moving` when the account is being copied to its team's database: it is read-only until the move ends.
 */
export async function routeBySession(env: Env, request: Request): Promise<{ moving: boolean }> {
  const userId = await sessionUserId(env, request);
  if (!userId) return { moving: false };
  const row = await directory(env)
    .select({ shard: accountDirectory.shard, movingTo: accountDirectory.movingTo })
    .from(accountDirectory)
    .where(eq(accountDirectory.userId, userId))
    .get();
  routeRequest(env, row?.shard ?? HOME_SHARD);
  return { moving: row?.movingTo != null };
}

/** Routes a request that names its agent (a Stripe event) to the agent's database; none named, it stays home. */
export async function routeToUser(env: Env, userId: string | null): Promise<void> {
  if (userId) routeRequest(env, await shardOfUser(env, userId));
}

/** Routes a signed-out request (sign-in, a password reset) to the database of the account an address names. */
export async function routeByEmail(env: Env, email: string): Promise<void> {
  routeRequest(env, await shardOfEmail(env, email));
}

/** Database size in bytes, as D1 reports it after a query (the figure its 10 GB limit counts). */
export async function databaseSize(db: D1Database): Promise<number> {
  const result = await db.prepare("select 1").run();
  return Number(result.meta.size_after ?? 0);
}

/**
 * Where a new account goes: an address in ADMIN_EMAILS at home (the Operations Center reads the global tables from its
 * admins' database); any other among the shards taking new accounts, in the one with the most room (the smallest
 * database), on a tie the lowest index. One query per accepting shard.
 */
export async function placeNewAccount(env: Env, email: string, adminEmails: readonly string[]): Promise<number> {
  if (adminEmails.includes(normalEmail(email))) return HOME_SHARD;
  const databases = shardDatabases(env);
  const sizes = await Promise.all(acceptingShards(env).map(async (shard) => ({ shard, size: await databaseSize(databases[shard]!) })));
  sizes.sort((a, b) => a.size - b.size || a.shard - b.shard);
  return sizes[0]!.shard;
}

/**
 * Lists a new account in the directory. False when the address is taken in any database: the directory's unique
 * e-mail is what keeps one address to one account across shards.
 */
export async function listAccount(env: Env, account: { userId: string; email: string; shard: number }): Promise<boolean> {
  const listed = await directory(env)
    .insert(accountDirectory)
    .values({ userId: account.userId, email: normalEmail(account.email), shard: account.shard })
    .onConflictDoNothing()
    .returning({ userId: accountDirectory.userId })
    .get();
  return listed !== undefined;
}

/** Takes back a listing whose account was never written (its sign-up failed after the listing). */
export async function unlistAccount(env: Env, userId: string, shard: number): Promise<void> {
  await directory(env)
    .delete(accountDirectory)
    .where(and(eq(accountDirectory.userId, userId), eq(accountDirectory.shard, shard)));
}
