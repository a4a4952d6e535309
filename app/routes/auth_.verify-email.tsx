import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { redirectWithToast } from "~/lib/toast.server";
import { resendVerification } from "~/modules/auth/accounts.server";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { requireUser } from "~/modules/auth/guards.server";
import { refuse } from "~/lib/intents.server";
import { formWideError } from "~/lib/action-result";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, { allowUnverified: true });
  if (user.emailVerified) throw redirect("/dashboard");
  return { email: user.email, devMailbox: context.config.isDev };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context, { allowUnverified: true });
  const result = await resendVerification(context, request, user.id);
  if (!result.ok) return refuse("resend", { form: result.message.description }, 429);
  if (result.alreadyVerified) return redirect("/dashboard");
  return redirectWithToast(context, "/auth/verify-email", {
    title: "Link sent",
    description: `We sent a new confirmation link to ${user.email}.`,
    variant: "success",
  });
}

export default function VerifyEmailPage() {
  const { email, devMailbox } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <AuthLayout
      title="Confirm your e-mail"
      intro={
        <p>
          We sent a confirmation link to <strong className="text-stone-900 dark:text-stone-100">{email}</strong>. Open it to finish setting up your
          account. The link works once and expires in 24 hours.
        </p>
      }
    >
      <Form method="post" className="flex flex-col gap-3">
        {formWideError(actionData) ? (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {formWideError(actionData)}
          </p>
        ) : null}
        <Button type="submit" variant="secondary" busy={navigation.state === "submitting"} busyLabel="Sending…">
          Send a new link
        </Button>
      </Form>
      {devMailbox ? (
        <p className="mt-6 rounded-lg border border-dashed border-brand-600 p-3 text-sm">
          Running locally: e-mails are not sent, they wait in the{" "}
          <Link to="/dev/mailbox" className="font-semibold text-brand-700 underline dark:text-brand-400">
            development mailbox
          </Link>
          .
        </p>
      ) : null}
      <Form method="post" action="/auth/signout" className="mt-6">
        <button type="submit" className="text-sm text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
          Use a different account (sign out)
        </button>
      </Form>
    </AuthLayout>
  );
}
