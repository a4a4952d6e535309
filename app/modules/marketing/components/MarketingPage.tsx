import { Link } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { buttonClass } from "~/components/ui/Button";

/** Spec: every marketing page has the breadcrumb Home > label and a Back to Home link. */
export function MarketingPage({ label, title, intro, children }: { label: string; title: string; intro?: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader>
        <Link to="/auth" className={buttonClass("ghost")}>
          Sign In
        </Link>
      </PublicHeader>
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 pb-16">
        <nav aria-label="Breadcrumb" className="text-sm text-stone-600 dark:text-stone-400">
          <ol className="flex gap-2">
            <li>
              <Link to="/" className="underline-offset-4 hover:underline">
                Home
              </Link>
            </li>
            <li aria-hidden="true">›</li>
            <li aria-current="page" className="font-medium text-stone-900 dark:text-stone-100">
              {label}
            </li>
          </ol>
        </nav>
        <h1 className="mt-4 text-3xl font-bold md:text-4xl">{title}</h1>
        {intro ? <div className="mt-3 text-lg text-stone-700 dark:text-stone-300">{intro}</div> : null}
        <div className="mt-8">{children}</div>
        <Link to="/" className="mt-12 inline-block font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-400">
          ← Back to Home
        </Link>
      </main>
    </div>
  );
}
