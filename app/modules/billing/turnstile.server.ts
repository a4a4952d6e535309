import type { RequestContext } from "~/lib/context.server";
import { clientIp } from "~/lib/rate-limit.server";

const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Spec section 5: the captcha is required when configured, except on localhost and preview hosts
 * (TURNSTILE_SKIP_HOSTS, comma-separated, e.g. a staging host).
 */
export function turnstileSiteKey(context: RequestContext, request: Request): string | null {
  const { TURNSTILE_SITE_KEY, TURNSTILE_SECRET_KEY, TURNSTILE_SKIP_HOSTS } = context.config;
  if (!TURNSTILE_SITE_KEY || !TURNSTILE_SECRET_KEY) return null;
  const host = new URL(request.url).hostname;
  if (LOOPBACK.has(host) || TURNSTILE_SKIP_HOSTS.includes(host)) return null;
  return TURNSTILE_SITE_KEY;
}

/** Verifies the widget's token with Cloudflare. A network failure counts as not verified. */
export async function verifyTurnstile(context: RequestContext, request: Request, token: string | null): Promise<boolean> {
  if (!turnstileSiteKey(context, request)) return true;
  if (!token) return false;
  try {
    const response = await fetch(TURNSTILE_VERIFY_URL, {
      method: "POST",
      body: new URLSearchParams({ secret: context.config.TURNSTILE_SECRET_KEY!, response: token, remoteip: clientIp(request) }),
    });
    const body = (await response.json()) as { success?: boolean };
    return body.success === true;
  } catch (error) {
    console.error(JSON.stringify({ event: "turnstile_verify_failed", message: String(error) }));
    return false;
  }
}
