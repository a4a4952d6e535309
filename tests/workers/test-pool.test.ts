import { createExecutionContext } from "cloudflare:test";
// @ts-expect-error: the pool's internal module ships no types; the one function used here is typed below.
import * as poolInternal from "cloudflare:test-internal";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// The pool wraps the Worker's entrypoint in a class whose prototype is a Proxy. Our tests reach the Worker through that
// wrapper, constructed once per request. Installed at every construction, the proxy wrapped the previous one, so each
// property read ran one more trap per request until the suite crawled and overflowed the stack. patches/ installs it
// once per class (ADR 0036): this test fails on a pool without that fix, so an upgrade cannot drop the patch unseen.
const { createWorkerEntrypointWrapper } = poolInternal as {
  createWorkerEntrypointWrapper: (entrypoint: string) => new (ctx: ExecutionContext, env: unknown) => object;
};

describe("the Worker test pool", () => {
  it("installs the entrypoint wrapper's prototype proxy once, however many requests construct it", () => {
    const Wrapper = createWorkerEntrypointWrapper("default");
    // The prototypes seen after each construction, compared by identity only: a read of an unknown key on the proxy
    // would go to the Worker as an RPC call.
    const prototypes = new Set<object>();
    for (let request = 0; request < 4; request++) {
      new Wrapper(createExecutionContext(), env);
      prototypes.add(Wrapper.prototype);
    }
    expect(prototypes.size).toBe(1);
  });
});
