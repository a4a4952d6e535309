import { redirect } from "@remix-run/cloudflare";
import type { RequestContext } from "~/lib/context.server";
import { decideBillingAccess } from "~/modules/billing/guard";
import { getSubscription } from "~/modules/billing/subscription.server";
import { getSession, type SessionUser } from "./session.server";

export const VERIFY_EMAIL_PATH = "/auth/verify-email";
/** The second step of sign-in (ADR 0074). */
export const TWO_FACTOR_PATH = "/auth/two-factor";
/** Settings → Security: passkeys, the authenticator app, recovery codes and signed-in devices. */
export const SECURITY_PATH = "/settings/security";

export async function getUser(request: Request, context: RequestContext): Promise<SessionUser | null> {
  return (await getSession(context, request))?.user ?? null;
}

function signInRedirect(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
}

/** The signed-in user, or a redirect to /auth. Unverified accounts go to the resend page unless allowed. */
export async function requireUser(request: Request, context: RequestContext, options: { allowUnverified?: boolean } = {}): Promise<SessionUser> {
  const user = await getUser(request, context);
  if (!user) throw signInRedirect(request);
  if (!user.emailVerified && !options.allowUnverified) throw redirect(VERIFY_EMAIL_PATH);
  // A team that requires two-factor sign-in: a member without a second factor sets one up before anything else (the
  // security page's own loaders and actions go on; signing out needs no guard).
  if (user.twoFactorSetupDue && !new URL(request.url).pathname.startsWith(SECURITY_PATH)) throw redirect(SECURITY_PATH);
  return user;
}

/** requireUser plus the billing guard. */
export async function requireSubscriber(request: Request, context: RequestContext): Promise<SessionUser> {
  const user = await requireUser(request, context);
  const decision = decideBillingAccess(await getSubscription(context, user.id));
  if (!decision.allow) throw redirect(decision.redirectTo);
  if (decision.logged) console.warn(JSON.stringify({ event: "billing_guard_allowed", userId: user.id, reason: decision.logged }));
  return user;
}

export function isAdmin(user: Pick<SessionUser, "role" | "email">, context: RequestContext): boolean {
  return user.role === "admin" || context.config.ADMIN_EMAILS.includes(user.email.toLowerCase());
}

/** Admin pages do not exist for anybody else: they answer 404, not 403. */
export async function requireAdmin(request: Request, context: RequestContext): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (!isAdmin(user, context)) throw new Response("Not Found", { status: 404 });
  return user;
}

/** Loader for pages that need nothing but a signed-in subscriber (yet). */
export async function subscriberOnlyLoader({ request, context }: { request: Request; context: RequestContext }) {
  await requireSubscriber(request, context);
  return null;
}
