import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { toast } from "~/components/ui/Toaster";
import { formatMoney } from "~/lib/format";
import { readForm } from "~/lib/body.server";
import { ContactDetails } from "~/modules/contacts/components/ContactDetails";
import { ContactForm } from "~/modules/contacts/components/ContactForm";
import { STATUS_LABELS, type PossibleDuplicate } from "~/modules/contacts/contacts.messages";
import { requireTeamMember } from "~/modules/team/guard.server";
import { loadMemberContact, memberContactAction } from "~/modules/team/member-records.server";
import { MemberLogForm, MemberTaskForm, MemberTasks, MemberTimeline } from "~/modules/team/components/MemberRecords";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.contact.name} (${data.agent.name}'s contact) — Porchlight` : "Contact — Porchlight" },
];

// A member's contact as the team's owner or an admin sees it (ADR 0075): only when the owner lets managers see members'
// records, and edited only when they let them edit. Who may open which contact is visibility.server.ts's rule; the
// same 404 answers a contact that does not exist, another team's, and one the rule does not open.

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  return loadMemberContact(context, { userId: user.id, team }, params.id ?? "", new URL(request.url).searchParams.get("before"));
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  return memberContactAction(context, { userId: user.id, team }, params.id ?? "", await readForm(request));
}

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

export default function TeamMemberContact() {
  const { agent, canEdit, contact, prefs, now, tasks, activity, deals } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const editing = canEdit && params.has("edit");
  const refused = result && !result.ok ? result : null;
  const duplicates = refused && "duplicates" in refused ? (refused.duplicates as PossibleDuplicate[]) : [];
  const errorFor = (intent: string) => (refused?.intent === intent ? refused.error : undefined);

  useEffect(() => {
    if (result?.ok) toast({ title: result.message, variant: "success" });
    else if (result && result.intent !== "log" && result.intent !== "task") toast({ title: result.error, variant: "destructive" });
  }, [result]);

  const base = `/team/contacts/${encodeURIComponent(contact.id)}`;
  const older = activity.nextCursor ? `${base}?${new URLSearchParams({ before: activity.nextCursor })}` : null;
  return (
    <>
      <Link
        to={`/team/contacts?${new URLSearchParams({ agent: agent.id })}`}
        className="mb-3 inline-flex min-h-11 items-center text-brand-700 underline underline-offset-2 dark:text-brand-400"
      >
        ← {agent.name}'s contacts
      </Link>
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold md:text-3xl">{contact.name}</h1>
        <span className="rounded-full bg-stone-200 px-3 py-0.5 text-sm font-semibold dark:bg-stone-800">{STATUS_LABELS[contact.status]}</span>
      </div>
      <p className="mb-4 text-sm text-stone-600 dark:text-stone-400">
        {agent.name}'s contact · {canEdit ? "you can see and edit it" : "you can see it"}
      </p>
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <div className="flex flex-col gap-4">
          {editing ? (
            <section aria-labelledby="contact-edit" className={card}>
              <h2 id="contact-edit" className="mb-3 font-semibold">
                Edit details
              </h2>
              <ContactForm
                key={String(contact.updatedAt)}
                contact={contact}
                errors={refused?.intent === "update" ? refused.fieldErrors : {}}
                duplicates={duplicates.length > 0 ? duplicates : null}
                cancelHref={base}
              />
            </section>
          ) : (
            <ContactDetails
              contact={contact}
              prefs={prefs}
              editHref={canEdit ? `${base}?edit` : null}
              optedOut={contact.emailOptOutAt != null}
              className={card}
            />
          )}
          <MemberTimeline activities={activity.activities} prefs={prefs} moreHref={older} />
        </div>
        <div className="flex flex-col gap-4">
          <section aria-labelledby="member-deals" className={card}>
            <h2 id="member-deals" className="mb-2 text-lg font-semibold">
              Deals
            </h2>
            {deals.length === 0 ? (
              <p className="text-sm text-stone-600 dark:text-stone-400">No deals with this contact.</p>
            ) : (
              <ul className="grid gap-1">
                {deals.map((d) => (
                  <li key={d.id}>
                    <span className="font-medium">{d.title}</span> · {d.stage}
                    {d.dealValueCents != null ? ` · ${formatMoney(d.dealValueCents / 100, prefs)}` : ""}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <MemberTasks tasks={tasks} prefs={prefs} now={now} canEdit={canEdit} agentName={agent.name} />
          {canEdit ? (
            <>
              <MemberLogForm now={now} error={errorFor("log")} />
              <MemberTaskForm now={now} agentName={agent.name} error={errorFor("task")} />
            </>
          ) : null}
        </div>
      </div>
    </>
  );
}
