import { desc, eq } from "drizzle-orm";
import type { EmailStatus } from "~/db/enums";
import { emailOutbox } from "~/db/schema";
import type { RequestContext } from "./context.server";
import { newId } from "./crypto";
import { createDb } from "~/db/client.server";
import { shardDatabases, shardTag } from "./shards.server";

export interface OutgoingEmail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  userId?: string | null;
  /** Extra headers for the provider, e.g. List-Unsubscribe (kept on the outbox row for the queue's consumer). */
  headers?: Record<string, string>;
  /** Sent for an agent: shown as "<fromName> via Porchlight" from Porchlight's address, replies going to `replyTo`. */
  fromName?: string;
  replyTo?: string;
  /**
   * The e-mail's idempotency key, used as its outbox id: sent again under the same key (a queue consumer's retry),
   * it is one e-mail. Without one each call is a new e-mail.
   */
  key?: string;
}

/**
 * Records the e-mail in email_outbox (status queued) and puts its id on the e-mail queue; the queue's consumer hands
 * it to the provider, retries a refusal with backoff and marks it dead after the last retry (ADR 0056,
 * app/modules/email/delivery.server.ts). The row is written first and is the delivery's idempotency record. Should
 * the queue refuse the message, the row is dead at once (the Operations Center lists it, and an admin can send it again).
 */
export async function sendEmail(context: Pick<RequestContext, "db" | "config">, email: OutgoingEmail): Promise<{ id: string; status: EmailStatus }> {
  const id = email.key ?? newId();
  const { db, config } = context;
  const written = await db
    .insert(emailOutbox)
    .values({
      id,
      userId: email.userId ?? null,
      kind: email.kind,
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html,
      headers: email.headers ?? null,
      fromName: email.fromName ?? null,
      replyTo: email.replyTo ?? null,
      status: "queued",
    })
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id });
  if (written.length === 0) {
    // Written before under this key. Still queued, its message may not have reached the queue (the sender stopped
    // in between): it goes on again, and the consumer's claim sends it once whichever message comes first.
    const [existing] = await db.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.id, id));
    if (existing?.status !== "queued") return { id, status: existing?.status ?? "dead" };
  }
  try {
    // The row is in the account's database (ADR 0060); the message names it so the consumer reads the same one.
    await config.emailQueue.send({ outboxId: id, ...shardTag(db.$client) });
    return { id, status: "queued" };
  } catch (error) {
    const message = `not queued: ${error instanceof Error ? error.message : String(error)}`;
    console.error(JSON.stringify({ event: "email_enqueue_failed", kind: email.kind, id, message }));
    const now = new Date();
    await db.update(emailOutbox).set({ status: "dead", error: message, deadAt: now, lastAttemptAt: now }).where(eq(emailOutbox.id, id));
    return { id, status: "dead" };
  }
}

/**
 * The From of an e-mail sent for an agent: their name, "via Porchlight", at Porchlight's own address (`mailFrom`'s),
 * never the agent's: Porchlight may not send as their domain, and a receiver checking SPF and DKIM would refuse it.
 */
export function fromFor(mailFrom: string, name: string | null): string {
  if (!name) return mailFrom;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const display = `${name
    .replace(/["\\\r\n<>]/g, "")
    .trim()
    .slice(0, 60)} via Porchlight`;
  return `"${display}" <${address}>`;
}

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A personal e-mail's HTML (one an agent writes to a contact): its paragraphs as written, and an optional small print
 * (why they get it, a postal address) with an unsubscribe link.
 */
export function personalHtml(body: string, footer?: { lines: string[]; unsubscribe?: string }): string {
  const paragraphs = body
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
  const small = footer
    ? `<p style="font-size:13px;color:#57534e">${footer.lines.map(escapeHtml).join("<br>")}${
        footer.unsubscribe ? ` <a href="${escapeHtml(footer.unsubscribe)}">Unsubscribe</a>` : ""
      }</p>`
    : "";
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">${paragraphs}${small}</body></html>`;
}

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

/** The development mailbox: the newest e-mails, optionally to one address, from every account database (ADR 0060). */
export async function listOutbox(context: RequestContext, to?: string | null, limit = 50) {
  const perShard = await Promise.all(
    shardDatabases(context.cloudflare.env).map((d1) => {
      const query = createDb(d1)
        .select({
          id: emailOutbox.id,
          to: emailOutbox.toAddress,
          subject: emailOutbox.subject,
          fromName: emailOutbox.fromName,
          replyTo: emailOutbox.replyTo,
          text: emailOutbox.textBody,
          status: emailOutbox.status,
          createdAt: emailOutbox.createdAt,
        })
        .from(emailOutbox);
      return (to ? query.where(eq(emailOutbox.toAddress, to)) : query).orderBy(desc(emailOutbox.createdAt)).limit(limit);
    }),
  );
  return perShard
    .flat()
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, limit);
}
