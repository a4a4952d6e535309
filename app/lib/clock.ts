// "As of" runs: the whole test suite, or the local end-to-end server, can run as if the wall clock read another
// instant (TEST_NOW, an ISO instant). The clock is shifted, not frozen: it starts at TEST_NOW and keeps ticking,
// so durations, expiries and orderings behave as they do for real. Every `new Date()` and `Date.now()` in the
// process sees the shifted time, which is why one switch covers the Worker, the Durable Objects in the same
// isolate, and the browser page (tests/e2e/fixtures.ts installs the same function there). ADR 0020.
//
// Never used in production: workers/worker.ts installs it only when APP_ENV is not "production".

/** Parses TEST_NOW; a value that is not an instant is an error, not a silent real-clock run. */
export function parseTestNow(value: string): number {
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(at)) {
    throw new Error(`TEST_NOW must be an ISO instant with a zone, e.g. 2027-03-14T06:30:00Z (got "${value}").`);
  }
  return at;
}

/**
 * Makes `Date` in this global scope read `instant` now and tick on from there. Idempotent: a second call
 * for the same instant keeps the clock already running (test files share one isolate), another instant
 * re-bases it. Self-contained (it refers to nothing outside itself) so Playwright can run it in a page.
 */
export function shiftClock(instant: string): void {
  type Shifted = DateConstructor & { realDate?: DateConstructor; testNow?: string };
  const current = globalThis.Date as Shifted;
  if (current.testNow === instant) return;
  const Real = current.realDate ?? current;
  const target = Real.parse(instant);
  if (Number.isNaN(target)) throw new Error(`TEST_NOW is not an instant: ${instant}`);
  const offset = target - Real.now();

  // A plain function, not a subclass: `Date()` without `new` still returns a string, and with the shared
  // prototype `instanceof Date` holds for dates made before and after the switch.
  function ShiftedDate(this: unknown, ...args: unknown[]) {
    if (!new.target) return new Real(Real.now() + offset).toString();
    return args.length === 0 ? new Real(Real.now() + offset) : new (Real as unknown as new (...a: unknown[]) => Date)(...args);
  }
  ShiftedDate.prototype = Real.prototype;
  Object.assign(ShiftedDate, { now: () => Real.now() + offset, parse: Real.parse, UTC: Real.UTC, testNow: instant, realDate: Real });
  globalThis.Date = ShiftedDate as unknown as DateConstructor;
}

/**
 * The Worker's switch: TEST_NOW shifts the clock once per isolate, except in production, where it is ignored.
 * A clock already shifted (by the test setup, or by a test that runs at its own instant) is left alone.
 */
export function applyTestClock(env: { APP_ENV?: string; TEST_NOW?: string }): void {
  if (!env.TEST_NOW || !env.APP_ENV || env.APP_ENV === "production") return;
  if (claimTestClock()) shiftClock(env.TEST_NOW);
}

const CLAIMED = Symbol.for("porchlight.testClock");

/**
 * True the first time it is called in this global scope. The test setup claims the clock before any request,
 * so the Worker under vitest never re-bases a clock a test has set (with `atInstant` or `vi.setSystemTime`).
 */
export function claimTestClock(): boolean {
  const scope = globalThis as { [CLAIMED]?: boolean };
  if (scope[CLAIMED]) return false;
  scope[CLAIMED] = true;
  return true;
}
