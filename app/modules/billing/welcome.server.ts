import { and, eq, inArray, isNull } from "drizzle-orm";
import { agentProfiles, profiles, subscribers, users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { sendEmail } from "~/lib/mailer.server";
import { firstNameOf } from "~/modules/ai/drafter";

/**
 * auth-welcome (spec section 7): one welcome e-mail, on the first successful subscription. The conditional
 * update claims the send, so a webhook and a test checkout racing cannot both send it.
 */
export async function sendWelcomeEmailOnce(context: RequestContext, origin: string, userId: string): Promise<boolean> {
  const claimed = await context.db
    .update(subscribers)
    .set({ welcomeEmailSentAt: new Date() })
    .where(
      and(eq(subscribers.userId, userId), isNull(subscribers.welcomeEmailSentAt), inArray(subscribers.subscriptionStatus, ["trialing", "active"])),
    )
    .returning({ email: subscribers.email, status: subscribers.subscriptionStatus })
    .get();
  if (!claimed) return false;
  // The agent's first name (from their agent profile's name, else their profile's, as the team list names them), or
  // a greeting that needs none: the part of an address before the @ ("jsmith.realty2") is not what anyone is called.
  const named = await context.db
    .select({ agentName: agentProfiles.agentName, fullName: profiles.fullName })
    .from(users)
    .leftJoin(agentProfiles, eq(agentProfiles.userId, users.id))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  const name = firstNameOf(named?.agentName?.trim() || named?.fullName?.trim() || null);
  const trial = claimed.status === "trialing";
  const intro = trial
    ? "Your 14-day free trial has started, with every feature included."
    : "Your subscription is active, with every feature included.";
  const text = `${name ? `Hi ${name},` : "Hello,"}

Welcome to Porchlight! ${intro}

Three good first steps:
- Add your first contacts: ${origin}/contacts
- Set up your pipeline stages: ${origin}/pipeline
- Ask the AI assistant for a follow-up e-mail: ${origin}/ai-assistant

Questions? Reply to this e-mail; we answer within 1 business day.

— Porchlight, the AI CRM for real estate agents`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">${text
    .split("\n\n")
    .map((p) => `<p>${p.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/\n/g, "<br>")}</p>`)
    .join("")}</body></html>`;
  try {
    await sendEmail(context, { kind: "welcome", to: claimed.email, subject: "Welcome to Porchlight!", text, html, userId });
  } catch (error) {
    // Spec: a failed welcome is only logged; it never blocks the subscription.
    console.error(JSON.stringify({ event: "welcome_email_failed", userId, message: String(error) }));
  }
  return true;
}
