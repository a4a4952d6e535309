import { Link } from "@remix-run/react";
import { Logo } from "~/components/Logo";
import { LEGAL } from "../legal";

const CONTACT_EMAIL = LEGAL.contactEmail;

// Spec section 2: footer links, plus the blog and the contact e-mail of decisions.md.
const COLUMNS = [
  {
    heading: "Product",
    links: [
      { to: "/features", label: "Features" },
      { to: "/pricing", label: "Pricing" },
      { to: "/trial", label: "Free trial" },
    ],
  },
  {
    heading: "Help",
    links: [
      { to: "/support", label: "Support Center" },
      { to: "/contact", label: "Contact" },
      { to: "/blog", label: "Blog" },
      { to: "/status", label: "System status" },
    ],
  },
  {
    heading: "Company",
    links: [
      { to: "/about", label: "About" },
      { to: "/privacy", label: "Privacy Policy" },
      { to: "/terms", label: "Terms of Service" },
    ],
  },
] as const;

export function SiteFooter() {
  return (
    <footer className="border-t border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
      <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="flex flex-col gap-3">
          <Logo />
          <p className="text-sm text-stone-600 dark:text-stone-400">The AI CRM for real estate agents.</p>
          <a href={`mailto:${CONTACT_EMAIL}`} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-400">
            {CONTACT_EMAIL}
          </a>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.heading} aria-label={column.heading}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-500 dark:text-stone-400">{column.heading}</h2>
            <ul className="mt-3 flex flex-col">
              {column.links.map((item) => (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    className="inline-flex min-h-10 items-center text-stone-700 underline-offset-4 hover:underline dark:text-stone-300"
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="mx-auto w-full max-w-6xl px-4 pb-8 text-sm text-stone-500 dark:text-stone-400">© {new Date().getFullYear()} Porchlight</p>
    </footer>
  );
}
