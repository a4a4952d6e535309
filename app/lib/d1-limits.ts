// The limits harness (ADR 0055): locally workerd runs D1 with no limits, production refuses a statement over 100 bound
// parameters or 100 KB of SQL and an invocation past 1,000 queries. With D1_LIMITS set ("enforce" in the worker
// tests, "measure" in the bench), each invocation's D1 bindings are wrapped: every statement is counted, sized and
// timed, and in "enforce" mode the one that crosses a production limit throws. Off (unset) in production and
// `npm start`, where the bindings are handed on untouched.

/** The production figures the harness holds statements and invocations to (ADR 0055 cites their pages). */
export const D1_LIMITS = {
  /** Queries per Worker invocation on Workers Paid; a batch counts each of its statements. */
  queriesPerInvocation: 1_000,
  /** Bound parameters per statement. */
  boundParameters: 100,
  /** SQL text per statement, in bytes (UTF-8). */
  statementBytes: 100_000,
} as const;

export type D1LimitName = keyof typeof D1_LIMITS;
export type D1LimitsMode = "enforce" | "measure";

/**
 * Steps that cross the per-invocation query limit today and are allowed to, until they become durable jobs
 * (Workflows or Queues with resumable steps). Each one is a to-do: ADR 0055 lists them. The exemption covers the
 * query count only; statement size and parameters are enforced everywhere.
 */
export const D1_LIMIT_EXEMPTIONS: ReadonlyMap<string, string> = new Map<string, string>([
  // Empty: the backup, the restore drill and an agent's restore are durable jobs now (ADR 0058).
]);

/** What the harness saw in one step of an invocation (the whole invocation when nothing names steps). */
export interface D1StepReport {
  step: string;
  queries: number;
  longestMs: number;
  longestSql: string;
  maxParams: number;
  maxSqlBytes: number;
  /** Rows D1 read and wrote for the step's statements (each result's meta.rows_read / rows_written): what D1 bills. */
  rowsRead: number;
  rowsWritten: number;
}

export interface D1InvocationReport {
  invocation: string;
  /** Queries counted against the invocation's limit (an exempt step's are left out). */
  queries: number;
  /** Rows read and written by the whole invocation, every step's (exempt ones included). */
  rowsRead: number;
  rowsWritten: number;
  steps: D1StepReport[];
}

export class D1LimitError extends Error {
  constructor(
    readonly limit: D1LimitName,
    readonly figure: number,
    readonly actual: number,
    readonly sql: string,
    readonly where: string,
  ) {
    super(
      `D1 limit crossed (${limit}: production allows ${figure}, this ${limit === "queriesPerInvocation" ? "invocation reached" : "statement has"} ${actual}) in ${where}: ${sql.slice(0, 200)}`,
    );
    this.name = "D1LimitError";
  }
}

/** Crossings seen in this isolate, for the worker suite's after-each check (an app path may swallow the throw). */
const CROSSINGS = Symbol.for("porchlight.d1-limits.crossings");
type Registry = { [CROSSINGS]?: D1LimitError[] };

export function takeD1LimitCrossings(): D1LimitError[] {
  const registry = globalThis as Registry;
  const crossings = registry[CROSSINGS] ?? [];
  registry[CROSSINGS] = [];
  return crossings;
}

function newStep(step: string): D1StepReport {
  return { step, queries: 0, longestMs: 0, longestSql: "", maxParams: 0, maxSqlBytes: 0, rowsRead: 0, rowsWritten: 0 };
}

/** One invocation's counts: shared by every binding wrapped for it. */
export class D1Meter {
  queries = 0;
  readonly steps: D1StepReport[];
  private current: D1StepReport;
  private exempt = false;

  constructor(
    readonly mode: D1LimitsMode,
    readonly invocation: string,
  ) {
    this.current = newStep(invocation);
    this.steps = [this.current];
  }

  /** Starts a named step (a cron job within the scheduled invocation); later statements count under it. */
  step(name: string): void {
    if (this.current.queries > 0) {
      this.current = newStep(name);
      this.steps.push(this.current);
    } else this.current.step = name;
    this.exempt = D1_LIMIT_EXEMPTIONS.has(name);
  }

  /** Refuses (or, measuring, records) a crossing. */
  cross(limit: D1LimitName, actual: number, sql: string): void {
    const error = new D1LimitError(limit, D1_LIMITS[limit], actual, sql, `${this.invocation} / ${this.current.step}`);
    if (this.mode !== "enforce") return;
    const registry = globalThis as Registry;
    (registry[CROSSINGS] ??= []).push(error);
    console.error(error.message);
    throw error;
  }

  prepared(sql: string): number {
    // Every UTF-8 character is at most 3 bytes per UTF-16 unit, so short text skips the encoding.
    const bytes = sql.length * 3 <= D1_LIMITS.statementBytes ? sql.length : new TextEncoder().encode(sql).length;
    if (bytes > D1_LIMITS.statementBytes) this.cross("statementBytes", bytes, sql);
    if (bytes > this.current.maxSqlBytes) this.current.maxSqlBytes = bytes;
    return bytes;
  }

