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
