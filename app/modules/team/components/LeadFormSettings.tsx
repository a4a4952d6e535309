import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { IntakeAddressField } from "~/modules/intake/components/IntakeAddressField";

/**
 * Where the team's leads come in, for the owner and admins: the public lead form (ADR 0040: its address, a new address,
 * or off) and the team's lead intake address (ADR 0065: portals' lead e-mails sent to it are the team's leads).
 */
export function LeadFormSettings({
  leadFormUrl,
  intakeAddress,
  busy,
  className,
}: {
  leadFormUrl: string | null;
  intakeAddress: string | null;
  busy: boolean;
  className: string;
}) {
  return (
    <>
      {intakeAddress ? (
        <section aria-labelledby="team-intake" className={`${className} lg:col-span-2`}>
          <h2 id="team-intake" className="font-semibold">
            Team lead intake address
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Send your portals&apos; and website&apos;s lead e-mails here (Zillow, Realtor.com, Homes.com, Redfin, Trulia, IDX forms): each becomes one
            of the team&apos;s leads, distributed as set above. E-mails Porchlight cannot read wait for the owner under Settings → Lead sources → To
            review. Keep it private.
          </p>
          <div className="mt-3">
            <IntakeAddressField id="team-intake-address" label="Team lead intake address" address={intakeAddress} whose="the team's" busy={busy} />
          </div>
        </section>
      ) : null}
      <section aria-labelledby="leads-form" className={`${className} lg:col-span-2`}>
        <h2 id="leads-form" className="font-semibold">
          Website lead form
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          A page anyone can fill in, with your team&apos;s name on it: link to it from your website, listings and social profiles. Each enquiry
          arrives here as a website lead and is distributed as set above. A new address stops the old one from working.
        </p>
        {leadFormUrl ? (
          <p className="mt-2 text-sm [overflow-wrap:anywhere]">
            <span className="font-medium">Address: </span>
            <a href={leadFormUrl} target="_blank" rel="noreferrer" className="underline">
              {leadFormUrl}
            </a>
          </p>
        ) : (
          <p className="mt-2 text-sm font-medium">The form is off.</p>
        )}
        <div className="mt-3 flex flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="intent" value="form-on" />
            <Button type="submit" variant="secondary" disabled={busy}>
              {leadFormUrl ? "Give it a new address" : "Turn the form on"}
            </Button>
          </Form>
          {leadFormUrl ? (
            <Form method="post">
              <input type="hidden" name="intent" value="form-off" />
              <Button type="submit" variant="ghost" disabled={busy}>
                Turn the form off
              </Button>
            </Form>
          ) : null}
        </div>
      </section>
    </>
  );
}
