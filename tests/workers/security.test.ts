import type { ServerBuild } from "@remix-run/cloudflare";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signInAs, TestBrowser } from "../factories/browser";
import { createUser, DEFAULT_PASSWORD, uniqueEmail } from "../factories/users";
import { createDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { eq } from "drizzle-orm";
// @ts-expect-error -- build output has no type declarations
import * as remixBuild from "../../build/server/index.js";

describe("security headers", () => {
  it("sends a CSP whose fresh nonce is on every script, plus HSTS, nosniff, referrer policy and frame-ancestors", async () => {
    const first = await new TestBrowser().get("/auth");
    const second = await new TestBrowser().get("/auth");
    const csp = first.headers.get("Content-Security-Policy")!;
    const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    expect(second.headers.get("Content-Security-Policy")).not.toContain(nonce);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const html = await first.text();
    const scripts = html.match(/<script[^>]*>/g)!;
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d{8}/);
    expect(first.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(first.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("also hardens JSON responses from the API", async () => {
    const response = await new TestBrowser().get("/api/health");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });

  it("never lets a page rendered for a signed-in user be cached", async () => {
    const browser = await signInAs(await createUser(env.DB));
    for (const path of ["/dashboard", "/settings", "/"]) {
      expect((await browser.get(path)).headers.get("Cache-Control"), path).toBe("private, no-store");
    }
    expect((await new TestBrowser().get("/")).headers.get("Cache-Control")).not.toContain("public");
  });

  it("refuses a cross-origin form post and changes nothing", async () => {
    const email = uniqueEmail("csrf");
    const browser = new TestBrowser();
    const response = await browser.post(
      "/auth",
      { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "" },
      { Origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(await createDb(env.DB).select().from(users).where(eq(users.email, email)).get()).toBeUndefined();
  });

  it("refuses a cross-site post that carries no Origin header", async () => {
    const victim = await signInAs(await createUser(env.DB));
    const response = await victim.fetch("/auth/signout", {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded" },
      body: "scope=everywhere&confirm=everywhere",
    });
    expect(response.status).toBe(403);
    expect((await victim.get("/dashboard")).status).toBe(200);
  });
});

describe("not found", () => {
  it("shows the spec's 404 page with a 404 status for any unknown path", async () => {
    for (const path of ["/no-such-page", "/contacts/some/deep/path", "/guides/unknown-guide"]) {
      const response = await new TestBrowser().get(path);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html).toContain(">404<");
      expect(html).toContain("Oops! Page not found");
      expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
    }
  });

  it("answers unknown API paths with JSON", async () => {
    const response = await new TestBrowser().get("/api/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  });
});

describe("service worker script", () => {
  it("is served with the build's version, as JavaScript that may fetch its own origin", async () => {
    const response = await new TestBrowser().get("/sw.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/javascript");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
    const script = await response.text();
    expect(script).toMatch(/const CACHE = "porchlight-[\w-]+";/);
    expect(script).toContain('const OFFLINE_URL = "/offline"');
  });

  it("keeps the code of every signed-in page, so a tab tapped offline loads its page's code and opens the saved copy of that screen", async () => {
    const script = await new TestBrowser().get("/sw.js").then((response) => response.text());
    const appAssets = JSON.parse(/const APP_ASSETS = (\[.*\]);/.exec(script)?.[1] ?? "null") as string[];
    const manifest = (remixBuild as unknown as ServerBuild).assets;
    for (const page of [
      "dashboard",
      "contacts._index",
      "contacts.$id",
      "pipeline._index",
      "tasks",
      "reports",
      "ai-assistant",
      "settings",
      "deals.$id",
    ]) {
      const route = manifest.routes[`routes/_app.${page}`]!;
      for (const file of [route.module, ...(route.imports ?? [])]) expect(appAssets, `${page}: ${file}`).toContain(file);
    }
    // Only build files, and none of the public pages'.
    expect(appAssets.every((file) => file.startsWith("/assets/"))).toBe(true);
    expect(appAssets).not.toContain(manifest.routes["routes/pricing"]!.module);
  });
});
