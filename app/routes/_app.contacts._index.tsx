import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useFetcher, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import { LayoutGrid, List, Search, Users } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { choices, SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, CONTACT_STATUSES, PROPERTY_TYPES, type ContactStatus } from "~/db/enums";
import type { Contact } from "~/db/schema";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { CONTACTS_ACTION, useOpenAddContact } from "~/modules/contacts/components/AddContactDialog";
import { ContactCards, ContactTable } from "~/modules/contacts/components/ContactListViews";
import { ContactsHeaderActions } from "~/modules/contacts/components/ContactsHeaderActions";
import { toast } from "~/components/ui/Toaster";
import { normaliseTags } from "~/modules/contacts/contact.schema";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS, STATUS_LABELS } from "~/modules/contacts/contacts.messages";
import { addContactFromForm } from "~/modules/contacts/add-contact.server";
import { changeTag, getContact, listContacts, loadListSurroundings, setStatus, trashContacts } from "~/modules/contacts/contacts.server";
import { useAnnounceDeleted, type DeleteResult } from "~/modules/contacts/components/DeletedContactsUndo";
import { refreshScoresForView } from "~/modules/contacts/lead-score.server";
import { layoutOn } from "~/modules/contacts/list-layout";
import { readListParams } from "~/modules/contacts/list-params";
import { ContactsViewSchema, saveContactsView, type ContactsView } from "~/modules/contacts/view.server";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { readForm } from "~/lib/body.server";

export const meta: MetaFunction = () => [{ title: "Contacts — Porchlight" }];

export const headers = serverTimingHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const url = new URL(request.url);
  const { filters, sort } = readListParams(url.searchParams);
  const cursor = url.searchParams.get("cursor") ?? undefined;
  const highlight = url.searchParams.get("highlight");
  const started = Date.now();
  // Scores whose inputs changed are computed before the list is read (one indexed read when none did). A
  // further page continues the order already shown, so it does not rescore.
  const scored = cursor ? Promise.resolve() : refreshScoresForView(context, user.id);
  const [page, { counts, tags, view, prefs }, highlighted] = await Promise.all([
    scored.then(() => listContacts(context, user.id, { filters, sort, cursor })),
    loadListSurroundings(context, user.id),
    highlight && !cursor ? scored.then(() => getContact(context, user.id, highlight)) : Promise.resolve(undefined),
  ]);
  // ?highlight=<id>: that contact is shown even when it is not on the first page.
  const contacts = highlighted && !page.contacts.some((c) => c.id === highlighted.id) ? [highlighted, ...page.contacts] : page.contacts;
  return data(
    { contacts, nextCursor: page.nextCursor, counts, tags, view, prefs, highlight: highlighted?.id ?? null, filtered: Object.values(filters).some((v) => v !== undefined) },
    { headers: serverTiming("contacts", started) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "create") {
    const result = await addContactFromForm(context, user.id, form);
    return data(result, { status: result.ok ? 200 : result.status });
  }
  const ids = form.getAll("id").map(String).slice(0, 5_000);
  if (intent === "delete") {
    // To the trash (ADR 0028): only the trash ids go back to the browser, for an Undo.
    const { moved, trashIds } = await trashContacts(context, user.id, ids);
    return data({ ok: moved > 0, deleted: moved, trashIds }, { status: moved > 0 ? 200 : 404 });
  }
  if (intent === "bulk-status") {
    const status = CONTACT_STATUSES.find((s) => s === form.get("status"));
    if (!status) return data({ ok: false, changed: 0, error: "Choose hot, warm or cold." }, { status: 400 });
    return { ok: true, changed: await setStatus(context, user.id, ids, status), error: null };
  }
  if (intent === "bulk-tag") {
    const [tag] = normaliseTags(String(form.get("tag") ?? ""));
    const change = form.get("change") === "remove" ? "remove" : "add";
    if (!tag) return data({ ok: false, changed: 0, error: "Type a tag first." }, { status: 400 });
    return { ok: true, changed: await changeTag(context, user.id, ids, tag, change), error: null };
  }
  if (intent === "view") {
    const parsed = ContactsViewSchema.partial().safeParse(Object.fromEntries(form));
    if (!parsed.success) return data({ ok: false }, { status: 400 });
    await saveContactsView(context, user.id, parsed.data);
    return { ok: true };
  }
  return data({ ok: false }, { status: 400 });
}


