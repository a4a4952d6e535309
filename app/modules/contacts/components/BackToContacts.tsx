import { Link } from "@remix-run/react";

/** The way back from a contact's sub-pages (profile, duplicates) to the list. */
export function BackToContacts() {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <Link to="/contacts" className="text-stone-600 underline-offset-4 hover:underline dark:text-stone-400">
        ← Contacts
      </Link>
    </nav>
  );
}
