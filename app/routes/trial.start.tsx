import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { requireUser } from "~/modules/auth/guards.server";
import { decideBillingAccess } from "~/modules/billing/guard";
import { getSubscription } from "~/modules/billing/subscription.server";

export const meta: MetaFunction = () => [{ title: "Start your trial — Porchlight" }];

/** Where the billing guard sends a signed-in account without a subscription. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const decision = decideBillingAccess(await getSubscription(context, user.id));
  if (decision.allow) throw redirect("/dashboard");
  return { email: user.email };
}

export default function StartTrialPage() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <AuthLayout
      title="Start your 14-day free trial"
      intro={
        <p>
          Your account <strong className="text-stone-900 dark:text-stone-100">{email}</strong> is confirmed. The Solo Agent plan is
          $40 a month, or $32 a month billed yearly; the trial is free for 14 days and a card is required.
        </p>
      }
    >
      <p role="status" className="rounded-lg border border-stone-300 p-4 dark:border-stone-700">
        Online checkout is not switched on in this version of Porchlight yet, so a new account cannot start its trial here.
        Write to <a className="font-medium text-brand-700 underline dark:text-brand-400" href="mailto:hello@porchlight.app">hello@porchlight.app</a> and we will set it up.
      </p>
      <Form method="post" action="/auth/signout" className="mt-6">
        <button type="submit" className="text-sm text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
          Sign out
        </button>
      </Form>
    </AuthLayout>
  );
}
