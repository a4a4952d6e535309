import { Field } from "~/components/ui/Field";

/** The day a deal closed, asked wherever a deal moves into a closed stage: today in the agent's timezone unless changed. */
export function ClosedDateField({ today, error, id }: { today: string; error?: string; id?: string }) {
  return (
    <Field id={id} label="Closed on" name="closedDate" type="date" defaultValue={today} required hint="The day the deal closed." error={error} />
  );
}
