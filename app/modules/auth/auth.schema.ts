import * as z from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password";

import { AUTH_MESSAGES, EMAIL_PATTERN } from "./auth.messages";

export * from "./auth.messages";

export const EmailSchema = z
  .string()
  .trim()
  .max(254, AUTH_MESSAGES.invalidEmail.description)
  .regex(EMAIL_PATTERN, AUTH_MESSAGES.invalidEmail.description)
  .transform((email) => email.toLowerCase());

export const NewPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort.description)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

export const AuthFormSchema = z.object({
  mode: z.enum(["signin", "signup"]),
  email: EmailSchema,
  // Sign-in accepts any stored password; length rules apply to new passwords only.
  password: z.string().min(1, "Please enter your password.").max(1024),
  redirectTo: z.string().optional(),
  // Sign-up only: the browser's IANA timezone, filled in by the page's script. Checked against the supported
  // zones when the account is made (any other value falls back to the default), so it never fails the form.
  timezone: z.string().optional(),
});

export const ResetRequestSchema = z.object({ email: EmailSchema });

export const ResetPasswordSchema = z
  .object({ token: z.string().min(1), password: NewPasswordSchema, confirm: z.string() })
  .refine((value) => value.password === value.confirm, { message: "Passwords do not match.", path: ["confirm"] });

export const ChangePasswordSchema = z
  .object({ currentPassword: z.string().min(1, "Enter your current password."), password: NewPasswordSchema, confirm: z.string() })
  .refine((value) => value.password === value.confirm, { message: "Passwords do not match.", path: ["confirm"] });

/** What the "Sign out everywhere?" dialog sends as `confirm`: without it the server signs nothing out (400). */
export const SIGN_OUT_EVERYWHERE_CONFIRM = "everywhere";
