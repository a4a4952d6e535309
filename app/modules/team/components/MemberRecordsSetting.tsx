import { Form, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import type { MemberRecordAccess } from "~/db/enums";

// The owner's choice on the Team page (ADR 0075), kept apart from the member-record pieces so the Team page loads none
// of the timeline's code.

/** A form's refusal, read out when it appears. */
export function FormAlert({ message }: { message?: string }) {
  return message ? (
    <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
      {message}
    </p>
  ) : null;
}

const CHOICE_TEXT: Record<MemberRecordAccess, { label: string; hint: string }> = {
  shared: { label: "Only what is shared", hint: "Admins see the team's deals, leads and standings, and each member's contacts stay theirs." },
  view: { label: "See every member's contacts", hint: "The owner and admins can open members' contacts, timelines and tasks." },
  edit: { label: "See and edit them", hint: "They can also edit details, log activities, add and complete tasks." },
};

/** The owner's choice of what the owner and admins may do with members' records; others read what it is. */
export function MemberRecordsSetting({ value, owner, error }: { value: MemberRecordAccess; owner: boolean; error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "member-records";
  return (
    <section
      aria-labelledby="member-records-heading"
      className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="member-records-heading" className="text-lg font-semibold">
        Members' contacts
      </h2>
      {owner ? (
        <Form method="post" className="mt-3 grid gap-3">
          <input type="hidden" name="intent" value="member-records" />
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm text-stone-600 dark:text-stone-400">
              What the owner and admins may do with every member's contacts, timelines and tasks.
            </legend>
            {(Object.keys(CHOICE_TEXT) as MemberRecordAccess[]).map((choice) => (
              <label key={choice} className="flex min-h-12 items-start gap-3 rounded-lg border border-stone-200 p-3 dark:border-stone-700">
                <input type="radio" name="memberRecords" value={choice} defaultChecked={value === choice} className="mt-1 h-5 w-5" />
                <span>
                  <span className="block font-medium">{CHOICE_TEXT[choice].label}</span>
                  <span className="block text-sm text-stone-600 dark:text-stone-400">{CHOICE_TEXT[choice].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <FormAlert message={error} />
          <Button type="submit" busy={busy} className="justify-self-start">
            Save
          </Button>
        </Form>
      ) : (
        <p className="mt-2 text-sm">
          {value === "shared"
            ? "Your contacts, timelines and tasks are yours: the owner and admins see only what you share."
            : value === "view"
              ? "The team's owner and admins can see your contacts, timelines and tasks."
              : "The team's owner and admins can see and edit your contacts, timelines and tasks. What they log shows their name."}
        </p>
      )}
    </section>
  );
}
