// Response hardening applied by the Worker to everything it serves, and the cross-origin write check.
import { base64url } from "./crypto";

export function createNonce(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The page's policy. `formTargets`: further origins a form post may be redirected to (Google's consent page, where
 * "Connect Gmail" sends the browser; its origin comes from the deployment's settings, never from a user).
 */
export function contentSecurityPolicy(nonce: string, formTargets: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // Tailwind's output is a stylesheet; React's style={{}} props need inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // Cloudflare Turnstile (the captcha on the trial step, when configured) runs in its own frame.
    "frame-src https://challenges.cloudflare.com",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Stripe Checkout and the Customer Portal are reached by redirect after a form post.
    ["form-action 'self' https://checkout.stripe.com https://billing.stripe.com", ...formTargets].join(" "),
    "frame-ancestors 'none'",
  ].join("; ");
}

const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** The origin of an http(s) base URL from the settings, or `fallback` when it is unset or not one. */
export function originOf(base: string | undefined, fallback: string): string {
  try {
    const url = new URL(base || fallback);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : fallback;
  } catch {
    return fallback;
  }
}

export function withSecurityHeaders(response: Response, opts: { nonce: string; private: boolean; formTargets?: readonly string[] }): Response {
  // Responses from fetch() or assets have immutable headers; copy into a new Response.
  const secured = new Response(response.body, response);
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) secured.headers.set(name, value);
  const type = secured.headers.get("Content-Type") ?? "";
  if (type.includes("text/html")) secured.headers.set("Content-Security-Policy", contentSecurityPolicy(opts.nonce, opts.formTargets));
  // A script's CSP governs what it may fetch: the service worker must reach its own origin.
  else if (type.includes("javascript")) secured.headers.set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
  else secured.headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  if (opts.private) {
    // Anything rendered for a signed-in visitor must never sit in a shared or browser cache.
    secured.headers.set("Cache-Control", "private, no-store");
    secured.headers.append("Vary", "Cookie");
  } else if (!secured.headers.has("Cache-Control")) {
    secured.headers.set("Cache-Control", "no-cache");
  }
  return secured;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True for a state-changing request sent from another site. Browsers send Origin on every cross-origin
 * POST; Sec-Fetch-Site covers the rest. Requests without either (server-to-server) are not browser forgeries.
 */
export function isCrossOriginWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  if (origin && origin !== "null") return origin !== new URL(request.url).origin;
  if (origin === "null") return true;
  const site = request.headers.get("Sec-Fetch-Site");
  return site === "cross-site" || site === "same-site";
}
