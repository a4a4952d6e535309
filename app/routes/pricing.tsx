import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { getUser } from "~/modules/auth/guards.server";
import { checkoutMode } from "~/modules/billing/checkout.server";
import { getSubscription } from "~/modules/billing/subscription.server";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { Faq } from "~/modules/marketing/components/Faq";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import { PricingPlan } from "~/modules/marketing/components/PricingPlan";
import { LEGAL } from "~/modules/marketing/legal";
import { EXPORT_CATEGORY_KEYS } from "~/modules/data/tables";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Pricing",
    description: "Porchlight Solo Agent: $40 a month, or $32 a month billed yearly. 14-day free trial, unlimited contacts and deals, cancel anytime.",
    path: "/pricing",
  });

const FAQ = [
  {
    q: "How does the free trial work?",
    a: `You get ${LEGAL.trialDays} days with every feature. A card is required to start, and you are not charged until the trial ends. One trial per customer.`,
  },
  {
    q: "What happens when the trial ends?",
    a: `Unless you cancel first, the plan you chose starts: $${LEGAL.monthlyPrice} a month, or $${LEGAL.yearlyPrice} a year ($32 a month). You are billed automatically.`,
  },
  {
    q: "Can I cancel anytime?",
    a: "Yes, from Settings → Billing. Cancellation takes effect at the end of the billing period you have paid for; there are no setup or cancellation fees.",
  },
  {
    q: "Can I switch between monthly and yearly billing?",
    a: "Yes. Plan changes take effect from your next billing cycle.",
  },
  {
    q: "Are contacts or deals limited?",
    a: "No. Solo Agent includes unlimited contacts and deals, the AI assistant and the mobile app.",
  },
  {
    q: "What happens to my data if I leave?",
    a: `You can export all your data at any time: everything as one JSON file, or contacts, deals, tasks and activities as CSV, from Settings → Data (or from this page if your subscription has ended). If your subscription ends, your data stays in your account until you delete the account; after that we keep it ${LEGAL.dataKeptDays} days, so an e-mailed link can still bring it back, and then delete it.`,
  },
  {
    q: "Do you offer plans for teams or brokerages?",
    a: "Yes. Once subscribed, switch to the Team plan in Settings → Billing: $35 per member a month, or $336 per member a year, for at least two members. It adds invitations by e-mail, roles, one bill for the whole team, a team leaderboard, shared deals with co-agents (each paid their share of the side through their own split and cap), the team's leads (added, imported or sent through the team's own website lead form) sent out by pond, round robin or first to claim, and for the team's owner and admins a team board of everyone's deals, Reports for any member, an audit log and a default commission plan for the team; each agent's contacts stay their own unless the owner lets admins see or edit them, the owner can require two-factor sign-in (passkeys or an authenticator app), and the owner decides who takes over a member's book when they leave or go on vacation. For a brokerage of 25 or more agents, write to us through the contact page.",
  },
] as const;

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
    body: "Your data stays in your account. Subscribe again to pick up where you left off, or export it.",
  },
};

export default function PricingPage() {
  const [params] = useSearchParams();
  const { signedIn, status, portal } = useLoaderData<typeof loader>();
  const expired = params.get("billing") === "expired";
  const text = EXPIRED_TEXT[status ?? ""] ?? {
    title: "Your subscription is not active",
    body: "Sign in and choose a plan to get back to your data: it stays in your account until you delete the account.",
  };
  return (
    <MarketingPage
      label="Pricing"
      title="Simple pricing"
      intro={<p>One plan with everything in it. Start with a {LEGAL.trialDays}-day free trial.</p>}
      width="max-w-4xl"
    >
      {expired ? (
        <div
          role="alert"
          className="mb-8 rounded-xl border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
        >
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
            ) : null}
            {signedIn ? (
              // The terms promise the export whenever the agent likes, subscribed or not: everything, as one JSON file.
              <form method="post" action="/settings/export.json">
                {EXPORT_CATEGORY_KEYS.map((key) => (
                  <input key={key} type="hidden" name="category" value={key} />
                ))}
                <button type="submit" className={buttonClass("secondary")}>
                  Export all my data
                </button>
              </form>
            ) : null}
            {signedIn ? (
              <Link to="/account/delete" className={buttonClass("ghost")}>
                Delete my account
              </Link>
            ) : (
              <Link to="/auth?redirectTo=%2Ftrial%2Fstart" className={buttonClass("primary")}>
                Sign in to resubscribe
              </Link>
            )}
          </div>
        </div>
      ) : null}
      <h2 className="sr-only">Plans</h2>
      <PricingPlan cta={signedIn && status === "canceled" ? { to: "/trial/start", label: "Subscribe again" } : undefined} />
      <div className="mt-16">
        <Faq items={FAQ} />
      </div>
    </MarketingPage>
  );
}