  bound(sql: string, params: number): void {
    if (params > D1_LIMITS.boundParameters) this.cross("boundParameters", params, sql);
    if (params > this.current.maxParams) this.current.maxParams = params;
  }

  /** Counts `n` statements about to run (a batch counts each of its statements). */
  count(n: number, sql: string): void {
    this.current.queries += n;
    if (this.exempt) return;
    this.queries += n;
    if (this.queries > D1_LIMITS.queriesPerInvocation) this.cross("queriesPerInvocation", this.queries, sql);
  }

  /** Adds the rows a statement's result says D1 read and wrote (its meta) to the current step. */
  rows(meta: Partial<D1Meta> | undefined): void {
    this.current.rowsRead += meta?.rows_read ?? 0;
    this.current.rowsWritten += meta?.rows_written ?? 0;
  }

  async timed<T>(sql: string, n: number, run: () => Promise<T>): Promise<T> {
    this.count(n, sql);
    const started = performance.now();
    try {
      return await run();
    } finally {
      const ms = performance.now() - started;
      // Workers' clock moves only between I/O, coarsely: a statement can measure 0 ms, and the first statement of a
      // step is its longest until a slower one comes, so the report always names one.
      if (ms > this.current.longestMs || this.current.longestSql === "") {
        this.current.longestMs = ms;
        this.current.longestSql = sql.slice(0, 200);
      }
    }
  }

  report(): D1InvocationReport {
    return {
      invocation: this.invocation,
      queries: this.queries,
      rowsRead: this.steps.reduce((n, s) => n + s.rowsRead, 0),
      rowsWritten: this.steps.reduce((n, s) => n + s.rowsWritten, 0),
      steps: this.steps.filter((s) => s.queries > 0 || this.steps.length === 1),
    };
  }
}

// Brands rather than instanceof: the tests' copy of this module and the Worker build's copy must know each other's
// wrappers (a test hands the Worker an env it has wrapped, to read the invocation's counts afterwards).
const METER = Symbol.for("porchlight.d1-limits.meter");
const INNER = Symbol.for("porchlight.d1-limits.inner");
type Branded = { [METER]?: D1Meter; [INNER]?: D1PreparedStatement };

/**
 * The part of workerd's D1 statement the harness reads: each statement sends its query through its session's
 * `_sendOrThrow`, whose answer carries the query's meta. `first()` and `raw()` drop that meta, so to learn their rows
 * the harness runs the statement's own method with that one function wrapped, on proxies made for this call only (a
 * session is shared by concurrent statements). The result is D1's own, untouched. Should a later workerd change these
 * internals, the statement just runs unwrapped and its rows go uncounted.
 */
interface D1Internals {
  dbSession?: { _sendOrThrow?: (...args: unknown[]) => Promise<unknown> };
}

