import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hitRateLimit } from "./rate-limit.server";

describe("fixed-window rate limit in KV", () => {
  it("allows `limit` hits per window, refuses the next, and starts again in the next window", async () => {
    const rule = { limit: 3, windowSeconds: 60 };
    const subject = crypto.randomUUID();
    const t0 = Date.UTC(2026, 10, 22, 12, 0, 0);
    for (let i = 0; i < 3; i++) expect((await hitRateLimit(env.KV, "unit", subject, rule, t0 + i)).allowed).toBe(true);
    const refused = await hitRateLimit(env.KV, "unit", subject, rule, t0 + 30_000);
    expect(refused).toEqual({ allowed: false, count: 3, retryAfterSeconds: 30 });
    expect((await hitRateLimit(env.KV, "unit", subject, rule, t0 + 60_000)).allowed).toBe(true);
  });

  it("keeps subjects apart", async () => {
    const rule = { limit: 1, windowSeconds: 60 };
    const now = Date.now();
    expect((await hitRateLimit(env.KV, "unit", "a-" + now, rule, now)).allowed).toBe(true);
    expect((await hitRateLimit(env.KV, "unit", "b-" + now, rule, now)).allowed).toBe(true);
  });
});
