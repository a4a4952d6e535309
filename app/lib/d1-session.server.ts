import { readCookie, serializeCookie } from "./cookies";
import { carryingMeterOf } from "./d1-limits";
import type { Env } from "./env.server";
import { HOME_SHARD, RoutedDatabase, shardDatabases } from "./shards.server";

// Reads near the agent (ADR 0057): each request reads and writes D1 through one session of the Sessions API. With
// read replication on, a session's reads may be served by a replica near the agent, and its writes go to the
// primary. A session that starts from a bookmark sees at least everything up to it, so after a write the browser
// keeps the session's bookmark in a cookie and the next request starts there: an agent always reads their own
// writes, from whichever replica answers. With replication off (locally, and until it is turned on) every read goes
// to the primary and the bookmark changes nothing.

/** The cookie that carries the bookmark of the browser's last write. */
export const BOOKMARK_COOKIE = "porchlight_d1";
/** Replicas catch up within seconds; after an hour without a write, a request may start anywhere. */
const BOOKMARK_MAX_AGE_S = 3600;
/** A D1 bookmark: four hex groups (what D1 answers; anything else a browser sends is ignored). */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** Methods that do not write (by the rules of the house: a GET never changes what an agent sees). */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The bookmark a request brings, when it is one, and its shard: shard 0's bare, shard n's as "n:<bookmark>" (ADR 0060). */
function bookmarkFrom(request: Request): { shard: number; value: string } | null {
  const cookie = readCookie(request.headers.get("Cookie"), BOOKMARK_COOKIE);
  const match = cookie ? /^(?:(\d{1,3}):)?(.+)$/.exec(cookie) : null;
  if (!match || !BOOKMARK.test(match[2]!)) return null;
  return { shard: match[1] ? Number(match[1]) : HOME_SHARD, value: match[2]! };
}

export type RequestDatabase = {
  /** The env the request's code sees: its DB is the request's routed database, HOME_DB the home database. */
  env: Env;
  /** The Set-Cookie that carries the session's bookmark to the next request, or null (a read, or no newer bookmark). */
  bookmarkCookie(): string | null;
};

/**
 * The request's database: a D1 session on the shard the request is routed to (ADR 0060), started at the browser's
 * last write there (else wherever is nearest), and the env that reads and writes through it. Only writes hand back a
 * bookmark: a read answers with no cookie.
 */
export function openRequestDatabase(env: Env, request: Request): RequestDatabase {
  // A request sent in-process by another (the QA Dashboard's checks) shares the sender's session.
  if (!("withSession" in env.DB)) return { env, bookmarkCookie: () => null };
  const bookmark = bookmarkFrom(request);
  const routed = carryingMeterOf(new RoutedDatabase(shardDatabases(env), bookmark), env.DB);
  // The routed database has prepare and batch, all that drizzle and the modules use of a D1Database (no exec, dump or
  // nested sessions anywhere in a request's code).
  const db = routed as unknown as D1Database;
  return {
    env: { ...env, DB: db, HOME_DB: env.DB },
    bookmarkCookie() {
      if (READS.has(request.method)) return null;
      const latest = routed.latestBookmark();
      if (!latest || (latest === bookmark?.value && routed.shard === bookmark.shard)) return null;
      const value = routed.shard === HOME_SHARD ? latest : `${routed.shard}:${latest}`;
      return serializeCookie(BOOKMARK_COOKIE, value, { maxAge: BOOKMARK_MAX_AGE_S });
    },
  };
}
