import { Form } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { periodQuery, type Period } from "../periods";

/** On the Team plan, owners and admins choose whose reports to read (ADR 0034). */
export function AgentPicker({
  members,
  me,
  agent,
  period,
}: {
  members: { id: string; name: string }[];
  me: string;
  agent: string | null;
  period: Pick<Period, "key" | "from" | "to">;
}) {
  return (
    <Form method="get" action="/reports" aria-label="Whose reports" className="mb-3 flex flex-wrap items-end gap-2 print:hidden">
      {Object.entries(Object.fromEntries(new URLSearchParams(periodQuery(period)))).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label className="flex flex-col text-sm font-medium">
        Agent
        <select
          name="agent"
          defaultValue={agent ?? me}
          className="mt-1 min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
        >
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id === me ? `${m.name} (you)` : m.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("secondary")}>
        Show reports
      </button>
    </Form>
  );
}
