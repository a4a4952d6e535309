import { randomToken } from "./crypto";
import { carryingMeterOf } from "./d1-limits";
import type { Env } from "./env.server";

// One database per shard (ADR 0060). An account's rows all live in one D1 database: DB (shard 0, the home database,
// which also holds the directory of accounts and everything global) or DB_SHARD_n. A request reads and writes one of
// them, chosen once per request (the request's routed database, below); the cron, the Operations Center and the jobs
// that move an account are the only code that opens several.

/** The home database's index: the directory of accounts and the global tables live there. */
export const HOME_SHARD = 0;

/** The binding that holds shard `n`. */
function bindingName(n: number): string {
  return n === HOME_SHARD ? "DB" : `DB_SHARD_${n}`;
}

/** The home database itself, also inside a request whose DB was routed elsewhere. */
export function homeDatabase(env: Pick<Env, "DB" | "HOME_DB">): D1Database {
  return env.HOME_DB ?? env.DB;
}

/** Every account database bound to this Worker, by index (DB is 0, DB_SHARD_n is n; numbering has no gaps). */
export function shardDatabases(env: Env): D1Database[] {
  const bindings = env as unknown as Record<string, D1Database | undefined>;
  const list = [homeDatabase(env)];
  for (let n = 1; bindings[bindingName(n)]; n++) list.push(bindings[bindingName(n)]!);
  return list;
}

/** The shards a new account may be placed in: SHARDS_ACCEPTING ("0,1"), else every bound shard. */
export function acceptingShards(env: Env): number[] {
  const count = shardDatabases(env).length;
  const all = Array.from({ length: count }, (_, n) => n);
  if (!env.SHARDS_ACCEPTING?.trim()) return all;
  const listed = env.SHARDS_ACCEPTING.split(",").map((part) => Number(part.trim()));
  const accepting = all.filter((n) => listed.includes(n));
  return accepting.length > 0 ? accepting : [HOME_SHARD];
}

/**
 * The request's database: it stands for one shard's D1 session, opened at the first query. Until then the request may
 * be routed (from its session, or by the key a signed-out flow carries: an e-mail, a link); once a query has run it
 * stays where it is, so no request reads one account's rows from two databases.
 */
export class RoutedDatabase {
  #shard: number | null = null;
  #session: D1DatabaseSession | null = null;

  constructor(
    private readonly databases: D1Database[],
    /** The bookmark the browser brought, and the shard it belongs to. */
    private readonly bookmark: { shard: number; value: string } | null,
  ) {}

  /** The shard this request reads and writes (the home database until it is routed). */
  get shard(): number {
    return this.#shard ?? HOME_SHARD;
  }

