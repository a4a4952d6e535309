import { newId } from "~/lib/crypto";
import type { UserId } from "~/lib/tenancy.server";
import { disconnectGmail, getGmailConnection, gmailAccessToken, type GmailConnectionSummary, type GmailDeps } from "./connection.server";
import { gmailApi, GmailError } from "./google.server";
import { buildMessage, MailFormatError, toBase64url, type OutgoingMail } from "./mime";
import { readThread, type GmailMessageResource, type ThreadMessage } from "./thread";

// The agent's own mailbox as a seam for the rest of Porchlight (compose, templates, the contact's e-mail log): send
// from it, read a thread Porchlight started, revoke. Gmail is the one implementation; Outlook (Microsoft Graph) would
// be a second behind the same interface (ADR 0069). Every call is the signed-in agent's, by their id.

export type { GmailConnectionSummary, GmailDeps, OutgoingMail, ThreadMessage };
export { getGmailConnection, GmailError, MailFormatError };

export interface SentMail {
  /** The provider's id of the sent message. */
  messageId: string;
  /** The provider's conversation id: store it to read the replies (Gmail's threadId, Graph's conversationId). */
  threadId: string;
  /** The RFC 5322 Message-ID as it went out, for In-Reply-To and References of a later reply. */
  rfcMessageId: string;
}

export interface Mailbox {
  readonly provider: "gmail";
  /** The address mail goes out from. */
  readonly address: string;
  send(mail: OutgoingMail & { fromName?: string }): Promise<SentMail>;
  /** The messages of a conversation Porchlight started (its id as `send` returned it), oldest first. */
  threadMessages(threadId: string): Promise<ThreadMessage[]>;
  /** Revokes Porchlight's access at the provider and forgets the connection; false when the provider was unreachable. */
  revoke(): Promise<boolean>;
}

/**
 * Calls the Gmail API with the agent's access token; when Gmail refuses a token that looked valid (revoked or rotated
 * at Google), refreshes once and tries again.
 */
async function asAgent<T>(deps: GmailDeps, userId: UserId, call: (token: string) => Promise<T>): Promise<T> {
  const { accessToken } = await gmailAccessToken(deps, userId);
  try {
    return await call(accessToken);
  } catch (error) {
    if (!(error instanceof GmailError) || error.code !== "needs_reconnect") throw error;
    return call((await gmailAccessToken(deps, userId, { force: true })).accessToken);
  }
}

const THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The agent's Gmail as a Mailbox, or null when they have not connected it. */
export async function openGmailMailbox(deps: GmailDeps, userId: UserId): Promise<Mailbox | null> {
  const connection = await getGmailConnection(deps.db, userId);
  if (!connection) return null;
  const address = connection.email;
  return {
    provider: "gmail",
    address,
    async send(mail) {
      if (mail.threadId !== undefined && !THREAD_ID.test(mail.threadId)) throw new MailFormatError("The thread id is not a Gmail thread id.");
      const built = buildMessage(mail, { email: address, name: mail.fromName }, newId(), Date.now());
      const sent = await asAgent(deps, userId, (token) =>
        gmailApi<{ id: string; threadId: string }>(deps.config, token, "messages/send", {
          method: "POST",
          json: { raw: toBase64url(built.message), ...(mail.threadId ? { threadId: mail.threadId } : {}) },
        }),
      );
      // Gmail may give the message its own Message-ID: the one a reply must point at is the one it kept.
      const kept = await asAgent(deps, userId, (token) =>
        gmailApi<GmailMessageResource>(deps.config, token, `messages/${encodeURIComponent(sent.id)}?format=metadata&metadataHeaders=Message-ID`),
      ).catch(() => null);
      const header = kept?.payload?.headers?.find((h) => h.name.toLowerCase() === "message-id")?.value;
      return { messageId: sent.id, threadId: sent.threadId, rfcMessageId: header ?? built.messageId };
    },
    async threadMessages(threadId) {
      if (!THREAD_ID.test(threadId)) throw new GmailError("not_found");
      const thread = await asAgent(deps, userId, (token) =>
        gmailApi<{ messages?: GmailMessageResource[] }>(deps.config, token, `threads/${threadId}?format=full`),
      );
      return readThread(thread.messages ?? [], address);
    },
    async revoke() {
      return (await disconnectGmail(deps, userId))?.revoked ?? false;
    },
  };
}

async function connected(deps: GmailDeps, userId: UserId): Promise<Mailbox> {
  const mailbox = await openGmailMailbox(deps, userId);
  if (!mailbox) throw new GmailError("not_connected");
  return mailbox;
}

/**
 * Sends `mail` from the agent's Gmail (in `mail.threadId`'s thread when given). Throws GmailError (not connected,
 * needs reconnecting, refused, unreachable: its message can be shown as it is) or MailFormatError (a bad address or
 * header in `mail`).
 */
export async function sendWithGmail(deps: GmailDeps, userId: UserId, mail: OutgoingMail & { fromName?: string }): Promise<SentMail> {
  return (await connected(deps, userId)).send(mail);
}

/** The messages of a Gmail thread Porchlight started for the agent (its id from sendWithGmail), oldest first. */
export async function threadMessages(deps: GmailDeps, userId: UserId, threadId: string): Promise<ThreadMessage[]> {
  return (await connected(deps, userId)).threadMessages(threadId);
}