const SORT_OPTIONS = [
  ["newest", "Newest"],
  ["name", "Name"],
  ["activity", "Last activity"],
  ["budget", "Budget"],
  ["score", "Lead score"],
] as const;

function FilterBar({ tags }: { tags: { tag: string; count: number }[] }) {
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
          <SelectField label="Source" name="source" options={choices(CONTACT_SOURCES, SOURCE_LABELS)} defaultValue={params.get("source") ?? ""} placeholder={{ label: "Any" }} />
          <SelectField label="Property type" name="type" options={choices(PROPERTY_TYPES, PROPERTY_TYPE_LABELS)} defaultValue={params.get("type") ?? ""} placeholder={{ label: "Any" }} />
          <SelectField label="Tag" name="tag" options={tags.map((t) => [t.tag, `${t.tag} (${t.count})`] as const)} defaultValue={params.get("tag") ?? ""} placeholder={{ label: "Any" }} />
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

function StatusTabs({ counts }: { counts: Record<ContactStatus | "all", number> }) {
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
            current === status ? "border-brand-700 bg-brand-700 text-white dark:border-brand-400 dark:bg-brand-400 dark:text-stone-950" : "border-stone-300 bg-white dark:border-stone-700 dark:bg-stone-900"
          }`}
        >
          {status ? STATUS_LABELS[status] : "All"}
          {/* Full-strength colour: at 80 % opacity on the active tab's brand fill the count was 3.81:1 (4.5:1 needed). */}
          <span className={`tabular-nums ${current === status ? "" : "text-stone-600 dark:text-stone-300"}`}>{status ? counts[status] : counts.all}</span>
        </Link>
      ))}
    </nav>
  );
}

function ViewToggles({ view }: { view: ContactsView }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData ? (Object.fromEntries(fetcher.formData) as Partial<ContactsView>) : {};
  const current = { ...view, ...pending };
  // Each button is a toggle: pressed when its choice is the current one; pressing it switches to it (or back).
  const button = (field: keyof ContactsView, value: string, pressed: boolean, label: React.ReactNode, title: string) => (
    <fetcher.Form method="post" key={`${field}-${title}`}>
      <input type="hidden" name="intent" value="view" />
      <button
        type="submit"
        name={field}
        value={value}
        aria-pressed={pressed}
        title={title}
        className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-lg border px-2 text-sm font-medium ${
          pressed ? "border-stone-900 bg-stone-900 text-white dark:border-stone-100 dark:bg-stone-100 dark:text-stone-900" : "border-stone-300 bg-white text-stone-700 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-300"
        }`}
      >
        {label}
      </button>
    </fetcher.Form>
  );
  // Table and Cards show what this screen shows (list-layout.ts), so there is one pair for phones and one for
  // wider screens, each hidden on the other. Pressing the layout already shown keeps the saved choice as it is:
  // only a change is remembered as the agent's own.
  const layoutButtons = (screen: "phone" | "wide") =>
    (["table", "cards"] as const).map((layout) => {
      const shown = layoutOn(screen, current.contactsLayout) === layout;
      const Icon = layout === "table" ? List : LayoutGrid;
      const name = layout === "table" ? "Table" : "Cards";
      return button("contactsLayout", shown ? current.contactsLayout : layout, shown, <><Icon aria-hidden="true" className="h-5 w-5" /><span className="sr-only">{name}</span></>, name);
    });
  return (
    <div className="flex flex-wrap items-center gap-1" aria-label="View options" role="group">
      <div className="flex gap-1 md:hidden">{layoutButtons("phone")}</div>
      <div className="hidden gap-1 md:flex">{layoutButtons("wide")}</div>
      {button("contactsDensity", current.contactsDensity === "compact" ? "comfortable" : "compact", current.contactsDensity === "compact", "Compact", "Compact rows")}
      {button("contactsDetail", current.contactsDetail === "full" ? "summary" : "full", current.contactsDetail === "full", "Full detail", "Show more fields")}
    </div>
  );
}

