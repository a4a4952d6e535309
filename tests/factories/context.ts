import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createRequestContext } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";

/**
 * A D1 binding whose statements fail when their SQL matches `pattern`, to see how the product behaves
 * when storage has an outage. Everything else goes to the real local D1.
 */
export function failingD1(real: D1Database, pattern: RegExp): D1Database {
  return new Proxy(real, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          if (pattern.test(sql)) throw new Error("D1_ERROR: simulated storage outage");
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A D1 binding that runs `meanwhile` (on the real database) just before its next batch: someone else's change landing
 * between a write's reads and its batch, to see that the batch re-checks what it relies on.
 */
export function changedBeforeNextBatch(real: D1Database, meanwhile: () => Promise<unknown>): D1Database {
  let pending = true;
  return new Proxy(real, {
    get(target, property) {
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (pending) {
            pending = false;
            await meanwhile();
          }
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function requestContext(overrides: Partial<Env> = {}) {
  return createRequestContext({ ...(env as Env), ...overrides }, createExecutionContext(), "test-nonce");
}
