import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { Mail } from "lucide-react";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { InfoCard } from "~/modules/marketing/components/InfoCard";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import { LEGAL } from "~/modules/marketing/legal";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "About",
    description: "Porchlight was founded in 2025 by licensed real estate agents to build the CRM agents actually love: fast, honest and private.",
    path: "/about",
  });

const DIFFERENTIATORS = [
  { title: "Instant on a phone", body: "Built for 375 pixels first and a one-handed thumb. Installable, with large touch targets and dark mode." },
  { title: "Honest numbers", body: "Your agent net after every split, cap and fee, and forecasts that only count what your pipeline supports." },
  {
    title: "AI that writes from your data",
    body: "Drafts use your client's actual budget, location and history, and every answer says which engine wrote it.",
  },
  { title: "Your data stays yours", body: "Encrypted in transit and at rest, isolated per account, never sold, and exportable as CSV at any time." },
] as const;

export default function AboutPage() {
  return (
    <MarketingPage
      label="About"
      title="We build the CRM agents actually love"
      intro={<p>Porchlight is the AI CRM for real estate agents: contacts, pipeline, tasks and commissions in one place, with help that writes.</p>}
    >
      <div className="flex flex-col gap-12">
        <section aria-labelledby="mission">
          <h2 id="mission" className="text-2xl font-bold">
            Our mission
          </h2>
          <p className="mt-3 text-stone-700 dark:text-stone-300">
            Give every agent the follow-up discipline and financial clarity of a well-run team, without the admin. Answer every lead, keep every deal
            moving, and know what you will actually take home.
          </p>
        </section>
        <section aria-labelledby="different">
          <h2 id="different" className="text-2xl font-bold">
            What makes us different
          </h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            {DIFFERENTIATORS.map((item) => (
              <InfoCard key={item.title} title={item.title}>
                {item.body}
              </InfoCard>
            ))}
          </div>
        </section>
        <section aria-labelledby="story">
          <h2 id="story" className="text-2xl font-bold">
            Our story
          </h2>
          <div className="mt-3 flex flex-col gap-3 text-stone-700 dark:text-stone-300">
            <p>
              Porchlight was founded in 2025 by licensed real estate agents. We had tried the big CRMs and kept going back to a spreadsheet and our
              phone&apos;s notes: the tools were slow on a phone, buried the numbers that mattered, and their automation sent messages we would never
              have written.
            </p>
            <p>
              So we built the tool we wanted at the curb before a showing: find a client in a second, see which deals need attention, know the net on
              an offer, and get a first draft of the e-mail that has to go out tonight.
            </p>
          </div>
        </section>
        <section aria-labelledby="talk" className="rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
          <h2 id="talk" className="text-2xl font-bold">
            Talk to us
          </h2>
          <p className="mt-2 text-stone-700 dark:text-stone-300">Questions, a team or brokerage, or feedback: we reply within 1 business day.</p>
          <a
            href={`mailto:${LEGAL.contactEmail}`}
            className="mt-3 inline-flex min-h-10 items-center gap-2 font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400"
          >
            <Mail aria-hidden="true" className="h-5 w-5" />
            {LEGAL.contactEmail}
          </a>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to="/trial" className={buttonClass("primary")}>
              Start Free Trial
            </Link>
            <Link to="/contact" className={buttonClass("secondary")}>
              Contact Sales
            </Link>
          </div>
        </section>
      </div>
    </MarketingPage>
  );
}
