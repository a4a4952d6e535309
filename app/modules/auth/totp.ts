import { encodeBase32NoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { timingSafeEqual } from "~/lib/crypto";

// Authenticator app codes (RFC 6238): HMAC-SHA-1, 6 digits, 30-second steps, a code of the step before or after
// accepted too (a phone's clock a little off, a code typed as it changed). @oslojs/otp computes the codes (ADR 0074);
// which step a code matched is worked out here, because a code is good only for a step later than the last one used.

const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps either side of now whose codes are accepted. */
const TOTP_WINDOW = 1;
/** 160 bits, the size RFC 4226 recommends for an HMAC-SHA-1 key. */
export const TOTP_SECRET_BYTES = 20;

/** The 30-second step an instant falls in. */
export const totpStep = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);

/** The code of one step (`digits` 6 to 8: the RFC's test vectors are 8 digits). */
export const totpCode = (key: Uint8Array, step: number, digits = TOTP_DIGITS) => generateHOTP(key, BigInt(step), digits);

/**
 * The step `code` belongs to, among now's and its neighbours, when it is later than `lastStep` (the last code
 * accepted); null for a wrong, reused or older code. Every candidate is compared, in constant time.
 */
export function matchTotp(key: Uint8Array, code: string, nowMs: number, lastStep: number | null): number | null {
  const typed = new TextEncoder().encode(code);
  const current = totpStep(nowMs);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const good = timingSafeEqual(typed, new TextEncoder().encode(totpCode(key, step)));
    if (good && (lastStep === null || step > lastStep)) matched = step;
  }
  return matched;
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export const totpUri = (key: Uint8Array, accountName: string) => createTOTPKeyURI("Porchlight", accountName, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);

/** The secret to type in by hand: base32 in groups of four ("JBSW Y3DP …"). */
export const totpSecretGroups = (key: Uint8Array) =>
  encodeBase32NoPadding(key)
    .match(/.{1,4}/g)!
    .join(" ");

/** Six digits, spaces allowed (apps show "123 456"). */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
