import { Form, Link, useSearchParams, useSubmit } from "@remix-run/react";
import { Search } from "lucide-react";
import { useEffect, useRef } from "react";
import { Field } from "~/components/ui/Field";
import { choices, SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, CONTACT_STATUSES, PROPERTY_TYPES, type ContactStatus } from "~/db/enums";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS, STATUS_LABELS } from "../contacts.messages";

// The contact list's search, filters and sort (a GET form) and its tabs by status.

const SORT_OPTIONS = [
  ["newest", "Newest"],
  ["name", "Name"],
  ["activity", "Last activity"],
  ["budget", "Budget"],
  ["score", "Lead score"],
] as const;

export function FilterBar({ tags }: { tags: { tag: string; count: number }[] }) {
  const [params] = useSearchParams();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const formRef = useRef<HTMLFormElement>(null);
  const send = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => submit(formRef.current, { replace: true, preventScrollReset: true }), delay);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form
      ref={formRef}
      method="get"
      role="search"
      // Typing (search, budget, location) waits for a pause; a choice from a list applies at once.
      onChange={(event) => send(event.target instanceof HTMLInputElement ? 250 : 0)}
      // Sticky from md up only: on a phone, with the filters open, it would cover most of the screen.
      className="-mx-4 mb-4 flex min-h-10 flex-col gap-2 border-b border-stone-200 bg-stone-50/95 px-4 py-2 backdrop-blur md:sticky md:top-16 md:z-20 dark:border-stone-800 dark:bg-stone-950/95"
    >
      <label className="relative block">
        <span className="sr-only">Search contacts</span>
        <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-stone-500" />
        <input
          type="search"
          name="q"
          defaultValue={params.get("q") ?? ""}
          placeholder="Search name, e-mail, phone, notes, tags"
          className="min-h-12 w-full rounded-lg border border-stone-300 bg-white pl-10 pr-3 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
      </label>
      {/* Open when a filter inside is set (the status has its own tabs). */}
      <details className="group" open={["source", "type", "tag", "min", "max", "loc"].some((k) => params.get(k))}>
        <summary className="min-h-10 cursor-pointer content-center text-sm font-medium text-stone-700 dark:text-stone-300">Filters and sort</summary>
        <div className="grid grid-cols-2 gap-2 pt-2 sm:grid-cols-4">
          {params.get("status") ? <input type="hidden" name="status" value={params.get("status")!} /> : null}
          <SelectField
            label="Source"
            name="source"
            options={choices(CONTACT_SOURCES, SOURCE_LABELS)}
            defaultValue={params.get("source") ?? ""}
            placeholder={{ label: "Any" }}
          />
          <SelectField
            label="Property type"
            name="type"
            options={choices(PROPERTY_TYPES, PROPERTY_TYPE_LABELS)}
            defaultValue={params.get("type") ?? ""}
            placeholder={{ label: "Any" }}
          />
          <SelectField
            label="Tag"
            name="tag"
            options={tags.map((t) => [t.tag, `${t.tag} (${t.count})`] as const)}
            defaultValue={params.get("tag") ?? ""}
            placeholder={{ label: "Any" }}
          />
          <SelectField label="Sort by" name="sort" options={SORT_OPTIONS} defaultValue={params.get("sort") ?? "newest"} />
          <Field label="Budget from ($)" name="min" inputMode="numeric" defaultValue={params.get("min") ?? ""} />
          <Field label="Budget to ($)" name="max" inputMode="numeric" defaultValue={params.get("max") ?? ""} />
          <div className="col-span-2">
            <Field label="Location" name="loc" defaultValue={params.get("loc") ?? ""} />
          </div>
        </div>
      </details>
    </Form>
  );
}

export function StatusTabs({ counts }: { counts: Record<ContactStatus | "all", number> }) {
  const [params] = useSearchParams();
  const current = params.get("status") ?? "";
  const href = (status: string) => {
    const next = new URLSearchParams(params);
    next.delete("cursor");
    next.delete("highlight");
    if (status) next.set("status", status);
    else next.delete("status");
    return `?${next.toString()}`;
  };
  return (
    <nav aria-label="Contacts by status" className="relative mb-4 flex gap-2 overflow-x-auto">
      {(["", ...CONTACT_STATUSES] as const).map((status) => (
        <Link
          key={status || "all"}
          to={href(status)}
          replace
          preventScrollReset
          aria-current={current === status ? "page" : undefined}
          className={`inline-flex min-h-11 shrink-0 items-center gap-2 rounded-full border px-4 text-sm font-medium ${
            current === status
              ? "border-brand-700 bg-brand-700 text-white dark:border-brand-400 dark:bg-brand-400 dark:text-stone-950"
              : "border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900"
          }`}
        >
          {status ? STATUS_LABELS[status] : "All"}
          {/* Full-strength colour: at 80 % opacity on the active tab's brand fill the count was 3.81:1 (4.5:1 needed). */}
          <span className={`tabular-nums ${current === status ? "" : "text-stone-600 dark:text-stone-300"}`}>
            {status ? counts[status] : counts.all}
          </span>
        </Link>
      ))}
    </nav>
  );
}
