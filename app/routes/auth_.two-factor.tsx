import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { readForm } from "~/lib/body.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { AUTH_MESSAGES, type AuthMessage } from "~/modules/auth/auth.messages";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { PasskeySignIn } from "~/modules/auth/components/PasskeySignIn";
import { getUser } from "~/modules/auth/guards.server";
import { completeSecondFactor, secondStepChoices } from "~/modules/auth/second-factor.server";

// The second step of sign-in (ADR 0074): the password was right; a passkey, an authenticator code or a recovery code
// finishes signing in. Without a pending sign-in (none, expired or used) the page sends the browser back to /auth.

export const meta: MetaFunction = () => [{ title: "Confirm it's you — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getUser(request, context)) throw redirect("/dashboard");
  const choices = await secondStepChoices(context, request);
  if (!choices) throw await redirectWithToast(context, "/auth", { ...AUTH_MESSAGES.secondStepExpired, variant: "destructive" });
  return choices;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const factor =
    intent === "passkey"
      ? { kind: "passkey" as const, response: String(form.get("response") ?? "") }
      : { kind: "code" as const, code: String(form.get("code") ?? "") };
  const result = await completeSecondFactor(context, request, factor);
  if (result.ok) {
    const headers = new Headers();
    for (const cookie of result.setCookie) headers.append("Set-Cookie", cookie);
    return redirectWithToast(context, safeRedirect(result.redirectTo), { ...AUTH_MESSAGES.signedIn, variant: "success" }, headers);
  }
  return data<{ message: AuthMessage; restart: boolean }>({ message: result.message, restart: Boolean(result.restart) }, { status: result.status });
}

export default function TwoFactorPage() {
  const { passkey, totp } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  return (
    <AuthLayout title="Confirm it's you" intro={<p>Your password was right. One more step: your passkey, or a code.</p>}>
      {answer ? (
        <div
          role="alert"
          className="mb-6 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <p className="font-semibold">{answer.message.title}</p>
          <p>{answer.message.description}</p>
          {answer.restart ? (
            <Link to="/auth" className="mt-2 inline-block font-medium underline">
              Back to sign in
            </Link>
          ) : null}
        </div>
      ) : null}
      {passkey ? <PasskeySignIn busy={sending && navigation.formData?.get("intent") === "passkey"} /> : null}
      <Form method="post" className={`flex flex-col gap-4 ${passkey ? "mt-8 border-t border-stone-200 pt-6 dark:border-stone-800" : ""}`}>
        <input type="hidden" name="intent" value="code" />
        <Field
          label={totp ? "Code from your authenticator app, or a recovery code" : "Recovery code"}
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={20}
          required
          hint={totp ? "6 digits from the app, or a recovery code like abcde-23456." : "One of the codes you saved, like abcde-23456."}
        />
        <Button
          type="submit"
          variant={passkey ? "secondary" : "primary"}
          busy={sending && navigation.formData?.get("intent") === "code"}
          busyLabel="Checking…"
        >
          Confirm with code
        </Button>
      </Form>
      <Link to="/auth" className="mt-6 inline-block text-sm text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
        Cancel and sign in again
      </Link>
    </AuthLayout>
  );
}
