import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import { AuthLayout } from "~/modules/auth/components/AuthLayout";
import { requireUser } from "~/modules/auth/guards.server";
import { checkoutMode, openTestCheckout } from "~/modules/billing/checkout.server";
import { SOLO_PRICES, TRIAL_DAYS } from "~/modules/billing/plans";
import { abandonTestCheckout, completeTestCheckout } from "~/modules/billing/test-checkout.server";
import { sendWelcomeEmailOnce } from "~/modules/billing/welcome.server";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Test-mode checkout — Porchlight" }, { name: "robots", content: "noindex" }];

/** Local only: with Stripe keys, or in production, this page does not exist. */
async function load(request: Request, context: RequestContext, id: string) {
  if (checkoutMode(context) !== "test") throw new Response("Not Found", { status: 404 });
  const user = await requireUser(request, context);
  const checkout = await openTestCheckout(context, user, id);
  if (!checkout) throw new Response("Not Found", { status: 404 });
  return { user, checkout };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { checkout } = await load(request, context, params.id ?? "");
  if (checkout.status !== "open" || checkout.expiresAt.getTime() < Date.now()) throw redirect("/trial/start");
  return { period: checkout.billingPeriod, withTrial: checkout.withTrial };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user, checkout } = await load(request, context, params.id ?? "");
  if (checkout.status !== "open") throw redirect("/trial/start");
  return dispatchIntent(await readForm(request), {
    complete: async () => {
      await completeTestCheckout(context, user, checkout);
      await sendWelcomeEmailOnce(context, appOrigin(context, request), user.id);
      return redirect(`/app/welcome?success=1&trial=${checkout.withTrial ? 1 : 0}`);
    },
    abandon: async () => {
      await abandonTestCheckout(context, user, checkout);
      return redirect("/trial/start?canceled=1");
    },
  });
}

export default function TestCheckoutPage() {
  const { period, withTrial } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const price = SOLO_PRICES[period];
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <AuthLayout title="Checkout">
      <p
        role="note"
        className="mb-6 rounded-lg border-2 border-dashed border-amber-500 bg-amber-50 p-3 font-semibold text-amber-950 dark:bg-amber-950 dark:text-amber-50"
      >
        Test mode: Stripe is not configured on this server, so no card is taken and nothing is charged. Completing this checkout updates the
        subscription exactly as Stripe's confirmation would.
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        <dt className="text-stone-600 dark:text-stone-400">Plan</dt>
        <dd className="font-semibold">Solo Agent, {period === "yearly" ? "yearly" : "monthly"}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Price</dt>
        <dd className="font-semibold">{price.billed}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Due today</dt>
        <dd className="font-semibold">{withTrial ? `$0 (${TRIAL_DAYS}-day free trial)` : price.billed.split(" ")[0]}</dd>
      </dl>
      <div className="mt-8 flex flex-col gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="complete" />
          <Button type="submit" className="w-full" busy={busy("complete")} busyLabel="Completing…">
            {withTrial ? "Start trial (test mode)" : "Subscribe (test mode)"}
          </Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="abandon" />
          <Button type="submit" variant="secondary" className="w-full" busy={busy("abandon")} busyLabel="Cancelling…">
            Cancel checkout
          </Button>
        </Form>
      </div>
    </AuthLayout>
  );
}
