import { redirect } from "@remix-run/cloudflare";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/lib/tenancy.server";
import { redirectWithToast } from "~/lib/toast.server";
import { userName } from "~/modules/team/names.server";
import { disconnectGmail, getGmailConnection, gmailSetup } from "./connection.server";
import { GmailError } from "./google.server";
import { finishGmailConnect, startGmailConnect } from "./oauth.server";

// Settings → E-mail: what the Gmail panel shows, and its three steps (connect, Google's answer, disconnect), each
// ending in a redirect with a toast.

export const EMAIL_TAB = "/settings?tab=email";

export async function loadEmailSettings(context: RequestContext, userId: UserId) {
  const setup = gmailSetup(context.config);
  const [connection, name] = await Promise.all([getGmailConnection(context.db, userId), userName(context.db, userId, "You")]);
  return {
    setupProblem: setup.ready ? null : setup.reason,
    connection: connection ? { email: connection.email, status: connection.status, connectedAt: connection.connectedAt.toISOString() } : null,
    agentName: name,
  };
}

/** "Connect Gmail": off to Google's consent page, or back to the tab saying why not. */
export async function connectFromSettings(context: RequestContext, request: Request, userId: UserId) {
  try {
    return redirect(await startGmailConnect(context, request, userId));
  } catch (error) {
    if (!(error instanceof GmailError)) throw error;
    return redirectWithToast(context, EMAIL_TAB, { title: "Gmail cannot be connected here", description: error.message, variant: "destructive" });
  }
}

/** Google's answer: the connection made, or why not (nothing stored then). */
export async function callbackFromGoogle(context: RequestContext, request: Request, userId: UserId) {
  const outcome = await finishGmailConnect(context, userId, new URL(request.url).searchParams);
  return outcome.ok
    ? redirectWithToast(context, EMAIL_TAB, {
        title: "Gmail connected",
        description: `E-mails you send now go out from ${outcome.email}.`,
        variant: "success",
      })
    : redirectWithToast(context, EMAIL_TAB, { title: "Gmail not connected", description: outcome.message, variant: "destructive" });
}

export async function disconnectFromSettings(context: RequestContext, userId: UserId) {
  const done = await disconnectGmail(context, userId);
  if (!done) return redirectWithToast(context, EMAIL_TAB, { title: "Gmail was not connected", variant: "default" });
  return redirectWithToast(
    context,
    EMAIL_TAB,
    done.revoked
      ? { title: "Gmail disconnected", description: "Porchlight's access to your mailbox is revoked at Google.", variant: "success" }
      : {
          title: "Gmail disconnected here",
          description:
            "Porchlight forgot its access, but Google could not be reached to revoke it: remove Porchlight under Security → Third-party access in your Google account.",
          variant: "default",
        },
  );
}
