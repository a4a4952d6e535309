import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatDate } from "~/lib/format";
import { STATUS_LABELS } from "~/modules/contacts/contacts.messages";
import { requireTeamMember } from "~/modules/team/guard.server";
import { loadMemberContacts } from "~/modules/team/member-records.server";

export const meta: MetaFunction = () => [{ title: "Team contacts — Porchlight" }];

// Members' contacts for the team's owner and admins, when the owner lets them (ADR 0075): one member's at a time, most
// recently active first. Anyone else (an agent, a manager of a team that keeps records private) gets 404.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  return loadMemberContacts(context, { userId: user.id, team }, new URL(request.url).searchParams);
}

export default function TeamContactsPage() {
  const { access, members, agent, q, contacts, nextCursor, prefs } = useLoaderData<typeof loader>();
  const more = agent && nextCursor ? `?${new URLSearchParams({ agent: agent.id, ...(q ? { q } : {}), before: nextCursor })}` : null;
  return (
    <>
      <PageHeader
        title="Team contacts"
        description={
          access === "edit"
            ? "Every member's contacts, timelines and tasks: you can see and edit them. What you log shows your name."
            : "Every member's contacts, timelines and tasks, to see. The owner chooses whether admins may edit them."
        }
      />
      {members.length === 0 ? (
        <p className="rounded-xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
          No other members yet. Invite agents on the Team page.
        </p>
      ) : (
        <>
          <Form method="get" aria-label="Whose contacts" className="mb-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <SelectField label="Agent" name="agent" defaultValue={agent?.id} options={members.map((m) => [m.id, m.name] as const)} />
            <Field label="Name contains" name="q" type="search" defaultValue={q} maxLength={100} />
            <button type="submit" className={buttonClass("secondary")}>
              Show contacts
            </button>
          </Form>
          {contacts.length === 0 ? (
            <p className="rounded-xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
              {q ? `No contact of ${agent?.name}'s has “${q}” in their name.` : `${agent?.name} has no contacts yet.`}
            </p>
          ) : (
            <ul
              aria-label={`${agent?.name}'s contacts`}
              className="divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900"
            >
              {contacts.map((c) => (
                <li key={c.id}>
                  <Link
                    to={`/team/contacts/${encodeURIComponent(c.id)}`}
                    className="flex min-h-14 flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3 hover:bg-stone-50 dark:hover:bg-stone-800"
                  >
                    <span className="min-w-0">
                      <span className="block font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-400">{c.name}</span>
                      <span className="block truncate text-sm text-stone-600 dark:text-stone-400">
                        {[c.email, c.phone].filter(Boolean).join(" · ")}
                      </span>
                    </span>
                    <span className="text-sm text-stone-600 dark:text-stone-400">
                      {STATUS_LABELS[c.status]} · last activity {formatDate(c.lastActivity, prefs)}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {more ? (
            <Link to={more} className={buttonClass("ghost", "mt-3")}>
              Show more
            </Link>
          ) : null}
        </>
      )}
    </>
  );
}
