import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CopyCheck } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { formatDate } from "~/lib/format";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { BackToContacts } from "~/modules/contacts/components/BackToContacts";
import { STATUS_LABELS } from "~/modules/contacts/contacts.messages";
import { findDuplicates, mergeContacts } from "~/modules/contacts/duplicates.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { formWideError } from "~/lib/action-result";
import { readForm } from "~/lib/body.server";
import { refuse } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Duplicate contacts — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const [groups, prefs] = await Promise.all([findDuplicates(context, user.id), getDisplayPreferences(context, user.id)]);
  return { groups, prefs };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const primary = String(form.get("primary") ?? "");
  const others = form
    .getAll("id")
    .map(String)
    .filter((id) => id !== primary);
  const merged = await mergeContacts(context, user.id, primary, others);
  if (!merged) return refuse("merge", { form: "Those contacts could not be merged. Reload the page and try again." }, 404);
  return redirectWithToast(context, "/contacts/duplicates", {
    title: "Contacts merged",
    description: `Kept ${merged.name}, with tags and notes from all.`,
    variant: "success",
  });
}

export default function DuplicatesPage() {
  const { groups, prefs } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const refused = formWideError(useActionData<typeof action>());
  return (
    <>
      <BackToContacts />
      <PageHeader title="Duplicate contacts" description="Contacts that share an e-mail address or a phone number." />
      {refused ? (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-400">
          {refused}
        </p>
      ) : null}
      {groups.length === 0 ? (
        <EmptyState icon={CopyCheck} title="No duplicates found">
          <p>No two contacts share an e-mail address or a phone number.</p>
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-4">
          {groups.map((group) => (
            <li key={`${group.reason}-${group.key}`}>
              <Form
                method="post"
                className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
                aria-label={`Same ${group.reason === "email" ? "e-mail" : "phone"}: ${group.key}`}
              >
                <fieldset>
                  <legend className="font-semibold">
                    Same {group.reason === "email" ? "e-mail" : "phone"}: {group.key}
                  </legend>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    Choose the contact to keep. The others are merged into it: empty fields are filled in, tags and notes are combined.
                  </p>
                  <div className="mt-3 flex flex-col gap-2">
                    {group.contacts.map((contact, index) => (
                      <label
                        key={contact.id}
                        className="flex min-h-12 items-start gap-3 rounded-lg border border-stone-200 p-3 dark:border-stone-700"
                      >
                        <input
                          type="radio"
                          name="primary"
                          value={contact.id}
                          defaultChecked={index === 0}
                          className="mt-1 h-5 w-5 accent-brand-700"
                        />
                        <input type="hidden" name="id" value={contact.id} />
                        <span>
                          <span className="font-medium">{contact.name}</span> · {STATUS_LABELS[contact.status]}
                          <span className="block text-sm text-stone-600 dark:text-stone-400">
                            {[contact.email, contact.phone, contact.location].filter(Boolean).join(" · ")} · added{" "}
                            {formatDate(contact.createdAt, prefs)}
                            {contact.tags.length ? ` · tags: ${contact.tags.join(", ")}` : ""}
                          </span>
                        </span>
                      </label>
                    ))}
                  </div>
                </fieldset>
                <Button type="submit" className="mt-3" busy={navigation.state === "submitting"} busyLabel="Merging…">
                  Merge {group.contacts.length} contacts
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
