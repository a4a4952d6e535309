// The e-mail Porchlight hands Gmail to send: an RFC 5322 message, built here so the headers are exactly ours. Pure.
// Header values never carry a line break (no header injection); a non-ASCII subject or name is an RFC 2047 encoded
// word; bodies are UTF-8 in base64; with HTML the message is multipart/alternative (plain text first).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Further headers (e.g. List-Unsubscribe); never the ones this builder writes. */
  headers?: Record<string, string>;
  /** Gmail's thread to add the message to (a reply in a thread Porchlight started). */
  threadId?: string;
  /** The Message-ID answered, and the thread's References, for mail programs that thread by headers. */
  inReplyTo?: string;
  references?: string;
}

export class MailFormatError extends Error {
  override name = "MailFormatError";
}

const RESERVED = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "reply-to",
  "in-reply-to",
  "references",
  "message-id",
  "date",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
]);
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,76}$/;
// One address, as an agent's form or a contact record gives it: local@domain, nothing around it.
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
const encoder = new TextEncoder();

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64url of the message's UTF-8 bytes, as Gmail's `raw` wants it. */
export function toBase64url(text: string): string {
  return bytesToBase64(encoder.encode(text)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function noBreaks(name: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new MailFormatError(`The ${name} must be on one line.`);
  return value;
}

function address(name: string, value: string): string {
  const trimmed = noBreaks(name, value).trim();
  if (!ADDRESS.test(trimmed)) throw new MailFormatError(`The ${name} address is not an e-mail address: ${trimmed}`);
  return trimmed;
}

/**
 * RFC 2047 encoded words for text that is not plain ASCII: "=?UTF-8?B?…?=" of at most 75 characters each, split on
 * character boundaries, folded onto continuation lines. ASCII text is returned as it is.
 */
export function encodeHeaderText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  const words: string[] = [];
  let chunk: number[] = [];
  // 75 − "=?UTF-8?B?".length − "?=".length = 63 base64 characters: 45 bytes, whole characters only.
  for (const char of text) {
    const bytes = encoder.encode(char);
    if (chunk.length + bytes.length > 45) {
      words.push(`=?UTF-8?B?${bytesToBase64(Uint8Array.from(chunk))}?=`);
      chunk = [];
    }
    chunk.push(...bytes);
  }
  if (chunk.length) words.push(`=?UTF-8?B?${bytesToBase64(Uint8Array.from(chunk))}?=`);
  return words.join("\r\n ");
}

/** "Name <address>" with the name quoted or encoded as needed; just the address without a name. */
function mailbox(name: string | undefined, email: string): string {
  if (!name?.trim()) return email;
  const clean = noBreaks("sender's name", name.trim());
  const shown = /^[\x20-\x7e]*$/.test(clean) ? `"${clean.replace(/["\\]/g, "\\$&")}"` : encodeHeaderText(clean);
  return `${shown} <${email}>`;
}

/** RFC 5322's date: "Thu, 04 Mar 2027 09:05:00 +0000". */
export function rfc5322Date(at: number): string {
  const d = new Date(at);
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${days[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

function base64Body(text: string): string {
  const encoded = bytesToBase64(encoder.encode(text.replace(/\r?\n/g, "\r\n")));
  return encoded.match(/.{1,76}/g)?.join("\r\n") ?? "";
}

function part(type: "plain" | "html", text: string): string {
  return `Content-Type: text/${type}; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Body(text)}\r\n`;
}

export interface BuiltMessage {
  /** The whole message, CRLF line ends. */
  message: string;
  messageId: string;
}

/**
 * The RFC 5322 message for `mail` from `from` (the connected mailbox). `id` is random (the Message-ID's left part
 * and the MIME boundary), `now` the Date header: both inputs so the output is reproducible in tests.
 */
export function buildMessage(mail: OutgoingMail, from: { email: string; name?: string }, id: string, now: number): BuiltMessage {
  const messageId = `<${id}@${from.email.split("@")[1] ?? "porchlight.app"}>`;
  const headers: [string, string][] = [
    ["From", mailbox(from.name, address("sender", from.email))],
    ["To", address("recipient", mail.to)],
    ["Subject", encodeHeaderText(noBreaks("subject", mail.subject))],
    ["Date", rfc5322Date(now)],
    ["Message-ID", messageId],
  ];
  if (mail.replyTo) headers.push(["Reply-To", address("reply-to", mail.replyTo)]);
  if (mail.inReplyTo) headers.push(["In-Reply-To", noBreaks("In-Reply-To", mail.inReplyTo)]);
  if (mail.references) headers.push(["References", noBreaks("References", mail.references)]);
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase())) throw new MailFormatError(`The header ${name} cannot be set.`);
    headers.push([name, encodeHeaderText(noBreaks(name, value))]);
  }
  headers.push(["MIME-Version", "1.0"]);
  const head = headers.map(([name, value]) => `${name}: ${value}`).join("\r\n");
  if (mail.html === undefined) return { message: `${head}\r\n${part("plain", mail.text)}`, messageId };
  const boundary = `porchlight-${id.replace(/[^A-Za-z0-9]/g, "")}`;
  const body = [
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    part("plain", mail.text),
    `--${boundary}`,
    part("html", mail.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
  return { message: `${head}\r\n${body}`, messageId };
}
