import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { PublicHeader } from "~/components/PublicHeader";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { PasswordField } from "~/components/ui/PasswordField";
import { toast } from "~/components/ui/Toaster";
import { seo } from "~/lib/seo";
import { redirectWithToast } from "~/lib/toast.server";
import { signIn, signUp } from "~/modules/auth/accounts.server";
import { AUTH_MESSAGES, EMAIL_PATTERN, HONEYPOT_FIELD, type AuthMessage } from "~/modules/auth/auth.messages";
import { AuthFormSchema } from "~/modules/auth/auth.schema";
import { registerClientAttempt } from "~/modules/auth/client-attempts";
import { getUser, VERIFY_EMAIL_PATH } from "~/modules/auth/guards.server";
import { PASSWORD_MIN_LENGTH } from "~/modules/auth/password";
import { readForm } from "~/lib/body.server";
import { safeRedirect } from "~/lib/safe-redirect";

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

// The same words the server answers with (NewPasswordSchema), shown as the agent types.
const TOO_SHORT: AuthMessage = { title: "Weak Password", description: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` };

type ActionResult = { message: AuthMessage; field?: "email" | "password"; mode: "signin" | "signup" };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const mode = form.get("mode") === "signup" ? "signup" : "signin";
  const reply = (message: AuthMessage, status: number, field?: "email" | "password") =>
    data<ActionResult>({ message, field, mode }, { status });

  if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") return reply(AUTH_MESSAGES.honeypot, 400);
  const parsed = AuthFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.path[0] === "email") return reply(AUTH_MESSAGES.invalidEmail, 400, "email");
    return reply({ title: "Authentication Error", description: issue.message }, 400, "password");
  }

  try {
    const { email, password, redirectTo, timezone } = parsed.data;
    const result = mode === "signup" ? await signUp(context, request, { email, password, timezone }) : await signIn(context, request, { email, password });
    if (!result.ok) return reply(result.message, result.status, result.field);
    const headers = new Headers();
    for (const cookie of result.setCookie) headers.append("Set-Cookie", cookie);
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
  const [mode, setMode] = useState<"signin" | "signup">(params.get("mode") === "signup" ? "signup" : "signin");
  const [clientError, setClientError] = useState<{ field?: "email" | "password"; message: AuthMessage } | null>(null);
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [timezone, setTimezone] = useState("");
  useEffect(() => {
    try {
      setTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "");
    } catch {
      // An old browser without time zone support: the server uses the default.
    }
  }, []);

  useEffect(() => {
    if (actionData) toast({ ...actionData.message, variant: "destructive" });
  }, [actionData]);

  const error = clientError ?? (actionData && actionData.mode === mode ? actionData : null);
  const isSignup = mode === "signup";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fail = (message: AuthMessage, field?: "email" | "password") => {
      setClientError({ message, field });
      toast({ ...message, variant: "destructive" });
    };
    if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") return fail(AUTH_MESSAGES.honeypot);
    if (!EMAIL_PATTERN.test(String(form.get("email") ?? "").trim())) return fail(AUTH_MESSAGES.invalidEmail, "email");
    if (isSignup && String(form.get("password") ?? "").length < PASSWORD_MIN_LENGTH) return fail(TOO_SHORT, "password");
    if (!registerClientAttempt(window.sessionStorage)) return fail(AUTH_MESSAGES.tooManyAttempts);
    setClientError(null);
    submit(event.currentTarget);
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 pb-16">
        <h1 className="text-3xl font-bold">{isSignup ? "Create your account" : "Sign in to Porchlight"}</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          {isSignup ? "Start with your e-mail and a password. Your 14-day trial starts after you confirm your e-mail." : "Welcome back. Your pipeline is waiting."}
        </p>
        <Form ref={formRef} method="post" replace onSubmit={onSubmit} noValidate className="mt-8 flex flex-col gap-4" aria-describedby={error ? "auth-error" : undefined}>
          <input type="hidden" name="mode" value={mode} />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          {/* The browser's timezone becomes the new account's; the server checks it (and falls back without it). */}
          {isSignup ? <input type="hidden" name="timezone" value={timezone} /> : null}
          {/* Honeypot: hidden from people and screen readers; bots fill it in. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
            <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          <Field
            label="Email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            error={error?.field === "email" ? error.message.description : undefined}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete={isSignup ? "new-password" : "current-password"}
            required
            minLength={isSignup ? PASSWORD_MIN_LENGTH : undefined}
            tooShortMessage={TOO_SHORT.description}
            hint={isSignup ? `At least ${PASSWORD_MIN_LENGTH} characters. A short sentence works well.` : undefined}
            error={error?.field === "password" ? error.message.description : undefined}
          />
          {error && !error.field ? (
            <div id="auth-error" role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
              <p className="font-semibold">{error.message.title}</p>
              <p>{error.message.description}</p>
            </div>
          ) : null}
          <Button type="submit" busy={busy} busyLabel={isSignup ? "Creating account…" : "Signing in…"}>
            {isSignup ? "Create account" : "Sign in"}
          </Button>
        </Form>
        <div className="mt-6 flex flex-col items-center gap-3 text-sm">
          <button
            type="button"
            className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-400"
            onClick={() => {
              setMode(isSignup ? "signin" : "signup");
              setClientError(null);
            }}
          >
            {isSignup ? "Have an account? Sign in" : "Need an account? Sign up"}
          </button>
          {!isSignup ? (
            <Link to="/auth/forgot" className="text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
              Forgot your password?
            </Link>
          ) : null}
        </div>
      </main>
    </div>
  );
}
