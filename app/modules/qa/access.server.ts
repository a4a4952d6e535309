import { redirect } from "@remix-run/cloudflare";
import type { RequestContext } from "~/lib/context.server";
import { isAdmin, requireUser } from "~/modules/auth/guards.server";
import type { SessionUser } from "~/modules/auth/session.server";

/**
 * The QA screens' gate (spec sections 2 and 10): with the QA_PAGE flag off they do not exist, for
 * admins too (404); signed out, sign in; signed in, admins only.
 */
export async function qaUser(request: Request, context: RequestContext): Promise<{ user: SessionUser; admin: boolean }> {
  if (!context.config.FEATURE_FLAGS.QA_PAGE) throw new Response("Not Found", { status: 404 });
  const user = await requireUser(request, context);
  return { user, admin: isAdmin(user, context) };
}

/** The QA Dashboard and its API: anyone but an admin is sent to / (the spec's rule for the dashboard). */
export async function requireQaAdmin(request: Request, context: RequestContext): Promise<SessionUser> {
  const { user, admin } = await qaUser(request, context);
  if (!admin) throw redirect("/");
  return user;
}
