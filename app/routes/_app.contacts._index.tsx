import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { auditWhere } from "~/modules/audit/audit.server";
import { data } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData, useSearchParams } from "@remix-run/react";
import { Search, Users } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import type { Contact } from "~/db/schema";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { useOpenAddContact } from "~/modules/contacts/components/AddContactDialog";
import { BulkBar } from "~/modules/contacts/components/BulkBar";
import { FilterBar, StatusTabs } from "~/modules/contacts/components/ContactFilters";
import { ContactCards, ContactTable } from "~/modules/contacts/components/ContactListViews";
import { ContactsHeaderActions } from "~/modules/contacts/components/ContactsHeaderActions";
import { ViewToggles } from "~/modules/contacts/components/ViewToggles";
import { addContactFromForm } from "~/modules/contacts/add-contact.server";
import { getContact, listContacts, loadListSurroundings } from "~/modules/contacts/contacts.server";
import { useAnnounceDeleted, type DeleteResult } from "~/modules/contacts/components/DeletedContactsUndo";
import { refreshScoresForView } from "~/modules/contacts/lead-score.server";
import { layoutOn } from "~/modules/contacts/list-layout";
import { saveViewFromForm, setSelectedStatus, tagSelected, trashSelected } from "~/modules/contacts/list-actions.server";
import { readListParams } from "~/modules/contacts/list-params";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";

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
    {
      contacts,
      nextCursor: page.nextCursor,
      counts,
      tags,
      view,
      prefs,
      highlight: highlighted?.id ?? null,
      filtered: Object.values(filters).some((v) => v !== undefined),
    },
    { headers: serverTiming("contacts", started) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const send = <T,>({ body, status }: { body: T; status: number }) => data(body, { status });
  return dispatchIntent(form, {
    // A new lead: checked, warned about a duplicate, made once, its alert raised after the answer (add-contact.server.ts).
    create: async () => {
      const result = await addContactFromForm(context, user.id, form);
      return data(result, { status: result.ok ? 200 : result.status });
    },
    delete: async () => send(await trashSelected(context, user.id, form, auditWhere(request))),
    "bulk-status": async () => send(await setSelectedStatus(context, user.id, form)),
    "bulk-tag": async () => send(await tagSelected(context, user.id, form)),
    view: async () => send(await saveViewFromForm(context, user.id, form)),
  });
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
    if (more.data && more.state === "idle")
      setExtra((prev) => ({ contacts: [...prev.contacts, ...(more.data!.contacts as Contact[])], nextCursor: more.data!.nextCursor }));
  }, [more.data, more.state]);

  useEffect(() => {
    if (!loaded.highlight) return;
    // The table row or the card, whichever this screen shows.
    const row = [document.getElementById(`contact-${loaded.highlight}`), document.getElementById(`contact-card-${loaded.highlight}`)].find(
      (el) => el && el.getClientRects().length > 0,
    );
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
              <div
                key={screen}
                className={layout === wideLayout && layout === phoneLayout ? undefined : screen === "phone" ? "md:hidden" : "hidden md:block"}
              >
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
