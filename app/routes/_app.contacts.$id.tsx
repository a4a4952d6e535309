import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { auditWhere } from "~/modules/audit/audit.server";
import { data } from "@remix-run/cloudflare";
import { useActionData, useFetcher, useLoaderData, useNavigate, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { MessageSquare, Phone } from "lucide-react";
import { useEffect } from "react";
import { DeleteSection } from "~/components/DeleteSection";
import { toast } from "~/components/ui/Toaster";
import { formatDate } from "~/lib/format";
import { redirectWithToast } from "~/lib/toast.server";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { CONTACTS_ACTION } from "~/modules/contacts/components/AddContactDialog";
import { BackToContacts } from "~/modules/contacts/components/BackToContacts";
import { ContactDetails } from "~/modules/contacts/components/ContactDetails";
import { ContactForm } from "~/modules/contacts/components/ContactForm";
import { useAnnounceDeleted, type DeleteResult } from "~/modules/contacts/components/DeletedContactsUndo";
import { LeadScoreBadge } from "~/modules/contacts/components/LeadScoreBadge";
import { LeadScorePanel } from "~/modules/contacts/components/LeadScorePanel";
import { CONTACT_MESSAGES, STATUS_LABELS } from "~/modules/contacts/contacts.messages";
import { updateContactFromForm } from "~/modules/contacts/edit-contact.server";
import { deleteContacts, getContact } from "~/modules/contacts/contacts.server";
import { refreshScoresForView, withCurrentScore } from "~/modules/contacts/lead-score.server";
import { getPlan } from "~/modules/commissions/plans.server";
import { ContactDeals } from "~/modules/deals/components/ContactDeals";
import { dealsForContact } from "~/modules/deals/deals.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { timeline } from "~/modules/activities/activities.server";
import { PropertiesPanel } from "~/modules/properties/components/PropertiesPanel";
import { propertiesFor } from "~/modules/properties/properties.server";
import { ActivityTimeline } from "~/modules/activities/components/ActivityTimeline";
import { TaskPanel } from "~/modules/tasks/components/TaskPanel";
import { localNow } from "~/modules/tasks/due";
import { tasksFor } from "~/modules/tasks/tasks.server";
import { readForm } from "~/lib/body.server";
import { ReachOutLink } from "~/modules/sync/components/ReachOutLink";
import { dispatchIntent } from "~/lib/intents.server";
import { ComposeEmail } from "~/modules/conversations/components/ComposeEmail";
import { TextWithTemplate } from "~/modules/conversations/components/TextWithTemplate";
import { ContactPlans } from "~/modules/plans/components/ContactPlans";
import { listPlans, plansForContact } from "~/modules/plans/plans.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.contact.name} — Porchlight` : "Contact — Porchlight" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const [contact, prefs, deals, stages, plan, tasks, activity, interests, runs, plans] = await Promise.all([
    // Stale scores first (one indexed read when none are), and this contact's again if it is over a day old.
    refreshScoresForView(context, user.id)
      .then(() => getContact(context, user.id, id))
      .then((found) => (found ? withCurrentScore(context.db, user.id, found).catch(() => found) : found)),
    getDisplayPreferences(context, user.id),
    dealsForContact(context, user.id, id),
    getStages(context, user.id),
    getPlan(context, user.id),
    tasksFor(context, user.id, { contactId: id }),
    timeline(context, user.id, { contactId: id }),
    propertiesFor(context, user.id, id),
    plansForContact(context.db, user.id, id),
    listPlans(context.db, user.id),
  ]);
  // Someone else's contact and a contact that does not exist look the same.
  if (!contact) throw new Response("Not Found", { status: 404 });
  return {
    contact,
    prefs,
    now: localNow(prefs.timezone),
    tasks,
    activity,
    interests,
    stages,
    defaultRate: plan.defaultRate,
    plans: { runs, all: plans.map((p) => ({ id: p.id, name: p.name })) },
    deals: deals.map((d) => ({
      id: d.id,
      title: d.title,
      stage: d.stage,
      dealValueCents: d.dealValueCents,
      expectedCloseDate: d.expectedCloseDate,
      closedDate: d.closedDate,
    })),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const form = await readForm(request);
  return dispatchIntent(form, {
    delete: async () => {
      if ((await deleteContacts(context, user.id, [id], auditWhere(request))) === 0) throw new Response("Not Found", { status: 404 });
      return redirectWithToast(context, "/contacts", { title: "Contact deleted", variant: "success" });
    },
    update: async () => {
      const result = await updateContactFromForm(context, user.id, id, form);
      if (!result) throw new Response("Not Found", { status: 404 });
      if (!result.ok) {
        const { status, ...refused } = result;
        return data({ ...refused, intent: "update" }, { status });
      }
      // Saved: back to the readable view (the form lives at ?edit).
      return redirectWithToast(context, `/contacts/${id}`, { title: "Changes saved", variant: "success" });
    },
  });
}

