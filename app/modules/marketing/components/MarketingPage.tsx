import { Link } from "@remix-run/react";
import { SiteFooter } from "./SiteFooter";
import { SiteHeader } from "./SiteHeader";

type Crumb = { label: string; to?: string };

/** The public site's frame: top navigation, main content and footer. */
export function SiteFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      {children}
      <SiteFooter />
    </div>
  );
}

/**
 * Spec: every marketing page has the breadcrumb Home > label and a Back to Home link. Guides and articles
 * pass a longer trail and their own way back (Back to Support, Back to Blog).
 */
export function MarketingPage({
  label,
  title,
  intro,
  children,
  trail,
  back = { to: "/", label: "Back to Home" },
  width = "max-w-3xl",
}: {
  label: string;
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  trail?: Crumb[];
  back?: { to: string; label: string };
  width?: string;
}) {
  const crumbs: Crumb[] = [{ label: "Home", to: "/" }, ...(trail ?? []), { label }];
  return (
    <SiteFrame>
      <main id="main" className={`mx-auto w-full ${width} flex-1 px-4 pb-16 pt-6`}>
        <nav aria-label="Breadcrumb" className="text-sm text-stone-600 dark:text-stone-400">
          <ol className="flex flex-wrap gap-2">
            {crumbs.map((crumb, index) => (
              <li key={`${crumb.label}-${index}`} className="flex gap-2">
                {index > 0 ? <span aria-hidden="true">›</span> : null}
                {crumb.to ? (
                  <Link to={crumb.to} className="underline-offset-4 hover:underline">
                    {crumb.label}
                  </Link>
                ) : (
                  <span aria-current="page" className="font-medium text-stone-900 dark:text-stone-100">
                    {crumb.label}
                  </span>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <h1 className="mt-4 text-3xl font-bold md:text-4xl">{title}</h1>
        {intro ? <div className="mt-3 text-lg text-stone-700 dark:text-stone-300">{intro}</div> : null}
        <div className="mt-8">{children}</div>
        <Link
          to={back.to}
          className="mt-12 inline-flex min-h-12 items-center font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-400"
        >
          ← {back.label}
        </Link>
      </main>
    </SiteFrame>
  );
}
