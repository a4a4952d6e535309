// Reading a Gmail thread (users.threads.get, format=full) into the messages Porchlight shows. Pure.

export interface ThreadMessage {
  id: string;
  from: string;
  to: string;
  /** When Gmail received or sent it (ms since the epoch). */
  date: number;
  subject: string;
  /** The text/plain part, else the HTML part's text. */
  text: string;
  /** Sent from the connected mailbox (Gmail's SENT label, or from its address). */
  isFromMe: boolean;
}

/** The part of Gmail's message resource this reads. */
interface GmailPart {
  mimeType?: string;
  headers?: { name: string; value: string }[];
  body?: { data?: string; size?: number };
  parts?: GmailPart[];
}
export interface GmailMessageResource {
  id: string;
  threadId?: string;
  labelIds?: string[];
  internalDate?: string;
  payload?: GmailPart;
}

function decodeBase64url(data: string, charset: string): string {
  const binary = atob(data.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

function charsetOf(part: GmailPart): string {
  const type = part.headers?.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
  return /charset="?([\w-]+)"?/i.exec(type)?.[1] ?? "utf-8";
}

function findPart(part: GmailPart | undefined, mimeType: string): GmailPart | null {
  if (!part) return null;
  if (part.mimeType === mimeType && part.body?.data) return part;
  for (const child of part.parts ?? []) {
    const found = findPart(child, mimeType);
    if (found) return found;
  }
  return null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The readable text of an HTML body: no tags, scripts or styles; breaks where blocks end; entities decoded. */
export function htmlToPlainText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (whole, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A message's text: its text/plain part, else its HTML part without the markup. */
function messageText(payload: GmailPart | undefined): string {
  const plain = findPart(payload, "text/plain");
  if (plain) return decodeBase64url(plain.body!.data!, charsetOf(plain)).replace(/\r\n/g, "\n").trim();
  const html = findPart(payload, "text/html");
  return html ? htmlToPlainText(decodeBase64url(html.body!.data!, charsetOf(html))) : "";
}

/** The addr-spec inside "Name <addr>", lower case. */
function addressOf(value: string): string {
  return (/<([^>]+)>/.exec(value)?.[1] ?? value).trim().toLowerCase();
}

/** Decodes RFC 2047 encoded words ("=?UTF-8?B?…?=", "=?UTF-8?Q?…?=") in a header value. */
export function decodeHeaderText(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([\w-]+)\?([BbQq])\?([^?]*)\?=/g, (_whole, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === "B"
          ? Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
          : Uint8Array.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-Fa-f]{2})|([\s\S])/g, (_m, hex: string, ch: string) => (hex ? String.fromCharCode(Number.parseInt(hex, 16)) : ch)),
              (c) => c.charCodeAt(0),
            );
      try {
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return new TextDecoder().decode(bytes);
      }
    });
}

/** A thread's messages, oldest first, as Porchlight shows them; `me` is the connected mailbox's address. */
export function readThread(messages: readonly GmailMessageResource[], me: string): ThreadMessage[] {
  return messages
    .map((message) => {
      const header = (name: string) => message.payload?.headers?.find((h) => h.name.toLowerCase() === name)?.value ?? "";
      const from = decodeHeaderText(header("from"));
      return {
        id: message.id,
        from,
        to: decodeHeaderText(header("to")),
        date: Number(message.internalDate ?? 0),
        subject: decodeHeaderText(header("subject")),
        text: messageText(message.payload),
        isFromMe: (message.labelIds ?? []).includes("SENT") || addressOf(from) === me.toLowerCase(),
      };
    })
    .sort((a, b) => a.date - b.date);
}
