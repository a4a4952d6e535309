import { Link } from "@remix-run/react";
import { Mail, MessageSquare, Phone } from "lucide-react";
import type { Contact } from "~/db/schema";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS } from "../contacts.messages";
import { StatusBadge } from "./StatusBadge";
import { budgetText } from "./ContactDetails";
import { ReachOutLink } from "~/modules/sync/components/ReachOutLink";
import { LeadScoreBadge } from "./LeadScoreBadge";

// The contact list's two layouts: cards, the phone's default, and the table. Both take the same
// selection; the page decides which one shows on which screen (list-layout.ts).

type ListProps = {
  contacts: Contact[];
  prefs: DisplayPreferences;
  selected: Set<string>;
  onToggle: (id: string) => void;
  onToggleAll: (all: boolean) => void;
  highlight: string | null;
  compact: boolean;
  full: boolean;
};

/** A checkbox in a 44 px square label: the whole square takes the tap, not only the 20 px box. */
function SelectBox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="-m-2.5 inline-flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-label={label}
        className="h-5 w-5 cursor-pointer accent-brand-700"
      />
    </label>
  );
}

const allChecked = (contacts: Contact[], selected: Set<string>) => contacts.length > 0 && contacts.every((c) => selected.has(c.id));

/** A 44 px round link for calling, texting or e-mailing from a card. */
const REACH_LINK =
  "inline-flex h-11 w-11 items-center justify-center rounded-full border border-stone-300 text-brand-800 hover:bg-stone-100 dark:border-stone-700 dark:text-brand-300 dark:hover:bg-stone-800";

function ReachLink({ href, label, icon: Icon }: { href: string; label: string; icon: typeof Phone }) {
  return (
    <a href={href} aria-label={label} title={label} className={REACH_LINK}>
      <Icon aria-hidden="true" className="h-5 w-5" />
    </a>
  );
}

