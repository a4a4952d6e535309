import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createRequestContext } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";

type D1Hooks = {
  prepare?: (target: D1Database, sql: string) => D1PreparedStatement;
  batch?: (target: D1Database, statements: D1PreparedStatement[]) => Promise<D1Result[]>;
};

/**
 * The real local D1 with some of its methods replaced, on the binding and on every session opened from it: a
 * request reads and writes through a session (ADR 0057), so a hook on the binding alone would miss its queries.
 */
function hookD1(real: D1Database, hooks: D1Hooks): D1Database {
  return new Proxy(real, {
    get(target, property) {
      if (property === "prepare" && hooks.prepare) return (sql: string) => hooks.prepare!(target, sql);
      if (property === "batch" && hooks.batch) return (statements: D1PreparedStatement[]) => hooks.batch!(target, statements);
      if (property === "withSession")
        return (start?: string) => hookD1(target.withSession(start) as unknown as D1Database, hooks) as unknown as D1DatabaseSession;
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A D1 binding whose statements fail when their SQL matches `pattern`, to see how the product behaves
 * when storage has an outage. Everything else goes to the real local D1.
 */
export function failingD1(real: D1Database, pattern: RegExp): D1Database {
  return hookD1(real, {
    prepare(target, sql) {
      if (pattern.test(sql)) throw new Error("D1_ERROR: simulated storage outage");
      return target.prepare(sql);
    },
  });
}

/**
 * A D1 binding that runs `meanwhile` (on the real database) just before its next batch: someone else's change landing
 * between a write's reads and its batch, to see that the batch re-checks what it relies on.
 */
export function changedBeforeNextBatch(real: D1Database, meanwhile: () => Promise<unknown>): D1Database {
  let pending = true;
  return hookD1(real, {
    async batch(target, statements) {
      if (pending) {
        pending = false;
        await meanwhile();
      }
      return target.batch(statements);
    },
  });
}

/** The real local D1, noting in `log` the SQL of every statement prepared on it or on a session opened from it. */
export function recordingD1(real: D1Database, log: string[]): D1Database {
  return hookD1(real, {
    prepare(target, sql) {
      log.push(sql);
      return target.prepare(sql);
    },
  });
}

export function requestContext(overrides: Partial<Env> = {}) {
  return createRequestContext({ ...(env as Env), ...overrides }, createExecutionContext(), "test-nonce");
}
