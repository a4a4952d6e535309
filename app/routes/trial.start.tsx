import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { requireUser } from "~/modules/auth/guards.server";
import { CHECKOUT_ERROR_TITLE, CHECKOUT_ERRORS, VERIFICATION_REQUIRED } from "~/modules/billing/billing.messages";
import { TURNSTILE_FIELD } from "~/modules/billing/turnstile";
import { turnstileSiteKey, verifyTurnstile } from "~/modules/billing/turnstile.server";
import { TurnstileWidget } from "~/modules/billing/components/TurnstileWidget";
import { checkoutMode, createCheckout, trialAvailable } from "~/modules/billing/checkout.server";
import { waitDescription } from "~/modules/auth/auth.messages";
import { decideBillingAccess } from "~/modules/billing/guard";
import { SOLO_PRICES, type BillingPeriod } from "~/modules/billing/plans";
import { getSubscription } from "~/modules/billing/subscription.server";
import { readForm } from "~/lib/body.server";
import { needsOwnSubscriptionForOffer } from "~/modules/team/ownership.server";

export const meta: MetaFunction = () => [{ title: "Start your trial — Porchlight" }];

/** Where the billing guard sends a signed-in account without a subscription. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const decision = decideBillingAccess(await getSubscription(context, user.id));
  // A team member works on the team's subscription; one offered the team's ownership needs their own (ADR 0039).
  const forOwnership = decision.allow && (await needsOwnSubscriptionForOffer(context, user.id));
  if (decision.allow && !forOwnership) throw redirect("/dashboard");
  return {
    forOwnership,
    email: user.email,
    trial: await trialAvailable(context, user),
    mode: checkoutMode(context),
    turnstileSiteKey: turnstileSiteKey(context, request),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const period: BillingPeriod = form.get("period") === "yearly" ? "yearly" : "monthly";
  const token = form.get(TURNSTILE_FIELD);
  if (!(await verifyTurnstile(context, request, typeof token === "string" && token ? token : null))) {
    return data({ error: VERIFICATION_REQUIRED.description, title: VERIFICATION_REQUIRED.title }, { status: 400 });
  }
  const result = await createCheckout(context, request, user, period);
  if (result.ok) return redirect(result.url);
  if (result.error === "rate_limited")
    return data({ error: waitDescription(result.retryAfterSeconds ?? 60), title: CHECKOUT_ERROR_TITLE }, { status: 429 });
  return data({ error: CHECKOUT_ERRORS[result.error], title: CHECKOUT_ERROR_TITLE }, { status: result.error === "config_error" ? 503 : 400 });
}

const PLANS: { period: BillingPeriod; label: string; price: string; note: string; badge?: string }[] = [
  { period: "monthly", label: "Monthly", price: `$${SOLO_PRICES.monthly.perMonth}`, note: "per month, billed monthly" },
  {
    period: "yearly",
    label: "Yearly",
    price: `$${SOLO_PRICES.yearly.perMonth}`,
    note: "per month, $384 billed yearly · Save $96/year",
    badge: "Save 20%",
  },
];

export default function StartTrialPage() {
  const { email, trial, mode, turnstileSiteKey: siteKey, forOwnership } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [period, setPeriod] = useState<BillingPeriod>(params.get("plan") === "yearly" ? "yearly" : "monthly");
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  useEffect(() => {
    if (actionData?.error) toast({ title: actionData.title, description: actionData.error, variant: "destructive" });
  }, [actionData]);

  return (
    <AuthLayout
      title={trial ? "Start Your 14-Day Free Trial" : "Start your Solo Agent subscription"}
      intro={
        trial ? (
          <p>
            Signed in as <strong className="text-stone-900 dark:text-stone-100">{email}</strong>. Nothing is charged for 14 days. A card is required,
            and you can cancel any time before the trial ends.
          </p>
        ) : (
          <p role="status">
            This address has already had its free trial, so the subscription starts today. You can cancel any time; it ends at the close of the
            billing period.
          </p>
        )
      }
    >
      {params.get("canceled") === "1" ? (
        <p role="status" className="mb-4 rounded-lg border border-stone-300 p-3 text-sm dark:border-stone-700">
          Checkout was not completed, and nothing was charged. Pick a plan to try again.
        </p>
      ) : null}
      {forOwnership ? (
        <p role="status" className="mb-4 rounded-lg border border-stone-300 p-3 text-sm dark:border-stone-700">
          You have been offered your team&apos;s ownership. The owner pays for the team, so start a subscription of your own here; when you accept on
          the Team page, the team&apos;s seats move to it on the Team plan.
        </p>
      ) : null}
      <Form method="post" className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 font-semibold">Solo Agent plan</legend>
          {PLANS.map((plan) => (
            <label
              key={plan.period}
              className={`flex cursor-pointer items-center gap-3 rounded-xl border p-4 ${
                period === plan.period
                  ? "border-brand-700 bg-brand-50 dark:border-brand-400 dark:bg-stone-900"
                  : "border-stone-300 dark:border-stone-700"
              }`}
            >
              <input
                type="radio"
                name="period"
                value={plan.period}
                checked={period === plan.period}
                onChange={() => setPeriod(plan.period)}
                className="h-5 w-5 accent-brand-700"
              />
              <span className="flex flex-1 flex-col">
                <span className="flex items-center gap-2 font-semibold">
                  {plan.label}
                  {plan.badge ? (
                    <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white dark:bg-brand-400 dark:text-stone-950">
                      {plan.badge}
                    </span>
                  ) : null}
                </span>
                <span className="text-sm text-stone-600 dark:text-stone-400">{plan.note}</span>
              </span>
              <span className="text-2xl font-bold">{plan.price}</span>
            </label>
          ))}
        </fieldset>
        {actionData?.error ? (
          <div
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            <p className="font-semibold">{actionData.title}</p>
            <p>{actionData.error}</p>
          </div>
        ) : null}
        {siteKey ? <TurnstileWidget siteKey={siteKey} fieldName={TURNSTILE_FIELD} /> : null}
        <Button type="submit" busy={busy} busyLabel="Creating Account...">
          {trial ? "Start Free Trial" : "Continue to payment"}
        </Button>
        {mode === "test" ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Running locally without Stripe keys: you will see Porchlight's test-mode checkout instead of Stripe. No card is needed.
          </p>
        ) : null}
      </Form>
      <Form method="post" action="/auth/signout" className="mt-6">
        <button type="submit" className="text-sm text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
          Sign out
        </button>
      </Form>
    </AuthLayout>
  );
}
