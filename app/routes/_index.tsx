import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { Bot, CalendarCheck, Calculator, KanbanSquare, Users } from "lucide-react";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { TRIAL_DAYS } from "~/modules/billing/plans";
import { InfoCard } from "~/modules/marketing/components/InfoCard";
import { SiteFrame } from "~/modules/marketing/components/MarketingPage";
import { PricingPlan } from "~/modules/marketing/components/PricingPlan";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Porchlight — the AI CRM for real estate agents",
    description: "Contacts, deal pipeline, tasks, commissions and AI drafts from your own data, built for your phone. 14-day free trial.",
    path: "/",
  });

const PAINS = [
  { title: "Leads go cold in the gaps", body: "A new inquiry comes in during a showing, and by evening it is buried under texts and e-mails." },
  {
    title: "Your pipeline lives in your head",
    body: "Which deals are really closing this month? Without one list of stages and dates, every forecast is a guess.",
  },
  {
    title: "You never know your real take-home",
    body: "Splits, caps, referral and transaction fees: the number on the settlement statement is rarely the one you expected.",
  },
] as const;

const BEFORE_AFTER = [
  ["Contacts scattered across your phone, e-mail and spreadsheets", "One searchable list with status, budget, tags and last activity"],
  ["Deals tracked on sticky notes", "A pipeline board with stages, probabilities and close dates"],
  ["Follow-ups remembered (or not) at night", "Tasks with due dates, reminders and a calendar feed"],
  ["Commission worked out on a calculator after closing", "Agent net for every deal, with splits, cap and fees, before you sign"],
  ["A blank page for every client e-mail", "AI drafts written from the client's own details, ready to review"],
] as const;

const AUDIENCES = [
  { icon: Users, title: "Solo agents", body: "Everything you need to run your business from your phone, without an admin." },
  { icon: KanbanSquare, title: "New agents", body: "A simple system from your first lead, so good habits start on day one." },
  { icon: CalendarCheck, title: "Busy top producers", body: "Stay on top of dozens of active clients, showings and deadlines at once." },
] as const;

function Section({
  id,
  title,
  intro,
  children,
  tone = "plain",
}: {
  id: string;
  title: string;
  intro?: string;
  children: React.ReactNode;
  tone?: "plain" | "tinted";
}) {
  return (
    <section aria-labelledby={id} className={tone === "tinted" ? "bg-white py-16 dark:bg-stone-900" : "py-16"}>
      <div className="mx-auto w-full max-w-6xl px-4">
        <h2 id={id} className="text-3xl font-bold md:text-4xl">
          {title}
        </h2>
        {intro ? <p className="mt-3 max-w-2xl text-lg text-stone-700 dark:text-stone-300">{intro}</p> : null}
        <div className="mt-8">{children}</div>
      </div>
    </section>
  );
}

export default function Landing() {
  return (
    <SiteFrame>
      <main id="main" className="flex-1">
        <section className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-16 md:py-24">
          <p className="font-semibold text-brand-700 dark:text-brand-400">The AI CRM for real estate agents</p>
          <h1 className="max-w-4xl text-4xl font-bold leading-tight md:text-6xl">
            Every lead answered. Every deal on track. Your real commission, up front.
          </h1>
          <p className="max-w-2xl text-lg text-stone-700 md:text-xl dark:text-stone-300">
            Porchlight keeps your contacts, pipeline, tasks and commissions in one place that is instant on your phone, with AI that writes follow-ups
            and listings from your own data.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link to="/trial" className={buttonClass("primary")}>
              Start Free Trial
            </Link>
            <Link to="/features" className={buttonClass("secondary")}>
              See the features
            </Link>
          </div>
          <p className="text-sm text-stone-600 dark:text-stone-400">{TRIAL_DAYS}-day free trial · card required · cancel anytime · no setup fees</p>
        </section>

        <Section id="pains" title="Sound familiar?" tone="tinted">
          <div className="grid gap-4 md:grid-cols-3">
            {PAINS.map((pain) => (
              <InfoCard key={pain.title} title={pain.title}>
                {pain.body}
              </InfoCard>
            ))}
          </div>
        </Section>

        <Section
          id="features"
          title="Built for the way agents work"
          intro="Two things set Porchlight apart: a coach that reads your pipeline, and a pipeline that knows your numbers."
        >
          <div className="grid gap-6 md:grid-cols-2">
            <InfoCard icon={Bot} title="AI coach">
              Drafts follow-up e-mails and listing descriptions from your client&apos;s budget, location and history; points out hot leads you have
              not called in a week and deals closing soon; flags wording that could raise Fair Housing concerns. You review everything before it is
              sent.
            </InfoCard>
            <InfoCard icon={Calculator} title="Pipeline with your commission">
              Drag deals from Lead to Closed Won on a board that works on a phone. Every card shows your agent net after referral fee, brokerage split
              and cap, team split and fees, and the forecast weighs each deal by its stage.
            </InfoCard>
          </div>
          <p className="mt-6">
            <Link to="/features" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
              All features
            </Link>
          </p>
        </Section>

        <Section id="before-after" title="Before and after Porchlight" tone="tinted">
          <div className="overflow-hidden rounded-2xl border border-stone-200 dark:border-stone-800">
            <table className="w-full text-left">
              <thead className="bg-stone-100 dark:bg-stone-800">
                <tr>
                  <th scope="col" className="p-4">
                    Before
                  </th>
                  <th scope="col" className="p-4">
                    With Porchlight
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
                {BEFORE_AFTER.map(([before, after]) => (
                  <tr key={before} className="align-top">
                    <td className="p-4 text-stone-600 dark:text-stone-400">{before}</td>
                    <td className="p-4 font-medium">{after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>

        <Section id="audience" title="Made for agents like you">
          <div className="grid gap-4 md:grid-cols-3">
            {AUDIENCES.map(({ icon, title, body }) => (
              <InfoCard key={title} icon={icon} title={title}>
                {body}
              </InfoCard>
            ))}
          </div>
        </Section>

        <Section
          id="pricing"
          title="One plan, everything included"
          intro="Unlimited contacts and deals. Switch to yearly billing and save 20%."
          tone="tinted"
        >
          <PricingPlan />
        </Section>

        <Section id="about" title="Made by agents, for agents">
          <div className="flex flex-col gap-4 md:flex-row md:items-center md:justify-between">
            <p className="max-w-2xl text-lg text-stone-700 dark:text-stone-300">
              Porchlight was founded in 2025 by licensed real estate agents who wanted a CRM that is fast on a phone, honest about the numbers, and
              respectful of client data: encrypted, isolated per account, and exportable whenever you like.
            </p>
            <Link to="/about" className={buttonClass("secondary")}>
              About us
            </Link>
          </div>
        </Section>

        <section aria-labelledby="final-cta" className="bg-brand-700 py-16 text-white dark:bg-brand-800">
          <div className="mx-auto flex w-full max-w-6xl flex-col items-start gap-4 px-4">
            <h2 id="final-cta" className="text-3xl font-bold md:text-4xl">
              Try Porchlight free for {TRIAL_DAYS} days
            </h2>
            <p className="max-w-2xl text-lg text-brand-50">
              Set up takes about 10 minutes. Import your contacts from a CSV and your pipeline is ready today.
            </p>
            <Link to="/trial" className={buttonClass("secondary")}>
              Start Free Trial
            </Link>
          </div>
        </section>
      </main>
    </SiteFrame>
  );
}
