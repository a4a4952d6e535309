import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { readForm } from "~/lib/body.server";
import { redirectWithToast } from "~/lib/toast.server";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { peekToken } from "~/modules/auth/tokens.server";
import { keepAccount } from "~/modules/data/account.server";
import { refuse } from "~/lib/intents.server";
import { formWideError } from "~/lib/action-result";

export const meta: MetaFunction = () => [{ title: "Keep my account — Porchlight" }, { name: "robots", content: "noindex" }];

// The link e-mailed when an account is deleted. Opening it changes nothing (mail scanners open links); the
// button does.

const REASONS = {
  invalid: "This link is not valid.",
  expired: "This link has expired: the account has been deleted.",
  used: "This link was already used.",
  gone: "This account is no longer scheduled for deletion, or has already been deleted.",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await peekToken(context, token, "keep_account");
  return { token, problem: check.ok ? null : REASONS[check.reason] };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = (await readForm(request)).get("token");
  const result = await keepAccount(context, typeof token === "string" ? token : "");
  if (!result.ok) return refuse("keep-account", { form: REASONS[result.reason] });
  return redirectWithToast(context, "/auth", {
    title: "Account kept",
    description: "Nothing will be deleted. Sign in to continue; start your subscription again from Settings → Billing.",
    variant: "success",
  });
}

export default function KeepAccountPage() {
  const { token, problem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const error = problem ?? formWideError(actionData);
  if (error) {
    return (
      <AuthLayout title="Keep my account">
        <p role="alert">{error}</p>
        <Link to="/auth" className="mt-6 inline-block font-medium text-brand-700 underline dark:text-brand-400">
          Go to sign in
        </Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Keep my account" intro={<p>Your account is closed and will be deleted. Keep it, and everything in it stays as it was.</p>}>
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <Button type="submit" busy={navigation.state === "submitting"} busyLabel="Keeping…">
          Keep my account
        </Button>
      </Form>
    </AuthLayout>
  );
}
