import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossOriginWrite } from "./security";

const post = (headers: Record<string, string>) => new Request("https://porchlight.app/auth", { method: "POST", headers });

describe("cross-origin write check", () => {
  it("lets same-origin posts and reads through", () => {
    expect(isCrossOriginWrite(post({ Origin: "https://porchlight.app" }))).toBe(false);
    expect(isCrossOriginWrite(post({ "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossOriginWrite(new Request("https://porchlight.app/auth", { headers: { Origin: "https://evil.example" } }))).toBe(false);
    // Server-to-server calls (webhooks) carry neither header.
    expect(isCrossOriginWrite(post({}))).toBe(false);
  });

  it("refuses posts from other origins, opaque origins and other sites", () => {
    expect(isCrossOriginWrite(post({ Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossOriginWrite(post({ Origin: "http://porchlight.app" }))).toBe(true);
    expect(isCrossOriginWrite(post({ Origin: "null" }))).toBe(true);
    expect(isCrossOriginWrite(post({ "Sec-Fetch-Site": "cross-site" }))).toBe(true);
  });
});

describe("content security policy", () => {
  it("allows scripts only with the nonce and forbids framing", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
  });

  it("lets a form post be redirected to Google's consent page only when its origin is given", () => {
    expect(contentSecurityPolicy("n")).toContain("form-action 'self' https://checkout.stripe.com https://billing.stripe.com;");
    expect(contentSecurityPolicy("n", ["https://accounts.google.com"])).toContain(
      "form-action 'self' https://checkout.stripe.com https://billing.stripe.com https://accounts.google.com;",
    );
  });
});