// Opening or closing the form (?edit) changes nothing on the server; and after a delete from this page the
// contact is gone (its loader would answer 404 while the page leaves for the list). The same address again is a
// revalidation asked for (a call logged by "How did it go?"): that one reads.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, formAction, formData, defaultShouldRevalidate }) => {
  if (formAction === CONTACTS_ACTION && formData?.get("intent") === "delete") return false;
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) {
    const [a, b] = [new URLSearchParams(currentUrl.search), new URLSearchParams(nextUrl.search)];
    a.delete("edit");
    b.delete("edit");
    if (a.toString() === b.toString()) return false;
  }
  return defaultShouldRevalidate;
};

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

export default function ContactProfile() {
  const { contact, prefs, deals, stages, defaultRate, now, tasks, activity, interests, plans } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const editing = params.has("edit");
  const errors = result && !result.ok ? result.fieldErrors : {};
  const duplicates = result && !result.ok && "duplicates" in result && result.duplicates.length > 0 ? result.duplicates : null;

  useEffect(() => {
    if (result && !result.ok && !("duplicates" in result && result.duplicates.length > 0))
      toast({ title: CONTACT_MESSAGES.validationTitle, description: Object.values(result.fieldErrors)[0], variant: "destructive" });
  }, [result]);

  // Deleting goes through the list's action, which answers with the removed row: the list then offers Undo.
  const remover = useFetcher<DeleteResult>();
  const announceDeleted = useAnnounceDeleted();
  const navigate = useNavigate();
  useFetcherResult(remover, (deleted) => {
    navigate("/contacts");
    if (deleted.ok) announceDeleted(deleted, "Contact deleted");
    else toast({ title: "This contact was already deleted", variant: "destructive" });
  });

  const quick =
    "inline-flex min-h-12 items-center gap-2 rounded-lg border border-stone-300 bg-white px-4 font-medium dark:border-stone-700 dark:bg-stone-900";
  return (
    <>
      <BackToContacts />
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold md:text-3xl">{contact.name}</h1>
        <span className="rounded-full bg-stone-200 px-3 py-0.5 text-sm font-semibold dark:bg-stone-800">{STATUS_LABELS[contact.status]}</span>
        <LeadScoreBadge contactId={contact.id} score={contact.leadScore} />
      </div>
      <p className="mb-3 text-sm text-stone-600 dark:text-stone-400">
        {/* A contact nobody has worked with yet has no last activity (its stored one is only the day it was added). */}
        Added {formatDate(contact.createdAt, prefs)} ·{" "}
        {activity.activities.length === 0 ? "No activity yet" : `last activity ${formatDate(contact.lastActivity, prefs)}`}
      </p>
      <div className="mb-4 flex flex-wrap gap-2">
        {contact.phone ? (
          <>
            <ReachOutLink contact={contact} phone={contact.phone} kind="call" className={quick}>
              <Phone aria-hidden="true" className="h-5 w-5" /> Call
            </ReachOutLink>
            <ReachOutLink contact={contact} phone={contact.phone} kind="text" className={quick}>
              <MessageSquare aria-hidden="true" className="h-5 w-5" /> Text
            </ReachOutLink>
            <TextWithTemplate contact={contact} phone={contact.phone} className={quick} />
          </>
        ) : null}
        {contact.email ? <ComposeEmail contact={{ id: contact.id, name: contact.name, email: contact.email }} className={quick} /> : null}
      </div>

      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        {editing ? (
          <section aria-labelledby="contact-edit" className={card}>
            <h2 id="contact-edit" className="mb-3 font-semibold">
              Edit details
            </h2>
            {/* Keyed by the last save, so a reopened form starts from what is stored now. */}
            <ContactForm
              key={String(contact.updatedAt)}
              contact={contact}
              errors={errors}
              duplicates={duplicates}
              cancelHref={`/contacts/${contact.id}`}
            />
          </section>
        ) : (
          <ContactDetails
            contact={contact}
            prefs={prefs}
            editHref={`/contacts/${contact.id}?edit`}
            optedOut={contact.emailOptOutAt != null}
            className={`${card} self-start`}
          />
        )}

        <div className="flex flex-col gap-4">
          <LeadScorePanel score={contact.leadScore} factors={contact.leadScoreFactors} className={card} />
          <ContactDeals
            deals={deals}
            stages={stages}
            prefs={prefs}
            defaultRate={defaultRate}
            contact={{ id: contact.id, name: contact.name }}
            className={card}
          />
          <PropertiesPanel items={interests} prefs={prefs} className={card} />
          <ContactPlans contact={contact} runs={plans.runs} plans={plans.all} prefs={prefs} className={card} />
          <TaskPanel tasks={tasks} now={now} prefs={prefs} contact={{ id: contact.id, name: contact.name }} />
          <ActivityTimeline initial={activity} prefs={prefs} today={now.date} nowTime={now.time} contact={{ id: contact.id, name: contact.name }} />
          <DeleteSection
            id="danger"
            title="Delete contact"
            question={`Delete ${contact.name}? Their deals, tasks and activities stay, without the link. The contact goes to the trash for 30 days: undo it from the message that follows, or restore it (links and all) from Settings → Trash.`}
            className={card}
            busy={remover.state !== "idle"}
            onConfirm={() => remover.submit({ intent: "delete", id: contact.id }, { method: "post", action: CONTACTS_ACTION })}
          />
        </div>
      </div>
    </>
  );
}
