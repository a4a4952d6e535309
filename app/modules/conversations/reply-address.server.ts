import { HOME_SHARD } from "~/lib/shards.server";

// The reply address of an e-mail sent as "Agent via Porchlight" (ADR 0071): `reply-<key>@<INTAKE_DOMAIN>`, one per
// e-mail, so a reply names the conversation it belongs to. The key is lower-case base 32 (some mail systems fold an
// address's case) and names its database like an intake key (`s<n>_`, ADR 0060), so the reply is routed before any read.

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const LENGTH = 24;
const PREFIX = "reply-";
const KEY = /^(?:s(\d{1,3})_)?([a-z2-7]{24})$/;

/** A new reply key for an e-mail of an account on shard `n` (120 random bits). */
export function newReplyKey(n: number): string {
  const body = Array.from(crypto.getRandomValues(new Uint8Array(LENGTH)), (b) => ALPHABET[b & 31]).join("");
  return n === HOME_SHARD ? body : `s${n}_${body}`;
}

/** The address replies to the e-mail with this key go to. */
export function replyAddress(key: string, domain: string): string {
  return `${PREFIX}${key}@${domain}`;
}

/** The key and its shard when `address` is a reply address on `domain` (any case, a +tag ignored), else null. */
export function readReplyAddress(address: string, domain: string): { key: string; shard: number } | null {
  const [local = "", host = ""] = address.trim().toLowerCase().split("@");
  if (host !== domain.toLowerCase() || !local.startsWith(PREFIX)) return null;
  const key = local.slice(PREFIX.length).split("+")[0]!;
  const match = KEY.exec(key);
  return match ? { key, shard: match[1] ? Number(match[1]) : HOME_SHARD } : null;
}
