import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { PublicHeader } from "~/components/PublicHeader";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FIELD_ERROR_CLASS, FieldShell } from "~/components/ui/FieldShell";
import { useNonce } from "~/components/ui/nonce";
import { PasswordInput } from "~/components/ui/PasswordField";
import { StaticToast } from "~/components/ui/Toaster";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { redirectWithToast } from "~/lib/toast.server";
import { signIn, signUp } from "~/modules/auth/accounts.server";
import { AUTH_MESSAGES, HONEYPOT_FIELD, type AuthMessage } from "~/modules/auth/auth.messages";
import authFormScript from "~/modules/auth/auth-form.inline.ts?inline-script";
import { AuthFormSchema } from "~/modules/auth/auth.schema";
import { enhanceAuthForm } from "~/modules/auth/enhance-auth-form";
import { getUser, TWO_FACTOR_PATH, VERIFY_EMAIL_PATH } from "~/modules/auth/guards.server";
import { PASSWORD_MIN_LENGTH } from "~/modules/auth/password";
import { readForm } from "~/lib/body.server";
import { safeRedirect } from "~/lib/safe-redirect";

// Served without React (ADR 0011): the form posts natively and the server answers with the page again, its message
// and the e-mail filled in, or the redirect; a small inline script adds the browser-side checks and the password toggle.
export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Sign in",
    description: "Sign in to Porchlight, the AI CRM for real estate agents, or create an account to start your 14-day free trial.",
    path: "/auth",
  });

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getUser(request, context)) throw redirect("/dashboard");
  return null;
}

type ActionResult = { message: AuthMessage; field?: "email" | "password"; mode: "signin" | "signup"; email: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const mode = form.get("mode") === "signup" ? "signup" : "signin";
  // The page is rendered again with the answer and the e-mail filled in (the password never comes back).
  const email = String(form.get("email") ?? "").slice(0, 254);
  const reply = (message: AuthMessage, status: number, field?: "email" | "password") =>
    data<ActionResult>({ message, field, mode, email }, { status });

  if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") return reply(AUTH_MESSAGES.honeypot, 400);
  const parsed = AuthFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.path[0] === "email") return reply(AUTH_MESSAGES.invalidEmail, 400, "email");
    return reply({ title: "Authentication Error", description: issue.message }, 400, "password");
  }

  try {
    const { email, password, redirectTo, timezone } = parsed.data;
    const result =
      mode === "signup"
        ? await signUp(context, request, { email, password, timezone })
        : await signIn(context, request, { email, password, redirectTo });
    if (!result.ok) return reply(result.message, result.status, result.field);
    const headers = new Headers();
    for (const cookie of result.setCookie) headers.append("Set-Cookie", cookie);
    if (result.secondFactor) return redirect(TWO_FACTOR_PATH, { headers });
    return mode === "signup"
      ? redirectWithToast(context, VERIFY_EMAIL_PATH, { ...AUTH_MESSAGES.accountCreated, variant: "success" }, headers)
      : redirectWithToast(context, safeRedirect(redirectTo), { ...AUTH_MESSAGES.signedIn, variant: "success" }, headers);
  } catch (error) {
    console.error(JSON.stringify({ event: "auth_action_failed", mode, message: String(error) }));
    return reply(mode === "signup" ? AUTH_MESSAGES.signupFailed : AUTH_MESSAGES.signinFailed, 500);
  }
}

export default function AuthPage() {
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const nonce = useNonce();
  const formRef = useRef<HTMLFormElement>(null);
  // Served as a document, the inline script below does this; on a client-side visit from a page of the app (where
  // React inserts the script without running it), the same code starts here.
  useEffect(() => (formRef.current ? enhanceAuthForm(formRef.current) : undefined), []);
  const mode = actionData?.mode ?? (params.get("mode") === "signup" ? "signup" : "signin");
  const isSignup = mode === "signup";
  const error = actionData ?? null;
  const other = new URLSearchParams(params);
  if (isSignup) other.delete("mode");
  else other.set("mode", "signup");

  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 pb-16">
        <h1 className="text-3xl font-bold">{isSignup ? "Create your account" : "Sign in to Porchlight"}</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          {isSignup
            ? "Start with your e-mail and a password. Your 14-day trial starts after you confirm your e-mail."
            : "Welcome back. Your pipeline is waiting."}
        </p>
        <form
          ref={formRef}
          method="post"
          noValidate
          data-auth-form=""
          data-error-class={FIELD_ERROR_CLASS}
          className="mt-8 flex flex-col gap-4"
          aria-describedby={error && !error.field ? "auth-error" : undefined}
        >
          <input type="hidden" name="mode" value={mode} />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          {/* The browser's timezone becomes the new account's (the script fills it in); the server checks it and
              falls back without it. */}
          {isSignup ? <input type="hidden" name="timezone" defaultValue="" /> : null}
          {/* Honeypot: hidden from people and screen readers; bots fill it in. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
            <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          <Field
            id="email"
            label="Email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            defaultValue={actionData?.email}
            error={error?.field === "email" ? error.message.description : undefined}
          />
          <FieldShell
            id="password"
            label="Password"
            hint={isSignup ? `At least ${PASSWORD_MIN_LENGTH} characters. A short sentence works well.` : undefined}
            error={error?.field === "password" ? error.message.description : undefined}
          >
            <PasswordInput
              name="password"
              type="password"
              autoComplete={isSignup ? "new-password" : "current-password"}
              required
              minLength={isSignup ? PASSWORD_MIN_LENGTH : undefined}
              invalid={error?.field === "password"}
              shown={false}
            />
          </FieldShell>
          <div
            id="auth-error"
            data-auth-alert=""
            role="alert"
            hidden={!error || Boolean(error.field)}
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            <p data-title="" className="font-semibold">
              {error && !error.field ? error.message.title : null}
            </p>
            <p data-description="">{error && !error.field ? error.message.description : null}</p>
          </div>
          <Button type="submit" data-busy-label={isSignup ? "Creating account…" : "Signing in…"}>
            {isSignup ? "Create account" : "Sign in"}
          </Button>
        </form>
        <div className="mt-6 flex flex-col items-center gap-3 text-sm">
          <Link
            reloadDocument
            to={`/auth${other.size ? `?${other}` : ""}`}
            className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-400"
          >
            {isSignup ? "Have an account? Sign in" : "Need an account? Sign up"}
          </Link>
          {!isSignup ? (
            <Link to="/auth/forgot" className="text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
              Forgot your password?
            </Link>
          ) : null}
        </div>
      </main>
      {actionData ? <StaticToast toast={{ id: "auth-answer", ...actionData.message, variant: "destructive" }} /> : null}
      {/* The script shows a copy of this for what the browser refuses before sending. */}
      <div id="auth-toast" hidden>
        <StaticToast toast={{ id: "auth-refused", title: "", description: " ", variant: "destructive" }} />
      </div>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: authFormScript }} />
    </div>
  );
}
