import type { AppDispatch } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";
import { SESSION_COOKIE } from "~/modules/auth/session.server";

// The QA runner's way into the running Worker: workers/worker.ts puts its own fetch handler on the request
// context (context.dispatch), and the checks send it real requests, in-process, through everything a browser's
// request goes through (the cross-origin check, Remix or the /api app, the security headers). A Worker cannot
// fetch its own hostname over the network, and this needs no secret or extra route.

/** A cookie-keeping client for the checks: one per synthetic visitor, from its own address. */
export class QaBrowser {
  private cookies = new Map<string, string>();
  constructor(
    private readonly origin: string,
    private readonly env: Env,
    private readonly dispatch: AppDispatch,
    readonly ip = `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`,
  ) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("CF-Connecting-IP", this.ip);
    // What a browser always sends; Remix compares it with Origin on every form post.
    headers.set("Host", new URL(this.origin).host);
    if (init.method && init.method !== "GET") headers.set("Origin", this.origin);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    // Not counted as traffic in the Operations Center: these are the checks' requests, not agents'.
    const response = await this.dispatch(new Request(`${this.origin}${path}`, { ...init, headers, redirect: "manual" }), {
      ...this.env,
      OPS_RECORDING: "off",
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === "" || attributes.some((a) => /max-age=0\b/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  post(path: string, fields: Record<string, string>) {
    return this.fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  get signedIn() {
    return this.cookies.has(SESSION_COOKIE);
  }
}
