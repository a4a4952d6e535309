import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { redirectWithToast } from "~/lib/toast.server";
import { resetPassword } from "~/modules/auth/accounts.server";
import { ResetPasswordSchema } from "~/modules/auth/auth.schema";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { NewPasswordFields } from "~/modules/auth/components/NewPasswordFields";
import { peekToken } from "~/modules/auth/tokens.server";
import { readForm } from "~/lib/body.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password — Porchlight" }];

const REASONS = {
  invalid: "This reset link is not valid.",
  expired: "This reset link has expired.",
  used: "This reset link was already used.",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await peekToken(context, token, "reset_password");
  return { token, problem: check.ok ? null : REASONS[check.reason] };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = ResetPasswordSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return data({ field: String(issue.path[0]), error: issue.message }, { status: 400 });
  }
  const result = await resetPassword(context, request, parsed.data.token, parsed.data.password);
  if (!result.ok) return data({ field: "token", error: REASONS[result.reason] }, { status: 400 });
  return redirectWithToast(context, "/auth", {
    title: "Password changed",
    description: "Sign in with your new password. Every other device has been signed out.",
    variant: "success",
  });
}

export default function ResetPasswordPage() {
  const { token, problem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const tokenError = problem ?? (actionData?.field === "token" ? actionData.error : null);
  if (tokenError) {
    return (
      <AuthLayout title="Reset link problem">
        <p role="alert">{tokenError}</p>
        <Link to="/auth/forgot" className="mt-6 inline-block font-medium text-brand-700 underline dark:text-brand-400">
          Ask for a new link
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Choose a new password">
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields errors={actionData?.field ? { [actionData.field]: actionData.error } : {}} />
        <Button type="submit" busy={navigation.state === "submitting"} busyLabel="Saving…">
          Save new password
        </Button>
      </Form>
    </AuthLayout>
  );
}