  /** Points the request at shard `n`; refused once a query has run on another shard. */
  route(n: number): void {
    if (this.#session) {
      if (n !== this.#shard) throw new Error(`This request already reads database ${this.#shard}; it cannot move to database ${n}.`);
      return;
    }
    if (!this.databases[n]) throw new Error(`No database ${n} is bound to this Worker.`);
    this.#shard = n;
  }

  private session(): D1DatabaseSession {
    if (!this.#session) {
      const shard = this.shard;
      this.#shard = shard;
      const start = this.bookmark?.shard === shard ? this.bookmark.value : "first-unconstrained";
      this.#session = this.databases[shard]!.withSession(start);
    }
    return this.#session;
  }

  /** The bookmark of the session's latest write, when a query has run. */
  latestBookmark(): string | null {
    return this.#session?.getBookmark() ?? null;
  }

  prepare(query: string): D1PreparedStatement {
    return this.session().prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.session().batch<T>(statements);
  }
}

function routerOf(db: D1Database): RoutedDatabase | null {
  // Duck-typed rather than instanceof: a test's copy of this module and the Worker build's copy meet here.
  const candidate = db as unknown as Partial<RoutedDatabase>;
  return typeof candidate.route === "function" && typeof candidate.latestBookmark === "function" ? (candidate as RoutedDatabase) : null;
}

/** Points the request's database at shard `n`. An env that is not a request's (the cron, a test's) is shard 0's. */
export function routeRequest(env: Env, n: number): void {
  const router = routerOf(env.DB);
  if (router) router.route(n);
  else if (n !== HOME_SHARD) throw new Error(`This database cannot move to database ${n}.`);
}

/** The shard a database handle reads and writes: a request's routed database's, else the home database. */
function shardOfDatabase(db: D1Database): number {
  return routerOf(db)?.shard ?? HOME_SHARD;
}

/**
 * What a queue message carries to name the database its rows live in (ADR 0060): nothing for the home database (every
 * message sent before the shards reads there), `{ shard }` for another. The consumer opens that database (workers/queues.ts).
 */
export function shardTag(db: D1Database): { shard?: number } {
  const shard = shardOfDatabase(db);
  return shard === HOME_SHARD ? {} : { shard };
}

/** The shard a queue message names: its `shard` when it is a bound database's index, else the home database. */
export function shardOfMessage(env: Env, body: unknown): number {
  const shard = (body as { shard?: unknown } | null)?.shard;
  return typeof shard === "number" && Number.isInteger(shard) && shard > HOME_SHARD && shard < shardDatabases(env).length ? shard : HOME_SHARD;
}

/** The shard the request's database reads and writes. */
export function requestShard(env: Env): number {
  return shardOfDatabase(env.DB);
}

// Link tokens (e-mail verification, password reset, keep-account) carry their account's shard in their row id, so a
// link opened in a signed-out browser reaches the right database before any read. Shard 0's ids have no prefix
// (every link sent before the shards still works); the id is signed with the rest of the link.
const LINK_SHARD = /^s(\d{1,3})_/;

/** A link row's id for an account on shard `n`. */
export function linkIdOn(n: number, id: string): string {
  return n === HOME_SHARD ? id : `s${n}_${id}`;
}

/** The shard a link row's id belongs to. */
export function shardOfLinkId(id: string): number {
  const match = LINK_SHARD.exec(id);
  return match ? Number(match[1]) : HOME_SHARD;
}

// Keys of public pages (a calendar feed's secret, a team's lead form address) name their database the same way:
// "s<n>_" and the random secret, shard 0's bare (every feed and form made before the shards still works). The secret is
// base64url, which has "_", so a bare secret may itself begin "s1_": only the prefix followed by a whole secret counts.

/** A new key for a public page of an account on shard `n`: `bytes` random bytes, base64url, behind the shard's prefix. */
export function newKeyOn(n: number, bytes: number): string {
  return linkIdOn(n, randomToken(bytes));
}

/** The shard a key made by newKeyOn(…, `bytes`) names; anything else is the home database's. */
export function shardOfKey(key: string, bytes: number): number {
  const match = LINK_SHARD.exec(key);
  return match && key.length - match[0].length === Math.ceil((bytes * 4) / 3) ? Number(match[1]) : HOME_SHARD;
}

/**
 * Routes a request opened by a key (a link, a feed, a form) to the key's shard before its first query. False when it
 * cannot: no such database is bound, or the request already reads another (signed in elsewhere): the key is then
 * not found, and nothing of the key's database is read.
 */
export function routeRequestByKey(env: Env, n: number): boolean {
  try {
    routeRequest(env, n);
    return true;
  } catch {
    return false;
  }
}

/** What a link's id names, without its shard's prefix (an unsubscribe link's agent). */
export function unprefixedLinkId(id: string): string {
  return id.replace(LINK_SHARD, "");
}

/**
 * The env of work done for the accounts of shard `n` outside a request (a cron job's pass over one database): its DB
 * is that database, routed like a request's so whatever it writes names its database (an e-mail's queue message), and
 * HOME_DB the home database.
 */
export function shardEnv(env: Env, n: number): Env {
  if (n === HOME_SHARD) return env;
  const routed = carryingMeterOf(new RoutedDatabase(shardDatabases(env), null), env.DB);
  routed.route(n);
  return { ...env, DB: routed as unknown as D1Database, HOME_DB: homeDatabase(env) };
}
