import { Link } from "@remix-run/react";
import { Menu } from "lucide-react";
import { Logo } from "~/components/Logo";
import { buttonClass } from "~/components/ui/Button";
import { ThemeToggle } from "~/components/ui/ThemeToggle";

// Spec section 2: the public site's top navigation.
const SITE_NAV = [
  { to: "/features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/about", label: "About" },
  { to: "/blog", label: "Blog" },
  { to: "/support", label: "Support" },
  { to: "/contact", label: "Contact" },
] as const;

const link =
  "rounded-md px-3 py-2 font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-950 dark:text-stone-200 dark:hover:bg-stone-800 dark:hover:text-white";

/** Works without JavaScript: on phones the links sit in a native disclosure (details/summary). */
export function SiteHeader() {
  return (
    <header className="relative z-40 border-b border-stone-200 bg-stone-50/95 dark:border-stone-800 dark:bg-stone-950/95">
      <div className="mx-auto flex w-full max-w-6xl items-center justify-between gap-2 px-4 py-2">
        <Link to="/" className="rounded-md" aria-label="Porchlight home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {SITE_NAV.map((item) => (
            <Link key={item.to} to={item.to} className={link}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="flex items-center gap-1">
          {/* Wrapped: buttonClass sets its own display, which would win over "hidden". */}
          <span className="hidden lg:block">
            <Link to="/auth" className={buttonClass("ghost")}>
              Sign In
            </Link>
          </span>
          <span className="hidden sm:block">
            <Link to="/trial" className={buttonClass("primary")}>
              Start Free Trial
            </Link>
          </span>
          <ThemeToggle />
          <details className="group lg:hidden">
            <summary className="flex h-12 w-12 cursor-pointer list-none items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800 [&::-webkit-details-marker]:hidden">
              <Menu aria-hidden="true" className="h-6 w-6" />
              <span className="sr-only">Menu</span>
            </summary>
            <nav
              aria-label="Main"
              className="absolute inset-x-0 top-full flex flex-col gap-1 border-b border-stone-200 bg-stone-50 p-4 shadow-lg dark:border-stone-800 dark:bg-stone-950"
            >
              {SITE_NAV.map((item) => (
                <Link key={item.to} to={item.to} className={`${link} min-h-12 content-center`}>
                  {item.label}
                </Link>
              ))}
              <Link to="/auth" className={`${link} min-h-12 content-center`}>
                Sign In
              </Link>
              <Link to="/trial" className={buttonClass("primary", "mt-2")}>
                Start Free Trial
              </Link>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
