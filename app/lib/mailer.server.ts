import { desc, eq } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import type { RequestContext } from "./context.server";
import { newId } from "./crypto";

export interface OutgoingEmail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  userId?: string | null;
  /** Extra headers for the provider, e.g. List-Unsubscribe (the outbox keeps the message, not these). */
  headers?: Record<string, string>;
}

const RESEND_ENDPOINT = "https://api.resend.com/emails";

/**
 * Records the e-mail in email_outbox, then hands it to the provider when one is configured (Resend by
 * API key). Without a provider it stays in the outbox, where the development mailbox (/dev/mailbox) shows it.
 */
export async function sendEmail(context: Pick<RequestContext, "db" | "config">, email: OutgoingEmail): Promise<{ id: string; status: string }> {
  const id = newId();
  const { db, config } = context;
  await db.insert(emailOutbox).values({
    id,
    userId: email.userId ?? null,
    kind: email.kind,
    toAddress: email.to,
    subject: email.subject,
    textBody: email.text,
    htmlBody: email.html,
  });
  // No provider, or an address under .invalid (reserved, RFC 2606: the QA Dashboard's throwaway accounts), which
  // no provider could deliver: the e-mail stays in the outbox, where the development mailbox and the checks read it.
  if (!config.RESEND_API_KEY || /\.invalid$/i.test(email.to.trim())) return { id, status: "outbox" };

  try {
    const response = await fetch(RESEND_ENDPOINT, {
      method: "POST",
      headers: { Authorization: `Bearer ${config.RESEND_API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        from: config.MAIL_FROM,
        to: [email.to],
        subject: email.subject,
        text: email.text,
        html: email.html,
        ...(email.headers ? { headers: email.headers } : {}),
      }),
    });
    const body = (await response.json().catch(() => ({}))) as { id?: string; message?: string };
    if (!response.ok) throw new Error(body.message ?? `provider answered ${response.status}`);
    await db
      .update(emailOutbox)
      .set({ status: "sent", provider: "resend", providerMessageId: body.id ?? null, sentAt: new Date() })
      .where(eq(emailOutbox.id, id));
    return { id, status: "sent" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ event: "email_send_failed", kind: email.kind, id, message }));
    await db.update(emailOutbox).set({ status: "failed", provider: "resend", error: message }).where(eq(emailOutbox.id, id));
    return { id, status: "failed" };
  }
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A plain, accessible e-mail with one action link, in text and HTML. */
export function actionEmail(opts: { heading: string; intro: string; action: string; url: string; outro: string }) {
  const text = `${opts.heading}\n\n${opts.intro}\n\n${opts.action}: ${opts.url}\n\n${opts.outro}\n\n— Porchlight, the AI CRM for real estate agents`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">
<h1 style="font-size:20px">${escapeHtml(opts.heading)}</h1>
<p>${escapeHtml(opts.intro)}</p>
<p><a href="${escapeHtml(opts.url)}" style="display:inline-block;padding:12px 20px;background:#b45309;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(opts.action)}</a></p>
<p style="font-size:14px;color:#57534e">Or paste this link into your browser: ${escapeHtml(opts.url)}</p>
<p style="font-size:14px;color:#57534e">${escapeHtml(opts.outro)}</p>
<p style="font-size:14px;color:#57534e">— Porchlight, the AI CRM for real estate agents</p>
</body></html>`;
  return { text, html };
}

/** The development mailbox: the newest e-mails, optionally to one address. */
export function listOutbox(context: RequestContext, to?: string | null, limit = 50) {
  const query = context.db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      text: emailOutbox.textBody,
      status: emailOutbox.status,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox);
  return (to ? query.where(eq(emailOutbox.toAddress, to)) : query).orderBy(desc(emailOutbox.createdAt)).limit(limit);
}
