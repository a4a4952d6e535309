import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { CreditCard, Download, Lock, ShieldCheck, Sparkles, Timer, Undo2 } from "lucide-react";
import { CheckList } from "~/components/CheckList";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { SOLO_PRICES, TRIAL_DAYS } from "~/modules/billing/plans";
import { Faq } from "~/modules/marketing/components/Faq";
import { InfoCard } from "~/modules/marketing/components/InfoCard";
import { SiteFrame } from "~/modules/marketing/components/MarketingPage";
import { SOLO_INCLUSIONS } from "~/modules/marketing/components/PricingPlan";
import { LEGAL } from "~/modules/marketing/legal";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Start your 14-day free trial",
    description:
      "Try Porchlight, the AI CRM for real estate agents, free for 14 days. Card required; cancel before the trial ends and you pay nothing.",
    path: "/trial",
  });

// Spec section 2 (/trial). Every sentence here is true of the product as it is today: contacts, the
// pipeline with commissions, tasks with the calendar feed and the dashboard, and the AI
// coach with insights, drafts, lead scores and the command palette.
const SIGN_UP = "/auth?mode=signup";

const BENEFITS = [
  {
    icon: Timer,
    title: "Ready in about 10 minutes",
    body: "Create your account, import a CSV of your contacts and your list is ready the same day.",
  },
  {
    icon: Sparkles,
    title: "Every feature included",
    body: "Unlimited contacts and every feature of the Solo Agent plan during the trial: nothing held back.",
  },
  { icon: Undo2, title: "Cancel anytime", body: `Cancel during the ${TRIAL_DAYS} days and you are never charged. No setup fees.` },
] as const;

const STEPS = [
  { title: "Create your account", body: "Sign up with your e-mail and a password, then confirm your address from the e-mail we send." },
  {
    title: "Start the trial",
    body: `Choose monthly ($${SOLO_PRICES.monthly.perMonth}/month) or yearly ($${SOLO_PRICES.yearly.perMonth}/month) and add a card on Stripe's secure checkout. Nothing is charged for ${TRIAL_DAYS} days.`,
  },
  {
    title: "Bring your business",
    body: "Import your contacts from a CSV or add them one by one, tag and sort them, and call, text or e-mail them from their profile.",
  },
  {
    title: "Put your deals on the board",
    body: "Add your deals, drag them through your stages, and enter your commission plan: each deal shows what it pays you after referral fees, your brokerage split and cap, team split and fees, and the forecast adds them up by month.",
  },
  {
    title: "Never miss a follow-up",
    body: "Type tasks the way you say them (“call Jane tomorrow 3pm”), see what is due today and overdue, log calls and showings on each contact and deal, and subscribe to your private calendar feed so tasks and closings show in Google, Apple or Outlook calendar.",
  },
  {
    title: "Let the AI coach draft",
    body: "Smart Insights point out hot leads gone quiet, deals slipping and closings coming up. The coach drafts follow-up e-mails, listing descriptions (held to your MLS limit, with a Fair Housing check), market notes and your week's plan from your own contacts and deals, and every contact gets a lead score that shows why.",
  },
] as const;

const BADGES = [
  { icon: CreditCard, label: "Payments by Stripe" },
  { icon: Lock, label: "Encrypted in transit and at rest" },
  { icon: ShieldCheck, label: "Your data isolated per account" },
  { icon: Download, label: "Export your contacts anytime" },
] as const;

const FAQ = [
  {
    q: "Why do you need a card for a free trial?",
    a: `It keeps the trial to real agents and means your work carries on without interruption. You are not charged during the ${TRIAL_DAYS} days, and one trial is offered per customer.`,
  },
  {
    q: "What does it cost after the trial?",
    a: `The Solo Agent plan is $${LEGAL.monthlyPrice} a month, or $${LEGAL.yearlyPrice} a year ($${SOLO_PRICES.yearly.perMonth} a month). It starts automatically when the trial ends unless you cancel.`,
  },
  {
    q: "How do I cancel?",
    a: "In Settings → Billing, choose Manage billing and cancel. Cancel during the trial and you pay nothing; after that, cancellation takes effect at the end of the period you have paid for.",
  },
  {
    q: "Can I bring my contacts from another CRM or a spreadsheet?",
    a: "Yes. Export a CSV from your old system and import it: Porchlight maps the columns, spots duplicates by e-mail and lets you choose to skip, update or keep them. It works alongside your phone's calling, texting and mail apps, and you can export your contacts back to CSV at any time.",
  },
  {
    q: "Is my data safe?",
    a: `Your data is stored encrypted, sent only over encrypted connections and kept separate from every other account. We never sell it. You can export it anytime, and when you delete your account it is kept for ${LEGAL.dataKeptDays} days, then deleted.`,
  },
] as const;

