import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { subscribers } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { VERIFICATION_REQUIRED } from "~/modules/billing/billing.messages";
import { signInAs } from "../factories/browser";
import { createUser } from "../factories/users";

const turnstileEnv = { ...(env as Env), TURNSTILE_SITE_KEY: "0x4AAA-site", TURNSTILE_SECRET_KEY: "0x4AAA-secret" };

function startTrial(host: string, session: string, fields: Record<string, string>, workerEnv: Env = turnstileEnv) {
  const origin = host === "localhost" ? "http://localhost" : `https://${host}`;
  const request = new Request(`${origin}/trial/start`, {
    method: "POST",
    headers: {
      Cookie: `porchlight_session=${session}`,
      Host: host,
      Origin: origin,
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": "10.9.8.7",
    },
    body: new URLSearchParams(fields).toString(),
  });
  return worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, workerEnv, createExecutionContext());
}

describe("Turnstile on the trial step", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is required on a real host when configured: no token, no checkout", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    const page = await worker.fetch(
      new Request("https://app.porchlight.example/trial/start", {
        headers: { Cookie: `porchlight_session=${browser.session()}`, Host: "app.porchlight.example" },
      }) as Request<unknown, IncomingRequestCfProperties>,
      turnstileEnv,
      createExecutionContext(),
    );
    expect(await page.text()).toContain("0x4AAA-site");
    const response = await startTrial("app.porchlight.example", browser.session()!, { period: "monthly" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(VERIFICATION_REQUIRED.title);
    expect(html).toContain(VERIFICATION_REQUIRED.description);
    const row = await createDb(env.DB).select().from(subscribers).where(eq(subscribers.userId, user.id)).get();
    expect(row!.subscriptionStatus).toBe("inactive");
  });

  it("accepts a token Cloudflare confirms, and refuses one it does not", async () => {
    // The fake only records and answers; the assertions come after the calls, because the code under test
    // treats any failure of this fetch as "not verified" and would swallow an assertion thrown inside it.
    const verified: { url: string; method: string; body: URLSearchParams }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      const body = new URLSearchParams(await request.text());
      verified.push({ url: request.url, method: request.method, body });
      return Response.json({ success: body.get("response") === "good-token" });
    });
    const browser = await signInAs(await createUser(env.DB, { status: "inactive" }));
    const refused = await startTrial("app.porchlight.example", browser.session()!, { period: "monthly", "cf-turnstile-response": "forged" });
    expect(refused.status).toBe(400);
    // A real host with Turnstile but no Stripe keys in tests (APP_ENV test): checkout runs in test mode.
    const accepted = await startTrial("app.porchlight.example", browser.session()!, { period: "monthly", "cf-turnstile-response": "good-token" });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("Location")).toMatch(/^\/billing\/test-checkout\//);
    expect(verified.map((v) => [v.method, v.url, v.body.get("response")])).toEqual([
      ["POST", "https://challenges.cloudflare.com/turnstile/v0/siteverify", "forged"],
      ["POST", "https://challenges.cloudflare.com/turnstile/v0/siteverify", "good-token"],
    ]);
    for (const { body } of verified) {
      expect(body.get("secret")).toBe("0x4AAA-secret");
      expect(body.get("remoteip")).toBe("10.9.8.7");
    }
  });

  it("is skipped on localhost and on listed preview hosts", async () => {
    const siteverify = vi.spyOn(globalThis, "fetch");
    const browser = await signInAs(await createUser(env.DB, { status: "inactive" }));
    expect((await startTrial("localhost", browser.session()!, { period: "monthly" })).status).toBe(302);
    const preview = { ...turnstileEnv, TURNSTILE_SKIP_HOSTS: "staging.porchlight.example" };
    const staged = await startTrial("staging.porchlight.example", browser.session()!, { period: "monthly" }, preview);
    expect(staged.status).toBe(302);
    expect(
      siteverify.mock.calls
        .map(([input]) => String(input instanceof Request ? input.url : input))
        .filter((url) => url.includes("challenges.cloudflare.com")),
    ).toEqual([]);
  });
});
