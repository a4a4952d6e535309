import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { PasswordField } from "~/components/ui/PasswordField";
import { readForm } from "~/lib/body.server";
import { formatDate } from "~/lib/format";
import { redirectWithToast } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guards.server";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { closeAccount } from "~/modules/data/account.server";
import { LEGAL } from "~/modules/marketing/legal";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { refuse } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Delete my account — Porchlight" }, { name: "robots", content: "noindex" }];

// Settings → Data → Delete my account. A page of its own, not a tab of Settings: an agent whose
// subscription has ended cannot open Settings, and may still close the account (the expired page links here).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, { allowUnverified: true });
  return { email: user.email };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context, { allowUnverified: true });
  const form = await readForm(request);
  const result = await closeAccount(context, request, user.id, form.get("password"));
  if (!result.ok) return refuse("close-account", { password: result.message }, result.status);
  const prefs = await getDisplayPreferences(context, user.id);
  return redirectWithToast(
    context,
    "/",
    {
      title: "Account deleted",
      description: `You are signed out everywhere. Everything will be deleted on ${formatDate(result.purgeAfter, prefs)}; until then the link we e-mailed you keeps the account.`,
      variant: "success",
    },
    { "Set-Cookie": result.setCookie },
  );
}

export default function DeleteAccountPage() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <AuthLayout title="Delete my account" intro={<p>Signed in as {email}.</p>}>
      <div className="flex flex-col gap-4 text-sm">
        <p className="text-base font-medium">When you delete your account:</p>
        <ul className="list-disc space-y-2 pl-5 text-stone-700 dark:text-stone-300">
          <li>your subscription is cancelled at once: no further charge, no renewal;</li>
          <li>every device signed in to it is signed out, and nobody can sign in to it;</li>
          <li>
            {LEGAL.dataKeptDays} days later every contact, deal, task, activity, setting and billing record of the account is deleted for good, as our{" "}
            <Link to="/terms" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
              terms
            </Link>{" "}
            say;
          </li>
          <li>until then, a link we e-mail you brings the account back as it was (the subscription stays cancelled).</li>
        </ul>
        <p>
          Want a copy first?{" "}
          <Link to="/settings?tab=data" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
            Export all your data
          </Link>{" "}
          before you go.
        </p>
      </div>
      <Form method="post" className="mt-6 flex flex-col gap-4">
        <p className="font-medium">Are you sure you want to delete your account? Enter your password to confirm.</p>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          error={actionData && !actionData.ok ? actionData.error : undefined}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Link
            to="/settings?tab=data"
            className="inline-flex min-h-11 items-center rounded-lg px-4 font-medium text-stone-700 underline-offset-4 hover:underline dark:text-stone-300"
          >
            Cancel
          </Link>
          <Button type="submit" variant="danger" busy={navigation.state === "submitting"} busyLabel="Deleting…">
            Delete my account
          </Button>
        </div>
      </Form>
    </AuthLayout>
  );
}