export default function TrialPage() {
  return (
    <SiteFrame>
      <main id="main" className="flex-1">
        <section className="mx-auto flex w-full max-w-4xl flex-col items-start gap-5 px-4 py-14 md:py-20">
          <p className="rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-800 dark:bg-brand-800 dark:text-brand-50">
            {TRIAL_DAYS}-day free trial
          </p>
          <h1 className="text-4xl font-bold leading-tight md:text-5xl">Run your real estate business from your phone, free for {TRIAL_DAYS} days</h1>
          <p className="text-lg text-stone-700 md:text-xl dark:text-stone-300">
            One place for your clients: every contact searchable and tagged, imported from your old CRM by CSV, and a tap away from a call, text or
            e-mail. Card required; cancel before the trial ends and you are never charged.
          </p>
          <Link to={SIGN_UP} className={buttonClass("primary")}>
            Create your account
          </Link>
        </section>

        <section aria-labelledby="benefits" className="bg-white py-14 dark:bg-stone-900">
          <div className="mx-auto w-full max-w-4xl px-4">
            <h2 id="benefits" className="text-3xl font-bold">
              Why agents start here
            </h2>
            <div className="mt-6 grid gap-4 md:grid-cols-3">
              {BENEFITS.map(({ icon, title, body }) => (
                <InfoCard key={title} icon={icon} title={title}>
                  {body}
                </InfoCard>
              ))}
            </div>
          </div>
        </section>

        <div className="mx-auto flex w-full max-w-4xl flex-col gap-14 px-4 py-14">
          <section aria-labelledby="how">
            <h2 id="how" className="text-3xl font-bold">
              How It Works
            </h2>
            <ol className="mt-6 grid gap-4 md:grid-cols-3">
              {STEPS.map((step, index) => (
                <li key={step.title} className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900">
                  <span
                    aria-hidden="true"
                    className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white dark:bg-brand-400 dark:text-stone-950"
                  >
                    {index + 1}
                  </span>
                  <h3 className="mt-3 text-lg font-semibold">{step.title}</h3>
                  <p className="mt-2 text-stone-700 dark:text-stone-300">{step.body}</p>
                </li>
              ))}
            </ol>
          </section>

          <section aria-labelledby="included">
            <h2 id="included" className="text-3xl font-bold">
              Included in your trial
            </h2>
            <CheckList boxed items={[...SOLO_INCLUSIONS, "CSV import and export", "Duplicate finder and merge", "Unlimited contacts"]} />
          </section>

          <section aria-labelledby="trust">
            <h2 id="trust" className="sr-only">
              Security and payments
            </h2>
            <ul className="flex flex-wrap gap-3">
              {BADGES.map(({ icon: Icon, label }) => (
                <li
                  key={label}
                  className="flex items-center gap-2 rounded-full border border-stone-300 px-4 py-2 text-sm font-medium dark:border-stone-700"
                >
                  <Icon aria-hidden="true" className="h-4 w-4" />
                  {label}
                </li>
              ))}
            </ul>
          </section>

          <Faq items={FAQ} />

          <section aria-labelledby="start" className="rounded-2xl bg-brand-700 p-8 text-white dark:bg-brand-800">
            <h2 id="start" className="text-2xl font-bold">
              Start your {TRIAL_DAYS}-day free trial
            </h2>
            <p className="mt-2 text-brand-50">Already have an account? Sign in and you will pick up where you left off.</p>
            <div className="mt-4 flex flex-wrap gap-3">
              <Link to={SIGN_UP} className={buttonClass("secondary")}>
                Create your account
              </Link>
              <Link to="/auth" className="inline-flex min-h-12 items-center px-2 font-semibold text-white underline underline-offset-4">
                Sign in
              </Link>
            </div>
          </section>
        </div>
      </main>
    </SiteFrame>
  );
}
