import type { ActionFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { requestPasswordReset } from "~/modules/auth/accounts.server";
import { AUTH_MESSAGES, ResetRequestSchema } from "~/modules/auth/auth.schema";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { readForm } from "~/lib/body.server";
import { refuse } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Reset your password — Porchlight" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = ResetRequestSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return refuse("forgot", { email: AUTH_MESSAGES.invalidEmail.description });
  const result = await requestPasswordReset(context, request, parsed.data.email);
  if (!result.ok) return refuse("forgot", { email: result.message.description }, 429);
  return { ok: true as const, intent: "forgot" };
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  if (actionData?.ok) {
    return (
      <AuthLayout title="Check your e-mail">
        <p role="status">If an account exists for that address, a link to reset its password is on its way. It works once and expires in 1 hour.</p>
        <Link to="/auth" className="mt-6 inline-block font-medium text-brand-700 underline dark:text-brand-400">
          Back to sign in
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Reset your password" intro={<p>Enter your account's e-mail and we will send you a link to choose a new password.</p>}>
      <Form method="post" className="flex flex-col gap-4">
        <Field
          label="Email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          error={actionData && !actionData.ok ? actionData.error : undefined}
        />
        <Button type="submit" busy={navigation.state === "submitting"} busyLabel="Sending…">
          Send reset link
        </Button>
      </Form>
      <Link to="/auth" className="mt-6 inline-block text-sm text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
        Back to sign in
      </Link>
    </AuthLayout>
  );
}
