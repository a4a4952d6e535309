import { Link } from "@remix-run/react";
import { Pencil } from "lucide-react";
import { buttonClass } from "~/components/ui/Button";
import type { Contact } from "~/db/schema";
import { formatMoney, type DisplayPreferences } from "~/lib/format";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS, STATUS_LABELS } from "../contacts.messages";

/** A contact's budget as one phrase: "$400,000–$550,000", "up to $350,000", "from $200,000", or "—". */
export function budgetText(contact: Pick<Contact, "budgetMin" | "budgetMax">, prefs: DisplayPreferences) {
  if (contact.budgetMin == null && contact.budgetMax == null) return "—";
  if (contact.budgetMin != null && contact.budgetMax != null)
    return `${formatMoney(contact.budgetMin, prefs)}–${formatMoney(contact.budgetMax, prefs)}`;
  return contact.budgetMax != null ? `up to ${formatMoney(contact.budgetMax, prefs)}` : `from ${formatMoney(contact.budgetMin!, prefs)}`;
}

const WIDE_ON_PHONE = new Set(["Email", "Preferred location", "Address", "Budget", "Timeline", "Company"]);

type Shown = Pick<
  Contact,
  | "phone"
  | "email"
  | "status"
  | "source"
  | "budgetMin"
  | "budgetMax"
  | "propertyType"
  | "location"
  | "bedrooms"
  | "bathrooms"
  | "company"
  | "timeline"
  | "address"
  | "tags"
  | "notes"
>;

/**
 * The profile's details as text to read: the form only opens with "Edit details" (?edit in the
 * URL, so it works without script and Back leaves it). Empty fields are left out rather than shown as blanks.
 */
export function ContactDetails({
  contact,
  prefs,
  editHref,
  className,
  optedOut = false,
}: {
  contact: Shown;
  prefs: DisplayPreferences;
  /** Null: read only (a teammate's contact the team lets its managers see, not edit). */
  editHref: string | null;
  className: string;
  /** The contact unsubscribed from Porchlight's automatic e-mails (an instant reply's link). */
  optedOut?: boolean;
}) {
  const budget = budgetText(contact, prefs);
  const rows: [string, React.ReactNode][] = [
    [
      "Phone",
      contact.phone ? (
        <a href={`tel:${contact.phone}`} className="underline underline-offset-4">
          {contact.phone}
        </a>
      ) : null,
    ],
    [
      "Email",
      contact.email ? (
        <>
          <a href={`mailto:${contact.email}`} className="break-all underline underline-offset-4">
            {contact.email}
          </a>
          {optedOut ? <span className="block text-sm text-stone-600 dark:text-stone-400">Unsubscribed from automatic e-mails</span> : null}
        </>
      ) : null,
    ],
    ["Status", STATUS_LABELS[contact.status]],
    ["Source", SOURCE_LABELS[contact.source]],
    ["Budget", budget === "—" ? null : budget],
    ["Property type", PROPERTY_TYPE_LABELS[contact.propertyType]],
    ["Preferred location", contact.location],
    ["Bedrooms", contact.bedrooms],
    ["Bathrooms", contact.bathrooms],
    ["Company", contact.company],
    ["Timeline", contact.timeline],
    ["Address", contact.address],
  ];
  return (
    <section aria-labelledby="contact-details" className={className}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id="contact-details" className="font-semibold">
          Details
        </h2>
        {editHref ? (
          <Link to={editHref} preventScrollReset className={buttonClass("secondary")}>
            <Pencil aria-hidden="true" className="h-5 w-5" /> Edit details
          </Link>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
        {rows
          .filter(([, value]) => value !== null && value !== undefined && value !== "")
          .map(([label, value]) => (
            // Long values (an e-mail, an address) take the whole row on a phone.
            <div key={label} className={`min-w-0 ${WIDE_ON_PHONE.has(label) ? "col-span-2 sm:col-span-1" : ""}`}>
              <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        {contact.tags.length > 0 ? (
          <div className="col-span-2">
            <dt className="text-sm text-stone-600 dark:text-stone-400">Tags</dt>
            <dd className="mt-1 flex flex-wrap gap-1">
              {contact.tags.map((tag) => (
                <span key={tag} className="rounded-full bg-stone-100 px-2 py-0.5 text-sm dark:bg-stone-800">
                  {tag}
                </span>
              ))}
            </dd>
          </div>
        ) : null}
        <div className="col-span-2">
          <dt className="text-sm text-stone-600 dark:text-stone-400">Notes</dt>
          <dd className="whitespace-pre-wrap break-words">
            {contact.notes?.trim() ? contact.notes : <span className="text-stone-600 dark:text-stone-400">No notes yet.</span>}
          </dd>
        </div>
      </dl>
    </section>
  );
}
