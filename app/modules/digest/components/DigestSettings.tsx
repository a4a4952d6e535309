import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";

/** Settings → Notifications: the daily digest at the agent's hour, turned on or off. */
export function DigestSettings({
  on,
  hour,
  timezone,
  busy,
  className,
}: {
  on: boolean;
  hour: number;
  timezone: string;
  busy: boolean;
  className: string;
}) {
  return (
    <section aria-labelledby="digest-heading" className={className}>
      <h2 id="digest-heading" className="text-lg font-semibold">
        Daily digest
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        One e-mail at {hour}:00 ({timezone.replace(/_/g, " ")}) with today&apos;s tasks, what is overdue, closings in the next seven days and new
        leads still waiting. Every digest has a link that stops it with one click.
      </p>
      <p className="mt-3 text-sm font-medium">{on ? "The daily digest is on." : "The daily digest is off."}</p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="digest" />
        <input type="hidden" name="on" value={on ? "0" : "1"} />
        <Button type="submit" variant={on ? "secondary" : "primary"} busy={busy} busyLabel="Saving…">
          {on ? "Turn off the daily digest" : "Turn on the daily digest"}
        </Button>
      </Form>
    </section>
  );
}
