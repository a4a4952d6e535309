import { Link } from "@remix-run/react";
import { Check } from "lucide-react";
import { buttonClass } from "~/components/ui/Button";
import { SOLO_PRICES, TRIAL_DAYS } from "~/modules/billing/plans";

// Spec section 2: the Solo Agent card and its five inclusions; the Monthly/Yearly toggle (Monthly first).
export const SOLO_INCLUSIONS = ["Contact management", "Deal pipeline", "Task management", "AI assistant", "Mobile app access"] as const;

const yearlySaving = SOLO_PRICES.monthly.perMonth * 12 - SOLO_PRICES.yearly.amountCents / 100;
const yearlyPercent = Math.round((yearlySaving / (SOLO_PRICES.monthly.perMonth * 12)) * 100);

const segment =
  "flex min-h-12 flex-1 cursor-pointer items-center justify-center gap-2 rounded-lg px-4 font-semibold text-stone-700 dark:text-stone-300 has-[:checked]:bg-white has-[:checked]:text-stone-950 has-[:checked]:shadow dark:has-[:checked]:bg-stone-700 dark:has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600";

/** The period toggle is two radios and CSS (.pricing-period): it works before, and without, any script. */
export function PricingPlan({ cta = { to: "/trial", label: "Start Free Trial" } }: { cta?: { to: string; label: string } }) {
  return (
    <div className="pricing-period mx-auto flex w-full max-w-md flex-col gap-4">
      <fieldset className="flex rounded-xl bg-stone-200 p-1 dark:bg-stone-800">
        <legend className="sr-only">Billing period</legend>
        <label className={segment}>
          <input type="radio" name="period" value="monthly" defaultChecked className="sr-only" />
          Monthly
        </label>
        <label className={segment}>
          <input type="radio" name="period" value="yearly" className="sr-only" />
          Yearly
        </label>
      </fieldset>
      <section
        aria-labelledby="plan-solo"
        className="relative rounded-2xl border-2 border-brand-600 bg-white p-6 shadow-sm dark:border-brand-400 dark:bg-stone-900"
      >
        <p className="absolute -top-3 left-6 rounded-full bg-brand-700 px-3 py-0.5 text-sm font-semibold text-white dark:bg-brand-400 dark:text-stone-950">
          Most Popular
        </p>
        <div className="flex items-center justify-between gap-2">
          <h3 id="plan-solo" className="text-xl font-semibold">
            Solo Agent
          </h3>
          <p
            data-period="yearly"
            className="rounded-full bg-emerald-100 px-3 py-0.5 text-sm font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50"
          >
            Save {yearlyPercent}%
          </p>
        </div>
        <div data-period="monthly">
          <p className="mt-3 text-4xl font-bold">
            ${SOLO_PRICES.monthly.perMonth}
            <span className="text-base font-normal text-stone-600 dark:text-stone-400"> per month</span>
          </p>
          <p className="text-stone-600 dark:text-stone-400">Billed monthly</p>
        </div>
        <div data-period="yearly">
          <p className="mt-3 text-4xl font-bold">
            ${SOLO_PRICES.yearly.perMonth}
            <span className="text-base font-normal text-stone-600 dark:text-stone-400"> per month</span>
          </p>
          <p className="text-stone-600 dark:text-stone-400">
            ${SOLO_PRICES.yearly.amountCents / 100} billed yearly ·{" "}
            <strong className="text-emerald-800 dark:text-emerald-300">Save ${yearlySaving}/year</strong>
          </p>
        </div>
        <ul className="mt-5 flex flex-col gap-2">
          {SOLO_INCLUSIONS.map((item) => (
            <li key={item} className="flex items-center gap-2">
              <Check aria-hidden="true" className="h-5 w-5 text-emerald-700 dark:text-emerald-400" />
              {item}
            </li>
          ))}
        </ul>
        <Link to={cta.to} className={buttonClass("primary", "mt-6 w-full")}>
          {cta.label}
        </Link>
        <p className="mt-3 text-center text-sm text-stone-600 dark:text-stone-400">{TRIAL_DAYS}-day free trial · card required · cancel anytime</p>
      </section>
    </div>
  );
}
