import { eq } from "drizzle-orm";
import { contactSubmissions } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { sendEmail } from "~/lib/mailer.server";
import { clientIp, hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { CONTACT_HONEYPOT, CONTACT_MESSAGES, INTEREST_LABELS } from "./contact.messages";
import { ContactSubmissionSchema } from "./contact.schema";

export type ContactResult = { ok: true; error: null } | { ok: false; error: string; fieldErrors: Record<string, string>; status: number };

const fail = (error: string, status: number, fieldErrors: Record<string, string> = {}): ContactResult => ({ ok: false, error, fieldErrors, status });

/**
 * contact-submit (spec section 7): validates, refuses bots and floods, stores the message, and notifies
 * the sales inbox. Answers { ok, error } like the spec's function.
 */
export async function submitContact(context: RequestContext, request: Request, input: Record<string, unknown>): Promise<ContactResult> {
  // Bots that fill the hidden field are told nothing useful and nothing is stored.
  if (typeof input[CONTACT_HONEYPOT] === "string" && input[CONTACT_HONEYPOT] !== "") return fail("Please try again later.", 400);
  const parsed = ContactSubmissionSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return fail("Please correct the marked fields.", 400, fieldErrors);
  }
  const limit = await hitRateLimit(context.cloudflare.env.KV, "contact", clientIp(request), RATE_LIMITS.contactForm);
  if (!limit.allowed) return fail(CONTACT_MESSAGES.tooMany, 429);

  const message = parsed.data;
  const id = newId();
  try {
    await context.db.insert(contactSubmissions).values({ id, ...message, consent: true });
    const text = [
      `New message from the Porchlight contact form`,
      ``,
      `Name: ${message.firstName} ${message.lastName}`,
      `Email: ${message.email}`,
      `Phone: ${message.phone ?? "—"}`,
      `Company (brokerage): ${message.company}`,
      `Interest: ${INTEREST_LABELS[message.interest]}`,
      `Consent to be contacted: yes`,
      ``,
      message.message,
    ].join("\n");
    const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif"><pre style="white-space:pre-wrap;font-family:inherit">${text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")}</pre></body></html>`;
    const sent = await sendEmail(context, {
      kind: "contact_form",
      to: context.config.SALES_INBOX,
      subject: `Contact form: ${message.firstName} ${message.lastName} (${INTEREST_LABELS[message.interest]})`,
      text,
      html,
    });
    if (sent.status !== "dead") {
      await context.db.update(contactSubmissions).set({ notifiedAt: new Date() }).where(eq(contactSubmissions.id, id));
    }
    return { ok: true, error: null };
  } catch (error) {
    console.error(JSON.stringify({ event: "contact_submit_failed", message: String(error) }));
    return fail(CONTACT_MESSAGES.failed, 500);
  }
}
