import { convert } from "html-to-text";
import PostalMime from "postal-mime";
import type { MailInput } from "./parse";

// A lead e-mail as it arrives (raw MIME, any of plain text, HTML, quoted-printable, base64, encoded-word headers, a
// forward with the portal's message inside), read with postal-mime into what the parsers need. An HTML-only e-mail is
// converted to text: the parsers read text, and the agent reads the kept copy as text, never as HTML.

/** The most of an e-mail's text kept with it (a lead e-mail is a few kilobytes; a long thread is cut). */
const BODY_MAX = 60_000;

export interface LeadMail {
  input: MailInput;
  messageId: string | null;
  /** The e-mail's Date: when the lead asked, for speed to lead. */
  sentAt: Date | null;
  /** The receiving server's verdicts (SPF, DKIM, DMARC), "none" where it gave none. */
  auth: { spf: string; dkim: string; dmarc: string };
  /** Sent by a machine on its own (Auto-Submitted other than "no", RFC 3834): an out-of-office, a notification. */
  autoSubmitted: boolean;
  /** A mail system's report on an e-mail (a bounce): multipart/report with delivery-status, or from the mailer daemon. */
  deliveryReport: boolean;
}

export async function readMail(raw: ArrayBuffer | string): Promise<LeadMail> {
  const email = await PostalMime.parse(raw, { maxNestingDepth: 20, maxHeadersSize: 64 * 1024 });
  const text = email.text?.trim() ? email.text : email.html ? htmlText(email.html) : "";
  const from = email.from && "address" in email.from && email.from.address ? email.from : { name: "", address: "" };
  const reply = email.replyTo?.find((a) => a.address);
  const date = email.date ? new Date(email.date) : null;
  return {
    input: {
      from: { name: from.name ?? "", address: (from.address ?? "").toLowerCase() },
      replyTo: reply?.address ? { name: reply.name ?? "", address: reply.address.toLowerCase() } : null,
      subject: (email.subject ?? "").slice(0, 500),
      text: text.slice(0, BODY_MAX),
    },
    messageId: email.messageId?.slice(0, 500) ?? null,
    sentAt: date && !Number.isNaN(date.getTime()) ? date : null,
    auth: authResults(email.headers),
    autoSubmitted: isAutoSubmitted(email.headers.find((h) => h.key === "auto-submitted")?.value),
    deliveryReport:
      isMailSystem(from.address ?? "") ||
      /^multipart\/report\b[^]*report-type="?delivery-status/i.test(email.headers.find((h) => h.key === "content-type")?.value ?? ""),
  };
}

/** Auto-Submitted: auto-replied, auto-generated, auto-notified… ("no", or none, is a person's). */
function isAutoSubmitted(value: string | undefined): boolean {
  const word = value?.split(";")[0]?.trim().toLowerCase();
  return !!word && word !== "no";
}

/** The address a mail system reports a delivery from (mailer-daemon@…, postmaster@…). */
export function isMailSystem(address: string): boolean {
  return /^(mailer-daemon|postmaster)@/i.test(address.trim());
}

/** HTML as text: tables as rows of cells, links with their address, images and styles left out. */
function htmlText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { hideLinkHrefIfSameAsText: true, linkBrackets: ["<", ">"] } },
      { selector: "img", format: "skip" },
      { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false, maxColumnWidth: 2_000 } },
      { selector: "h1", options: { uppercase: false } },
      { selector: "h2", options: { uppercase: false } },
      { selector: "h3", options: { uppercase: false } },
    ],
  });
}

/**
 * SPF, DKIM and DMARC as the receiving server recorded them: Cloudflare Email Routing's Authentication-Results (or
 * its ARC copy), else Received-SPF for SPF. Recorded with each e-mail, not acted on: a lead e-mail reaches only a
 * secret address, and a forward from the agent's own mailbox often fails the portal's alignment.
 */
function authResults(headers: { key: string; value: string }[]): LeadMail["auth"] {
  const found = { spf: "none", dkim: "none", dmarc: "none" };
  const results = headers.filter((h) => h.key === "authentication-results" || h.key === "arc-authentication-results").map((h) => h.value);
  for (const key of ["spf", "dkim", "dmarc"] as const) {
    for (const value of results) {
      const match = new RegExp(`\\b${key}=([a-z]+)`, "i").exec(value);
      if (match) {
        found[key] = match[1]!.toLowerCase();
        break;
      }
    }
  }
  if (found.spf === "none") {
    const spf = headers.find((h) => h.key === "received-spf")?.value;
    const verdict = spf ? /^\s*([a-z]+)/i.exec(spf)?.[1] : undefined;
    if (verdict) found.spf = verdict.toLowerCase();
  }
  return found;
}