/** Actions on the selected contacts: status, tags, export, delete (confirmed, with undo). */
function BulkBar({ ids, onDeleted }: { ids: string[]; onDeleted: (result: DeleteResult) => void }) {
  const bulk = useFetcher<{ ok: boolean; changed: number; error: string | null }>();
  const remove = useFetcher<DeleteResult>();
  const [confirming, setConfirming] = useState(false);
  const [tag, setTag] = useState("");
  const busy = bulk.state !== "idle" || remove.state !== "idle";
  const post = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    for (const id of ids) form.append("id", id);
    return form;
  };

  const seen = useRef<unknown[]>([]);
  const once = (result: unknown) => {
    if (!result || seen.current.includes(result)) return false;
    seen.current.push(result);
    return true;
  };
  useEffect(() => {
    const result = bulk.data;
    if (bulk.state !== "idle" || !once(result) || !result) return;
    if (result.ok) {
      toast({ title: `${result.changed} ${result.changed === 1 ? "contact" : "contacts"} updated`, variant: "success" });
      setTag("");
    } else toast({ title: "Nothing changed", description: result.error ?? undefined, variant: "destructive" });
  }, [bulk.data, bulk.state]);
  useEffect(() => {
    const result = remove.data;
    if (remove.state !== "idle" || !once(result) || !result) return;
    setConfirming(false);
    onDeleted(result);
  }, [remove.data, remove.state, onDeleted]);

  const small = "inline-flex min-h-11 items-center rounded-lg border border-stone-300 bg-white px-3 text-sm font-medium dark:border-stone-700 dark:bg-stone-900";
  return (
    <section aria-label="Selected contacts" className="sticky bottom-40 z-30 mb-3 flex flex-wrap items-center gap-2 rounded-2xl border border-brand-600 bg-brand-50 p-3 shadow-lg md:bottom-24 dark:bg-stone-900">
      <p className="mr-2 font-semibold" aria-live="polite">
        {ids.length} selected
      </p>
      <label className="flex items-center gap-1 text-sm">
        <span className="sr-only">Set status</span>
        <select
          aria-label="Set status"
          value=""
          disabled={busy}
          onChange={(event) => event.target.value && bulk.submit(post({ intent: "bulk-status", status: event.target.value }), { method: "post", action: CONTACTS_ACTION })}
          className={small}
        >
          <option value="">Set status…</option>
          {CONTACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <input aria-label="Tag" value={tag} onChange={(event) => setTag(event.target.value)} placeholder="Tag" className={`${small} w-28`} />
      <button type="button" disabled={busy} className={small} onClick={() => bulk.submit(post({ intent: "bulk-tag", change: "add", tag }), { method: "post", action: CONTACTS_ACTION })}>
        Add tag
      </button>
      <button type="button" disabled={busy} className={small} onClick={() => bulk.submit(post({ intent: "bulk-tag", change: "remove", tag }), { method: "post", action: CONTACTS_ACTION })}>
        Remove tag
      </button>
      <a href={`/contacts/export.csv?${ids.map((id) => `id=${encodeURIComponent(id)}`).join("&")}`} download className={small}>
        Export
      </a>
      {confirming ? (
        <span role="alertdialog" aria-label="Confirm delete" className="flex flex-wrap items-center gap-2">
          <span>Delete {ids.length} {ids.length === 1 ? "contact" : "contacts"}?</span>
          <button
            type="button"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation the agent just asked for takes focus
            autoFocus
            disabled={busy}
            onClick={() => remove.submit(post({ intent: "delete" }), { method: "post", action: CONTACTS_ACTION })}
            className={buttonClass("danger")}
          >
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)} className={small}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className={small}>
          Delete…
        </button>
      )}
    </section>
  );
}

