import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { getUser } from "~/modules/auth/guards.server";
import { checkoutMode } from "~/modules/billing/checkout.server";
import { getSubscription } from "~/modules/billing/subscription.server";
import { PublicHeader } from "~/components/PublicHeader";
import { buttonClass } from "~/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Pricing — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context);
  if (!user) return { signedIn: false, status: null, portal: false };
  const state = await getSubscription(context, user.id);
  const status = state.known ? state.status : null;
  return { signedIn: true, status, portal: checkoutMode(context) === "stripe" && status === "past_due" };
}

const EXPIRED_TEXT: Record<string, { title: string; body: string }> = {
  past_due: {
    title: "Your last payment did not go through",
    body: "Your account is paused until the payment method is updated. Your contacts, deals and tasks are safe.",
  },
  canceled: {
    title: "Your subscription has ended",
    body: "Your data is kept for 30 days after the subscription ends. Subscribe again to pick up where you left off.",
  },
};

export default function PricingPage() {
  const [params] = useSearchParams();
  const { signedIn, status, portal } = useLoaderData<typeof loader>();
  const expired = params.get("billing") === "expired";
  const text = EXPIRED_TEXT[status ?? ""] ?? {
    title: "Your subscription is not active",
    body: "Sign in and choose a plan to get back to your data. It is kept for 30 days after a subscription ends.",
  };
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="mx-auto w-full max-w-xl flex-1 px-4 pb-16">
        {expired ? (
          <div role="alert" className="mb-6 rounded-xl border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
            <p className="font-semibold">{text.title}</p>
            <p>{text.body}</p>
            <div className="mt-3 flex flex-wrap gap-3">
              {portal ? (
                <Form method="post" action="/billing/portal">
                  <button type="submit" className={buttonClass("primary")}>
                    Fix payment
                  </button>
                </Form>
              ) : null}
              {signedIn ? (
                <Link to="/trial/start" className={buttonClass(portal ? "secondary" : "primary")}>
                  {status === "past_due" ? "Subscribe with a new card" : "Resubscribe"}
                </Link>
              ) : (
                <Link to="/auth?redirectTo=%2Ftrial%2Fstart" className={buttonClass("primary")}>
                  Sign in to resubscribe
                </Link>
              )}
            </div>
          </div>
        ) : null}
        <h1 className="text-3xl font-bold">Pricing</h1>
        <section className="mt-6 rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
          <h2 className="text-xl font-semibold">Solo Agent</h2>
          <p className="mt-2 text-3xl font-bold">
            $40<span className="text-base font-normal text-stone-600 dark:text-stone-400"> per month</span>
          </p>
          <p className="text-stone-600 dark:text-stone-400">or $32 per month billed yearly (save $96/year)</p>
          <ul className="mt-4 list-disc pl-5">
            <li>Contact management</li>
            <li>Deal pipeline</li>
            <li>Task management</li>
            <li>AI assistant</li>
            <li>Mobile app access</li>
          </ul>
          <Link to={signedIn ? "/trial/start" : "/auth?mode=signup"} className={buttonClass("primary", "mt-6 w-full")}>
            {signedIn && status === "canceled" ? "Subscribe again" : "Start Free Trial"}
          </Link>
        </section>
      </main>
    </div>
  );
}
