import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import app from "../../workers/app";
import type { Env } from "~/lib/env.server";
import { uniqueIp } from "./users";

const ORIGIN = "http://localhost";
// The worker under test (workers/app.ts), as `main` in vitest.config.ts.
const worker = (exports as unknown as { default: Fetcher }).default;

/**
 * A tiny browser over the Worker's fetch: keeps cookies, sends Origin on form posts like a real browser,
 * does not follow redirects (tests look at them), and has its own client IP.
 */
export class TestBrowser {
  cookies = new Map<string, string>();
  private env: Env | null = null;
  constructor(public ip = uniqueIp()) {}

  /** The same browser (cookies, address) against the Worker run with other settings, e.g. Stripe keys. */
  using(env: Env): TestBrowser {
    const other = new TestBrowser(this.ip);
    other.cookies = this.cookies;
    other.env = env;
    return other;
  }

  private cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set("CF-Connecting-IP", this.ip);
    headers.set("Host", "localhost");
    if (this.cookies.size) headers.set("Cookie", this.cookieHeader());
    const request = new Request(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" });
    const response = this.env
      ? await app.fetch(request as Request<unknown, IncomingRequestCfProperties>, this.env, createExecutionContext())
      : await worker.fetch(request);
    this.store(response);
    return response;
  }

  get(path: string) {
    return this.fetch(path);
  }

  /**
   * GETs a page that must answer 200 and returns its body. Tests that check what a page leaves out read
   * pages through this, so an error page or a redirect to sign-in cannot pass for an empty list.
   */
  async page(path: string): Promise<string> {
    const response = await this.get(path);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}, not 200: ${(await response.text()).slice(0, 200)}`);
    return response.text();
  }

  /** A form post, as the browser sends it (same-origin, urlencoded). */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.fetch(path, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Follows redirects from a response until a page, and returns that page's HTML. */
  async follow(response: Response, limit = 5): Promise<{ response: Response; html: string; url: string }> {
    let current = response;
    let url = "";
    for (let i = 0; i < limit && current.status >= 300 && current.status < 400; i++) {
      url = current.headers.get("Location")!;
      current = await this.get(url.startsWith("http") ? new URL(url).pathname + new URL(url).search : url);
    }
    return { response: current, html: await current.text(), url };
  }

  session() {
    return this.cookies.get("porchlight_session") ?? null;
  }
}

/** Signs in a user through the real /auth form. */
export async function signInAs(user: { email: string; password: string }, browser = new TestBrowser()) {
  const response = await browser.post("/auth", { mode: "signin", email: user.email, password: user.password, website_url: "" });
  if (response.status !== 302) throw new Error(`sign-in failed with ${response.status}: ${await response.text()}`);
  return browser;
}

/** Adds a contact through the contacts page's form, as the agent would. */
export function postContact(browser: TestBrowser, name: string) {
  return browser.post("/contacts", {
    intent: "create",
    name,
    email: `${crypto.randomUUID()}@example.com`,
    status: "warm",
    propertyType: "house",
    source: "other",
    submissionKey: crypto.randomUUID(),
  });
}