export function ContactCards({ contacts, prefs, selected, onToggle, onToggleAll, highlight, compact, full }: ListProps) {
  return (
    <>
      <div className="mb-2 flex items-center gap-3 px-3">
        <SelectBox label="Select all shown" checked={allChecked(contacts, selected)} onChange={onToggleAll} />
        <span aria-hidden="true" className="text-sm text-stone-600 dark:text-stone-400">
          Select all
        </span>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {contacts.map((c) => {
          const where = [c.location, budgetText(c, prefs)].filter((v) => v && v !== "—").join(" · ");
          return (
            <li
              key={c.id}
              id={`contact-card-${c.id}`}
              data-contact-row=""
              tabIndex={-1}
              className={`rounded-2xl border bg-white px-3 dark:bg-stone-900 ${compact ? "py-2" : "py-3"} ${c.id === highlight ? "border-brand-600 ring-2 ring-brand-500" : "border-stone-200 dark:border-stone-800"}`}
            >
              <div className="flex items-center gap-3">
                <SelectBox label={`Select ${c.name}`} checked={selected.has(c.id)} onChange={() => onToggle(c.id)} />
                <Link to={`/contacts/${c.id}`} className="flex min-h-11 min-w-0 flex-1 items-center font-semibold underline-offset-4 hover:underline">
                  <span className="break-words">{c.name}</span>
                </Link>
                <LeadScoreBadge contactId={c.id} score={c.leadScore} touch />
              </div>
              <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600 dark:text-stone-400">
                <StatusBadge status={c.status} />
                <span>{where || "No budget or area yet"}</span>
              </p>
              {full ? (
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                  {PROPERTY_TYPE_LABELS[c.propertyType]} · {SOURCE_LABELS[c.source]} · last activity {formatDate(c.lastActivity, prefs)}
                </p>
              ) : null}
              {c.tags.length ? (
                <p className="mt-2 flex flex-wrap gap-1">
                  {c.tags.map((t) => (
                    <span key={t} className="rounded-full bg-stone-100 px-2 py-0.5 text-xs dark:bg-stone-800">
                      {t}
                    </span>
                  ))}
                </p>
              ) : null}
              {c.phone || c.email ? (
                <div className="mt-2 flex gap-2">
                  {c.phone ? (
                    <>
                      <ReachOutLink contact={c} phone={c.phone} kind="call" label={`Call ${c.name}`} className={REACH_LINK}>
                        <Phone aria-hidden="true" className="h-5 w-5" />
                      </ReachOutLink>
                      <ReachOutLink contact={c} phone={c.phone} kind="text" label={`Text ${c.name}`} className={REACH_LINK}>
                        <MessageSquare aria-hidden="true" className="h-5 w-5" />
                      </ReachOutLink>
                    </>
                  ) : null}
                  {c.email ? <ReachLink href={`mailto:${c.email}`} label={`E-mail ${c.name}`} icon={Mail} /> : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function ContactTable({
  contacts,
  prefs,
  selected,
  onToggle,
  onToggleAll,
  highlight,
  compact,
  full,
  sortedByScore,
}: ListProps & { sortedByScore: boolean }) {
  return (
    <div className="relative overflow-x-auto rounded-2xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
      <table className="w-full text-left text-sm">
        <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
          <tr>
            <th scope="col" className="w-10 px-3 py-1">
              <SelectBox label="Select all shown" checked={allChecked(contacts, selected)} onChange={onToggleAll} />
            </th>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="hidden px-3 py-2 sm:table-cell" aria-sort={sortedByScore ? "descending" : undefined}>
              Score
            </th>
            <th scope="col" className="hidden px-3 py-2 sm:table-cell">
              Budget
            </th>
            <th scope="col" className="hidden px-3 py-2 md:table-cell">
              Location
            </th>
            {full ? (
              <>
                <th scope="col" className="hidden px-3 py-2 lg:table-cell">
                  Type
                </th>
                <th scope="col" className="hidden px-3 py-2 lg:table-cell">
                  Source
                </th>
                <th scope="col" className="hidden px-3 py-2 lg:table-cell">
                  Last activity
                </th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
          {contacts.map((c) => (
            <tr
              key={c.id}
              id={`contact-${c.id}`}
              data-contact-row=""
              tabIndex={-1}
              className={c.id === highlight ? "bg-brand-50 outline-2 outline-brand-500 dark:bg-brand-800/40" : ""}
            >
              <td className="px-3">
                <SelectBox label={`Select ${c.name}`} checked={selected.has(c.id)} onChange={() => onToggle(c.id)} />
              </td>
              <td className={`px-3 ${compact ? "py-1.5" : "py-3"}`}>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <Link to={`/contacts/${c.id}`} className="font-medium underline-offset-4 hover:underline">
                    {c.name}
                  </Link>
                  {/* On a phone the score rides with the name; wider screens give it a column. */}
                  <span className="sm:hidden">
                    <LeadScoreBadge contactId={c.id} score={c.leadScore} />
                  </span>
                </div>
                <div className="text-xs text-stone-600 dark:text-stone-400">{c.email ?? c.phone}</div>
              </td>
              <td className="px-3">
                <StatusBadge status={c.status} />
              </td>
              <td className="hidden px-3 sm:table-cell">
                <LeadScoreBadge contactId={c.id} score={c.leadScore} />
              </td>
              <td className="hidden px-3 sm:table-cell">{budgetText(c, prefs)}</td>
              <td className="hidden px-3 md:table-cell">{c.location ?? "—"}</td>
              {full ? (
                <>
                  <td className="hidden px-3 lg:table-cell">{PROPERTY_TYPE_LABELS[c.propertyType]}</td>
                  <td className="hidden px-3 lg:table-cell">{SOURCE_LABELS[c.source]}</td>
                  <td className="hidden px-3 lg:table-cell">{formatDate(c.lastActivity, prefs)}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