export default function ContactsPage() {
  const loaded = useLoaderData<typeof loader>();
  const openAdd = useOpenAddContact();
  const view = loaded.view;
  const more = useFetcher<typeof loader>();
  const [extra, setExtra] = useState<{ contacts: Contact[]; nextCursor: string | null }>({ contacts: [], nextCursor: null });
  const [params] = useSearchParams();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  // The undo of a bulk delete is not in the selection bar, which closes once the contacts are gone.
  const announceDeleted = useAnnounceDeleted();
  const onDeleted = useCallback(
    (result: DeleteResult) => {
      setSelected(new Set());
      announceDeleted(result);
    },
    [announceDeleted],
  );

  // A new search or filter starts the list again.
  useEffect(() => setExtra({ contacts: [], nextCursor: null }), [loaded]);
  useEffect(() => {
    if (more.data && more.state === "idle") setExtra((prev) => ({ contacts: [...prev.contacts, ...(more.data!.contacts as Contact[])], nextCursor: more.data!.nextCursor }));
  }, [more.data, more.state]);

  useEffect(() => {
    if (!loaded.highlight) return;
    // The table row or the card, whichever this screen shows.
    const row = [document.getElementById(`contact-${loaded.highlight}`), document.getElementById(`contact-card-${loaded.highlight}`)].find((el) => el && el.getClientRects().length > 0);
    row?.scrollIntoView({ block: "center" });
    row?.focus();
  }, [loaded.highlight]);

  const contacts = [...(loaded.contacts as Contact[]), ...extra.contacts];
  const nextCursor = extra.contacts.length > 0 ? extra.nextCursor : loaded.nextCursor;
  const phoneLayout = layoutOn("phone", view.contactsLayout);
  const wideLayout = layoutOn("wide", view.contactsLayout);
  const listProps = {
    contacts,
    prefs: loaded.prefs,
    selected,
    onToggle: toggle,
    onToggleAll: (all: boolean) => setSelected(all ? new Set(contacts.map((c) => c.id)) : new Set()),
    highlight: loaded.highlight,
    compact: view.contactsDensity === "compact",
    full: view.contactsDetail === "full",
  };

  const loadMore = () => {
    const next = new URLSearchParams(params);
    next.delete("highlight");
    next.set("cursor", nextCursor!);
    more.load(`/contacts?index&${next.toString()}`);
  };

  // Export what the list shows: the same search, filters and order.
  const exportParams = new URLSearchParams(params);
  exportParams.delete("cursor");
  exportParams.delete("highlight");

  const header = (
    <PageHeader
      title="Contacts"
      description="Leads, clients and your sphere"
      actions={
        <div data-tour="add-contact">
          <ContactsHeaderActions count={loaded.counts.all} exportHref={`/contacts/export.csv?${exportParams.toString()}`} onAdd={openAdd} />
        </div>
      }
    />
  );

  if (loaded.counts.all === 0 && !loaded.filtered) {
    return (
      <>
        {header}
        {/* Where the list will be: the tour's "contact profile" step points here on an empty account. */}
        <div data-tour="contact-list">
        <EmptyState icon={Users} title="No contacts yet">
          <p>Add your first contact, or bring your whole list from a spreadsheet or another CRM with a CSV file.</p>
          <div className="mt-4 flex flex-wrap justify-center gap-3">
            <button type="button" onClick={openAdd} className={buttonClass("primary")}>
              Add your first contact
            </button>
            <Link to="/contacts/import" className={buttonClass("secondary")}>
              Import a CSV
            </Link>
            <Link to="/guides/importing-contacts" className={buttonClass("ghost")}>
              How to import a CSV
            </Link>
          </div>
        </EmptyState>
        </div>
      </>
    );
  }

  return (
    <>
      {header}
      <FilterBar tags={loaded.tags} />
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <StatusTabs counts={loaded.counts} />
        <ViewToggles view={view} />
      </div>
      <p className="sr-only" aria-live="polite">
        {loaded.filtered ? `${contacts.length}${nextCursor ? " or more" : ""} contacts match` : `${loaded.counts.all} contacts`}
      </p>
      {selected.size > 0 ? <BulkBar ids={[...selected]} onDeleted={onDeleted} /> : null}
      {contacts.length === 0 ? (
        <EmptyState icon={Search} title="No contacts match">
          <p>Try fewer words or clear a filter.</p>
        </EmptyState>
      ) : (
        // One tour target around both layouts: only one of them shows at a time.
        <div data-tour="contact-list">
        {(["phone", "wide"] as const).map((screen) => {
          const layout = layoutOn(screen, view.contactsLayout);
          // One list when both screens show the same layout; otherwise each shows only on its own screen.
          if (screen === "wide" && layout === phoneLayout) return null;
          const View = layout === "cards" ? ContactCards : ContactTable;
          return (
            <div key={screen} className={layout === wideLayout && layout === phoneLayout ? undefined : screen === "phone" ? "md:hidden" : "hidden md:block"}>
              <View {...listProps} sortedByScore={params.get("sort") === "score"} />
            </div>
          );
        })}
        </div>
      )}
      {nextCursor ? (
        <div className="mt-4 flex justify-center">
          <button type="button" onClick={loadMore} disabled={more.state !== "idle"} className={buttonClass("secondary")}>
            {more.state !== "idle" ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
    </>
  );
}
