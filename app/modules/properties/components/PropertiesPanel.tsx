import { ExternalLink, House } from "lucide-react";
import type { ContactSource } from "~/db/enums";
import { formatCentsWhole, type DisplayPreferences } from "~/lib/format";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";

interface PropertyItem {
  id: string;
  address: string | null;
  mlsNumber: string | null;
  priceCents: number | null;
  url: string | null;
  source: ContactSource;
}

/** A contact's properties of interest: what they asked about, with its MLS number, price and the portal's page. */
export function PropertiesPanel({ items, prefs, className }: { items: PropertyItem[]; prefs: DisplayPreferences; className: string }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="contact-properties" className={className}>
      <h2 id="contact-properties" className="flex items-center gap-2 font-semibold">
        <House aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
        Properties of interest
      </h2>
      <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
        {items.map((p) => (
          <li key={p.id} className="flex flex-col gap-0.5 py-2">
            <span className="font-medium">{p.address ?? (p.mlsNumber ? `MLS ${p.mlsNumber}` : "A listing")}</span>
            <span className="text-sm text-stone-700 dark:text-stone-300">
              {[
                p.priceCents === null ? null : formatCentsWhole(p.priceCents, prefs),
                p.mlsNumber && p.address ? `MLS ${p.mlsNumber}` : null,
                SOURCE_LABELS[p.source],
              ]
                .filter(Boolean)
                .join(" · ")}
            </span>
            {p.url ? (
              <a
                href={p.url}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="inline-flex min-h-12 items-center gap-1 self-start text-sm font-medium text-brand-800 underline dark:text-brand-300"
              >
                See the listing on {SOURCE_LABELS[p.source]}
                <ExternalLink aria-hidden="true" className="h-4 w-4" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
