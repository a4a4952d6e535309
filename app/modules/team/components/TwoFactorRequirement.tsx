import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";

/** The owner's switch: every member must have a passkey or an authenticator app before using Porchlight. */
export function TwoFactorRequirement({ on, busy, className }: { on: boolean; busy: boolean; className: string }) {
  return (
    <section aria-labelledby="team-two-factor-heading" className={className}>
      <h2 id="team-two-factor-heading" className="text-lg font-semibold">
        Two-factor sign-in
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {on
          ? "Required: a member without a passkey or an authenticator app is sent to set one up after signing in, before anything else."
          : "Not required: each member chooses. Require it, and a member without a second factor sets one up the next time they open Porchlight."}
      </p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="two-factor" />
        <input type="hidden" name="on" value={on ? "0" : "1"} />
        <Button type="submit" variant="secondary" busy={busy} busyLabel="Saving…">
          {on ? "Stop requiring two-factor sign-in" : "Require two-factor sign-in"}
        </Button>
      </Form>
    </section>
  );
}
