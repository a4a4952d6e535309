import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { sha256 } from "~/lib/crypto";
import type { Env } from "~/lib/env.server";
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS } from "~/modules/auth/session.server";
import { signInAs } from "../factories/browser";
import { failingD1 } from "../factories/context";
import { createUser } from "../factories/users";

type Record = { userId: string; version: number; createdAt: number; lastSeenAt: number };

async function ageSession(cookie: string, change: (record: Record) => Record) {
  const key = `session:${await sha256(cookie)}`;
  const record = (await env.KV.get<Record>(key, "json"))!;
  await env.KV.put(key, JSON.stringify(change(record)));
}

describe("session lifetimes", () => {
  it("ends a session unused for longer than the idle lifetime", async () => {
    const browser = await signInAs(await createUser(env.DB));
    expect((await browser.get("/dashboard")).status).toBe(200);
    await ageSession(browser.session()!, (r) => ({ ...r, lastSeenAt: Date.now() - SESSION_IDLE_SECONDS * 1000 - 1000 }));
    expect((await browser.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth/);
  });

  it("ends a session older than the absolute lifetime, however recently used", async () => {
    const browser = await signInAs(await createUser(env.DB));
    await ageSession(browser.session()!, (r) => ({ ...r, createdAt: Date.now() - SESSION_ABSOLUTE_SECONDS * 1000 - 1000, lastSeenAt: Date.now() }));
    expect((await browser.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth/);
  });

  it("keeps a session that is inside both lifetimes", async () => {
    const browser = await signInAs(await createUser(env.DB));
    await ageSession(browser.session()!, (r) => ({
      ...r,
      createdAt: Date.now() - 20 * 24 * 3600 * 1000,
      lastSeenAt: Date.now() - 6 * 24 * 3600 * 1000,
    }));
    expect((await browser.get("/dashboard")).status).toBe(200);
  });
});

describe("error boundaries", () => {
  it("show a way back when a signed-in page fails to load", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const request = new Request("http://localhost/settings", {
      headers: { Cookie: `porchlight_session=${browser.session()}`, Host: "localhost" },
    }) as Request<unknown, IncomingRequestCfProperties>;
    const broken = { ...(env as Env), DB: failingD1(env.DB, /from "user_preferences"/) };
    const response = await worker.fetch(request, broken, createExecutionContext());
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Back to Dashboard");
    expect(html).toContain("Try again");
    // The app shell (navigation) is still there around the error.
    expect(html).toContain('aria-label="Main"');
  });
});
