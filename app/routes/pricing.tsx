import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { buttonClass } from "~/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Pricing — Porchlight" }];

export default function PricingPage() {
  const [params] = useSearchParams();
  const expired = params.get("billing") === "expired";
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="mx-auto w-full max-w-xl flex-1 px-4 pb-16">
        {expired ? (
          <div role="alert" className="mb-6 rounded-xl border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
            <p className="font-semibold">Your subscription has ended</p>
            <p>Your data is kept safe for 30 days. Renew to pick up where you left off.</p>
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
          <Link to="/auth?mode=signup" className={buttonClass("primary", "mt-6 w-full")}>
            Start Free Trial
          </Link>
        </section>
      </main>
    </div>
  );
}
