import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { guideCategories } from "~/modules/content/content.server";
import { Faq } from "~/modules/marketing/components/Faq";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import { LEGAL } from "~/modules/marketing/legal";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Support Center",
    description: "Step-by-step guides for getting started and managing your Porchlight account, answers to common questions, and how to reach us.",
    path: "/support",
  });

export function loader() {
  return { categories: guideCategories() };
}

// Spec section 2: a FAQ of six questions.
const FAQ = [
  {
    q: "How do I import my contacts?",
    a: (
      <>
        Save them as a CSV file (UTF-8, one header row) and use Import on the Contacts page. The{" "}
        <Link to="/guides/importing-contacts" className="underline underline-offset-4">
          importing guide
        </Link>{" "}
        walks through column mapping and duplicates.
      </>
    ),
  },
  {
    q: "How do I update my card or see invoices?",
    a: "Go to Settings → Billing and choose Manage billing. Stripe's secure billing portal lets you change the card, see and download invoices, and cancel.",
  },
  {
    q: "What happens when my trial ends?",
    a: `Your plan starts automatically at $${LEGAL.monthlyPrice} a month (or $${LEGAL.yearlyPrice} a year) unless you cancel before the ${LEGAL.trialDays} days are up.`,
  },
  {
    q: "Can I use Porchlight on my phone?",
    a: (
      <>
        Yes. Porchlight is built for phones first and can be installed on your home screen; see the{" "}
        <Link to="/guides/mobile-app" className="underline underline-offset-4">
          mobile app guide
        </Link>
        .
      </>
    ),
  },
  {
    q: "I forgot my password. What now?",
    a: "On the sign-in page choose Forgot password, enter your e-mail and follow the link we send. The link works once and expires after a short time.",
  },
  {
    q: "How do I export my data?",
    a: `Export everything from Settings → Data at any time: one JSON file, or contacts, deals, tasks and activities as CSV. Your data stays while your account exists, subscribed or not; when you delete the account it is kept ${LEGAL.dataKeptDays} days, then deleted.`,
  },
] as const;

export default function SupportPage() {
  const { categories } = useLoaderData<typeof loader>();
  return (
    <MarketingPage
      label="Support"
      title="Support Center"
      intro={<p>Guides that show how Porchlight works, step by step. Can&apos;t find an answer? We reply within 1 business day.</p>}
      width="max-w-4xl"
    >
      <div className="flex flex-col gap-12">
        {categories.map((category) => (
          <section key={category.id} aria-labelledby={`cat-${category.id}`}>
            <h2 id={`cat-${category.id}`} className="text-2xl font-bold">
              {category.label}
            </h2>
            <ul className="mt-4 divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900">
              {category.guides.map((guide) => (
                <li key={guide.slug} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
                  <div>
                    <h3 className="font-semibold">{guide.title}</h3>
                    <p className="text-stone-600 dark:text-stone-400">{guide.summary}</p>
                  </div>
                  <Link to={`/guides/${guide.slug}`} className={buttonClass("secondary", "shrink-0")} aria-label={`View Guide: ${guide.title}`}>
                    View Guide
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <Faq items={FAQ} />
        <section aria-labelledby="still" className="rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
          <h2 id="still" className="text-2xl font-bold">
            Still need help?
          </h2>
          <p className="mt-2 text-stone-700 dark:text-stone-300">
            Write to us and we reply within 1 business day. If something is not working, the{" "}
            <Link to="/status" className="underline underline-offset-4">
              system status page
            </Link>{" "}
            shows whether it is on our side.
          </p>
          <Link to="/contact" className={buttonClass("primary", "mt-4")}>
            Contact Support
          </Link>
        </section>
      </div>
    </MarketingPage>
  );
}
