import { Form, Link } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { PageHeader } from "~/components/PageHeader";
import type { LeadMode } from "~/db/enums";
import { LEAD_MODE_HELP, LEAD_MODE_LABELS } from "../leads";

/** An owner's or admin's choice of agent for a lead (assign a waiting one, reassign an unanswered one). */
export function AssignForm({
  leadId,
  label,
  verb,
  options,
  busy,
}: {
  leadId: string;
  label: string;
  verb: string;
  options: readonly (readonly [string, string])[];
  busy: boolean;
}) {
  return (
    // One column on a phone (a select is as wide as its longest name otherwise, and would push the page sideways).
    <Form method="post" className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap sm:items-end">
      <input type="hidden" name="intent" value="assign" />
      <input type="hidden" name="lead" value={leadId} />
      <div className="min-w-0 sm:w-72">
        <SelectField label={label} name="agent" options={options} placeholder={{ label: "Choose an agent" }} />
      </div>
      <Button type="submit" variant="secondary" disabled={busy}>
        {verb}
      </Button>
    </Form>
  );
}

export function LeadError({ error }: { error: { error: string } | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
      {error.error}
    </p>
  );
}

/** The page's header: the team's distribution in words, and the way to its routing rules (read-only for agents). */
export function LeadsHeader({ teamName, mode }: { teamName: string; mode: LeadMode }) {
  return (
    <PageHeader
      title="Team leads"
      description={`${teamName}: ${LEAD_MODE_LABELS[mode]}. ${LEAD_MODE_HELP[mode]}`}
      actions={
        <Link to="/team/routing" className={buttonClass("secondary")}>
          Routing rules
        </Link>
      }
    />
  );
}

/** Who takes new leads: each member pauses or resumes themselves; the owner and admins anyone. */
export function AvailabilitySection({
  members,
  me,
  manages,
  busy,
  className,
}: {
  members: { userId: string; name: string; available: boolean }[];
  me: string;
  manages: boolean;
  busy: boolean;
  className: string;
}) {
  return (
    <section aria-labelledby="leads-availability" className={className}>
      <h2 id="leads-availability" className="font-semibold">
        Availability
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Available members take leads by round robin and can claim them. Pause when you are away.
      </p>
      <ul aria-label="Members' availability" className="mt-2 flex flex-col gap-2">
        {members
          .filter((m) => manages || m.userId === me)
          .map((m) => (
            <li key={m.userId} className="flex flex-wrap items-center justify-between gap-2">
              <span className="min-w-0 break-words">
                <span className="font-medium">{m.userId === me ? `${m.name} (you)` : m.name}</span> · {m.available ? "available" : "paused"}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="availability" />
                <input type="hidden" name="member" value={m.userId} />
                <input type="hidden" name="available" value={m.available ? "false" : "true"} />
                <Button
                  type="submit"
                  variant="ghost"
                  disabled={busy}
                  aria-label={`${m.available ? "Pause" : "Resume"} new leads for ${m.userId === me ? "you" : m.name}`}
                >
                  {m.available ? "Pause" : "Resume"}
                </Button>
              </Form>
            </li>
          ))}
      </ul>
    </section>
  );
}