function withRows<T>(inner: D1PreparedStatement, meter: D1Meter, call: (statement: D1PreparedStatement) => Promise<T>): Promise<T> {
  const session = (inner as D1PreparedStatement & D1Internals).dbSession;
  const send = session?._sendOrThrow;
  if (!session || typeof send !== "function") return call(inner);
  const sendCounting = async (...args: unknown[]) => {
    const answer = await send.apply(session, args);
    for (const one of Array.isArray(answer) ? answer : [answer]) meter.rows((one as { meta?: Partial<D1Meta> } | null)?.meta);
    return answer;
  };
  const sessionProxy = new Proxy(session, {
    get(target, key) {
      if (key === "_sendOrThrow") return sendCounting;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const statementProxy = new Proxy(inner, {
    get(target, key) {
      return key === "dbSession" ? sessionProxy : Reflect.get(target, key, target);
    },
  });
  return call(statementProxy);
}

class MeteredStatement implements D1PreparedStatement {
  readonly [INNER]: D1PreparedStatement;
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    private readonly meter: D1Meter,
  ) {
    this[INNER] = inner;
  }

  bind(...values: unknown[]): D1PreparedStatement {
    this.meter.bound(this.sql, values.length);
    return new MeteredStatement(this.inner.bind(...values), this.sql, this.meter);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return this.meter.timed(this.sql, 1, () => withRows(this.inner, this.meter, (s) => (colName === undefined ? s.first<T>() : s.first<T>(colName))));
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.meter.timed(this.sql, 1, () => withRows(this.inner, this.meter, (s) => s.run<T>()));
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.meter.timed(this.sql, 1, () => withRows(this.inner, this.meter, (s) => s.all<T>()));
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    return this.meter.timed<[string[], ...T[]] | T[]>(this.sql, 1, () =>
      withRows<[string[], ...T[]] | T[]>(this.inner, this.meter, (s) =>
        options?.columnNames === true ? s.raw<T>({ columnNames: true }) : s.raw<T>({ columnNames: false }),
      ),
    );
  }
}

function unwrap(statements: D1PreparedStatement[]): D1PreparedStatement[] {
  return statements.map((s) => (s as D1PreparedStatement & Branded)[INNER] ?? s);
}

function batchSql(statements: D1PreparedStatement[]): string {
  const first = statements[0];
  return `batch of ${statements.length}: ${first instanceof MeteredStatement ? first.sql : "(statement)"}`;
}

/**
 * What a metered database and a metered session share: each statement prepared is counted, sized and timed, and a
 * batch counts each of its statements. Branded with the meter, so an env whose DB is already metered (a request sent
 * in-process by another, ADR 0057) is counted on its sender's meter rather than wrapped again.
 */
abstract class MeteredQueries<Inner extends D1Database | D1DatabaseSession> {
  readonly [METER]: D1Meter;
  constructor(
    protected readonly inner: Inner,
    protected readonly meter: D1Meter,
  ) {
    this[METER] = meter;
  }

  prepare(query: string): D1PreparedStatement {
    this.meter.prepared(query);
    return new MeteredStatement(this.inner.prepare(query), query, this.meter);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.meter.timed(batchSql(statements), statements.length, async () => {
      const results = await this.inner.batch<T>(unwrap(statements));
      for (const result of results) this.meter.rows(result.meta);
      return results;
    });
  }
}

class MeteredSession extends MeteredQueries<D1DatabaseSession> implements D1DatabaseSession {
  getBookmark(): D1SessionBookmark | null {
    return this.inner.getBookmark();
  }
}

class MeteredDatabase extends MeteredQueries<D1Database> implements D1Database {
  exec(query: string): Promise<D1ExecResult> {
    this.meter.prepared(query);
    // exec runs each statement of a script: count them as D1 does (D1ExecResult.count), after the fact.
    return this.meter.timed(query, 0, async () => {
      const result = await this.inner.exec(query);
      this.meter.count(result.count, query);
      return result;
    });
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new MeteredSession(this.inner.withSession(constraintOrBookmark), this.meter);
  }

  dump(): Promise<ArrayBuffer> {
    return this.inner.dump();
  }
}

/** `wrapper` (an object standing for a binding, e.g. the request's routed database) branded with `db`'s meter, if any. */
export function carryingMeterOf<T extends object>(wrapper: T, db: D1Database): T {
  const meter = d1MeterOf(db);
  if (meter) Object.defineProperty(wrapper, METER, { value: meter });
  return wrapper;
}

/** The meter a wrapped binding counts against, or null when the harness is off. */
export function d1MeterOf(db: D1Database): D1Meter | null {
  return (db as D1Database & Branded)[METER] ?? null;
}

function modeOf(value: string | undefined): D1LimitsMode | null {
  return value === "enforce" || value === "measure" ? value : null;
}

export interface LimitedBindings {
  DB: D1Database;
  DB_RESTORE_DRILL?: D1Database;
  D1_LIMITS?: string;
}

/**
 * The env one invocation (a fetch, a scheduled event, a Durable Object call) works with: with D1_LIMITS on, its D1
 * bindings counted by one new meter; otherwise `env` itself. An env already wrapped (a request the QA checks
 * dispatch in-process) keeps its meter: it is the same invocation.
 */
export function limitD1<E extends LimitedBindings>(env: E, invocation: string): E {
  const mode = modeOf(env.D1_LIMITS);
  if (!mode || d1MeterOf(env.DB)) return env;
  const meter = new D1Meter(mode, invocation);
  const limited: E = { ...env, DB: new MeteredDatabase(env.DB, meter) };
  if (env.DB_RESTORE_DRILL) limited.DB_RESTORE_DRILL = new MeteredDatabase(env.DB_RESTORE_DRILL, meter);
  // The other account databases (ADR 0060) count on the same meter: the limits are per invocation, not per database.
  for (const [name, binding] of Object.entries(env)) {
    if (/^DB_SHARD_\d+$/.test(name)) (limited as Record<string, unknown>)[name] = new MeteredDatabase(binding as D1Database, meter);
  }
  return limited;
}

/** In "measure" mode, logs the invocation's report as one JSON line (the bench reads them); otherwise nothing. */
export function reportD1(env: LimitedBindings): void {
  const meter = d1MeterOf(env.DB);
  if (meter?.mode === "measure") console.log(JSON.stringify({ event: "d1_limits", ...meter.report() }));
}

/** The step the meter counts under now. */
function currentStep(meter: D1Meter): string {
  return meter.steps.at(-1)?.step ?? meter.invocation;
}

/**
 * Runs `run` as a named step of the invocation `db` belongs to (a backup, a drill, a restore), so its queries are
 * reported under that name and an exempt step is let through; afterwards the invocation goes on under its earlier step.
 * Without the harness it just runs `run`.
 */
export async function inD1Step<T>(db: D1Database, name: string, run: () => Promise<T>): Promise<T> {
  const meter = d1MeterOf(db);
  if (!meter) return run();
  const before = currentStep(meter);
  meter.step(name);
  try {
    return await run();
  } finally {
    meter.step(before);
  }
}
