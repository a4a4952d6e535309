// Texts and constants the browser needs too; no zod here, so the sign-in page stays light.
import { PASSWORD_MIN_LENGTH } from "./password";

// Texts from the product spec, section 8 (errors) and section 5 (validation).
export const AUTH_MESSAGES = {
  invalidEmail: { title: "Invalid Email", description: "Please enter a valid email address." },
  honeypot: { title: "Error", description: "Please try again later." },
  tooManyAttempts: { title: "Too Many Attempts", description: "Please wait a minute before trying again." },
  invalidCredentials: {
    title: "Authentication Error",
    description: "Invalid email or password. Please check your credentials and try again.",
  },
  signinFailed: { title: "Authentication Error", description: "Unable to sign in at this time. Please try again." },
  alreadyRegistered: {
    title: "Authentication Error",
    description: "An account with this email already exists. Try signing in instead.",
  },
  signupFailed: { title: "Authentication Error", description: "Unable to create account at this time. Please try again." },
  locked: {
    title: "Account Locked",
    description: "Too many failed sign-in attempts. Try again in 15 minutes, or reset your password to unlock your account now.",
  },
  accountDeleted: {
    title: "Account deleted",
    description: "This account was deleted and is waiting to be erased. We have e-mailed you a link to keep it, if you want it back.",
  },
  signedIn: { title: "Signed in", description: "Welcome back!" },
  // The second step of sign-in (ADR 0074).
  secondStepExpired: {
    title: "Sign in again",
    description: "This sign-in waited more than 5 minutes for its second step, or was already used. Enter your e-mail and password again.",
  },
  codeMalformed: {
    title: "Check the code",
    description: "Enter the 6-digit code from your authenticator app, or one of your recovery codes (like abcde-23456).",
  },
  codeRefused: {
    title: "Code not accepted",
    description: "That code is not right, or it was used already. Enter the code your app shows now, or a recovery code.",
  },
  passkeyRefused: { title: "Passkey not accepted", description: "That passkey could not be checked. Try it again, or use a code." },
  accountCreated: { title: "Account Created", description: "Please check your email to verify your account." },
  // The same words the server answers with (NewPasswordSchema), shown as the agent types.
  passwordTooShort: { title: "Weak Password", description: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` },
} as const;

export type AuthMessage = { title: string; description: string };

/**
 * The spec's "Please wait a minute" for a limit that lifts within a minute (sign-in); the hour-long limits
 * (sign-up, e-mailed links, checkout) say how long instead, or a retry after a minute would fail again.
 */
export function waitDescription(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return minutes <= 1 ? AUTH_MESSAGES.tooManyAttempts.description : `Please wait ${minutes} minutes before trying again.`;
}

export function tooManyAttempts(retryAfterSeconds: number): AuthMessage {
  return { title: AUTH_MESSAGES.tooManyAttempts.title, description: waitDescription(retryAfterSeconds) };
}

/** A basic address check (spec: "a basic address pattern"), the same in the browser and on the server. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Browser-side attempt limit (spec section 5): 5 attempts in 60 s, kept in sessionStorage. */
export const CLIENT_ATTEMPT_LIMIT = { key: "auth_attempts", max: 5, windowMs: 60_000 } as const;

/** The hidden field bots fill in. */
export const HONEYPOT_FIELD = "website_url";
