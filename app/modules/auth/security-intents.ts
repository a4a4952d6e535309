/** The forms of Settings → Security (ADR 0074), one intent each; shared by the page and its server module. */
export const SECURITY_INTENTS = [
  "totp-start",
  "totp-confirm",
  "totp-cancel",
  "totp-off",
  "recovery-new",
  "passkey-add",
  "passkey-remove",
  "session-end",
] as const;
export type SecurityIntent = (typeof SECURITY_INTENTS)[number];
