import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";

type AgentProfile = {
  agentName: string | null;
  brokerage: string | null;
  market: string | null;
  licenseNumber: string | null;
  signature: string | null;
  postalAddress: string | null;
};

/** Settings → Account → Agent profile: the name, brokerage and market the AI coach writes with. */
export function AgentProfileSettings({
  agent,
  errors,
  busy,
  className,
}: {
  agent: AgentProfile;
  errors: Record<string, string>;
  busy: boolean;
  className: string;
}) {
  return (
    <section id="agent-profile" aria-labelledby="agent-heading" className={`${className} scroll-mt-24`}>
      <h2 id="agent-heading" className="text-lg font-semibold">
        Agent profile
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        The AI coach signs drafts with your name and brokerage and writes market notes for your market. Templates close with your signature, and
        e-mails your action plans send carry your postal address, as the law on marketing e-mail asks.
      </p>
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="agent" />
        <Field label="Your name" name="agentName" defaultValue={agent.agentName ?? ""} autoComplete="name" maxLength={100} error={errors.agentName} />
        <Field
          label="Brokerage"
          name="brokerage"
          defaultValue={agent.brokerage ?? ""}
          autoComplete="organization"
          maxLength={120}
          error={errors.brokerage}
        />
        <Field
          label="Market"
          name="market"
          defaultValue={agent.market ?? ""}
          hint="The area you work, e.g. Austin, TX"
          maxLength={120}
          error={errors.market}
        />
        <Field label="License number" name="licenseNumber" defaultValue={agent.licenseNumber ?? ""} maxLength={40} error={errors.licenseNumber} />
        <div className="sm:col-span-2">
          <FieldShell
            id="agent-signature"
            label="E-mail signature"
            hint="What {signature} fills in. Left empty, it is your name, brokerage and phone."
            error={errors.signature}
          >
            <textarea
              name="signature"
              rows={3}
              defaultValue={agent.signature ?? ""}
              maxLength={500}
              className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
            />
          </FieldShell>
        </div>
        <div className="sm:col-span-2">
          <Field
            label="Postal address"
            name="postalAddress"
            defaultValue={agent.postalAddress ?? ""}
            autoComplete="street-address"
            hint="Your office's or brokerage's mailing address, shown at the foot of marketing e-mail"
            maxLength={200}
            error={errors.postalAddress}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" busy={busy} busyLabel="Saving…">
            Save agent profile
          </Button>
        </div>
      </Form>
    </section>
  );
}
