import { Form, Link } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import type { BillingDetails } from "../details.server";
import type { TeamRole } from "~/db/enums";
import { planName, SOLO_PRICES, TEAM_MIN_SEATS, TEAM_PRICES, teamSwitchTerms } from "../plans";
import { Modal } from "~/components/ui/Modal";
import { useRef } from "react";

export interface TeamBilling {
  role: TeamRole;
  name: string;
  members: number;
}

const STATUS_TEXT: Record<string, string> = {
  active: "Active",
  trialing: "Free trial",
  past_due: "Payment failed",
  canceled: "Canceled",
  inactive: "No subscription",
  pending_checkout: "Checkout not finished",
};

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
      <dt className="text-stone-600 sm:w-48 dark:text-stone-400">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

type PlanErrors = (intent: "team-plan" | "solo-plan") => Record<string, string>;

export function BillingPanel({
  details,
  team,
  prefs,
  busy,
  errors,
}: {
  details: BillingDetails;
  team: TeamBilling | null;
  prefs: DisplayPreferences;
  busy: boolean;
  errors: PlanErrors;
}) {
  // A member's seat is on the team's subscription: the owner manages it.
  if (team && team.role !== "owner") {
    return (
      <section aria-labelledby="billing-heading" className={card}>
        <h2 id="billing-heading" className="text-lg font-semibold">
          Plan and billing
        </h2>
        <p className="mt-2">
          You are on the Team plan of <span className="font-medium">{team.name}</span>. The team&apos;s owner pays for your seat and manages billing.
        </p>
        <Link to="/team" className={`${buttonClass("secondary")} mt-4`}>
          See the team
        </Link>
      </section>
    );
  }
  const live = details.status === "active" || details.status === "trialing";
  const prices = details.plan === "team" ? TEAM_PRICES : SOLO_PRICES;
  const price = details.billingPeriod === "yearly" ? prices.yearly.billed : details.billingPeriod === "monthly" ? prices.monthly.billed : null;
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="billing-heading" className={card}>
        <h2 id="billing-heading" className="text-lg font-semibold">
          Plan and billing
        </h2>
        {details.mode === "test" ? (
          <p role="note" className="mt-2 rounded-lg border border-dashed border-amber-500 p-3 text-sm">
            Test mode: Stripe is not configured on this server, so there is no card on file and nothing is charged.
          </p>
        ) : null}
        {details.stripeError ? (
          <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
            {details.stripeError}
          </p>
        ) : null}
        <dl className="mt-4 flex flex-col gap-3">
          <Row label="Plan">{`${planName(details.plan)}${price ? ` · ${price}` : ""}`}</Row>
          {details.plan === "team" ? (
            <Row label="Seats">{`${details.seats} (${team?.members === 1 ? "1 member" : `${team?.members ?? 0} members`}; at least ${TEAM_MIN_SEATS})`}</Row>
          ) : null}
          <Row label="Status">
            {`${STATUS_TEXT[details.status ?? "inactive"] ?? details.status}${details.cancelAtPeriodEnd && live ? " · ends at the close of this period" : ""}`}
          </Row>
          {details.trialEndsAt && details.status === "trialing" ? <Row label="Trial ends">{formatDate(details.trialEndsAt, prefs)}</Row> : null}
          <Row label={details.cancelAtPeriodEnd ? "Access until" : "Next billing date"}>
            {details.nextBillingAt ? formatDate(details.nextBillingAt, prefs) : "None"}
          </Row>
          <Row label="Payment method">
            {details.card
              ? `${details.card.brand.toUpperCase()} ending in ${details.card.last4} (expires ${String(details.card.expMonth).padStart(2, "0")}/${details.card.expYear})`
              : "No card on file"}
          </Row>
          <Row label="Billing address">{details.address ?? "None on file"}</Row>
        </dl>
        <div className="mt-6 flex flex-wrap gap-3">
          {details.mode === "stripe" && details.canManage ? (
            <Form method="post" action="/billing/portal">
              <Button type="submit" busy={busy} busyLabel="Opening…">
                Manage billing
              </Button>
            </Form>
          ) : null}
          {details.mode === "test" && details.canManage ? (
            <Form method="post">
              <input type="hidden" name="intent" value={details.cancelAtPeriodEnd ? "test-resume" : "test-cancel"} />
              <Button type="submit" variant="secondary" busy={busy} busyLabel="Saving…">
                {details.cancelAtPeriodEnd ? "Keep my subscription (test mode)" : "Cancel at period end (test mode)"}
              </Button>
            </Form>
          ) : null}
          {!live ? (
            <Link to="/trial/start" className={buttonClass("primary")}>
              {details.status === "past_due" ? "Fix payment" : "Subscribe"}
            </Link>
          ) : null}
        </div>
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          Cancelling keeps your access until the end of the period you paid for. Changes to your billing address may change the tax on later invoices.
          Questions or disputes: write to{" "}
          <a href="mailto:hello@porchlight.app" className="underline">
            hello@porchlight.app
          </a>{" "}
          within 30 days.
        </p>
      </section>
      {live ? <TeamPlanSection details={details} team={team} prefs={prefs} busy={busy} errors={errors} /> : null}
    </div>
  );
}

/** Solo ↔ Team: the switch keeps every record; the new price starts with the next billing period. */
function TeamPlanSection({
  details,
  team,
  prefs,
  busy,
  errors,
}: {
  details: BillingDetails;
  team: TeamBilling | null;
  prefs: DisplayPreferences;
  busy: boolean;
  errors: PlanErrors;
}) {
  if (details.plan === "enterprise") return null;
  const period = details.billingPeriod === "yearly" ? "yearly" : "monthly";
  return (
    <section aria-labelledby="team-plan-heading" className={card}>
      <h2 id="team-plan-heading" className="text-lg font-semibold">
        Team plan
      </h2>
      {team ? (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {team.name} has {team.members === 1 ? "1 member" : `${team.members} members`}. Each member takes a seat ({TEAM_PRICES[period].billed});
            seats added or removed during a period are prorated by Stripe.
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to="/team" className={buttonClass("primary")}>
              Manage the team
            </Link>
            {team.members === 1 ? (
              <Form method="post">
                <input type="hidden" name="intent" value="solo-plan" />
                <Button type="submit" variant="secondary" busy={busy} busyLabel="Switching…">
                  Switch to the Solo plan
                </Button>
              </Form>
            ) : null}
          </div>
          {team.members > 1 ? (
            <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">To switch back to the Solo plan, remove the other members first.</p>
          ) : null}
          {errors("solo-plan").form ? (
            <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
              {errors("solo-plan").form}
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Work with other agents: members and roles, invitations by e-mail and one bill. {TEAM_PRICES.monthly.billed} ({TEAM_PRICES.yearly.billed}),
            at least {TEAM_MIN_SEATS} seats. Everything you have in Porchlight stays as it is; the Team price starts with your next billing period.
          </p>
          <SwitchToTeam
            terms={teamSwitchTerms(period, details.nextBillingAt ? formatDate(details.nextBillingAt, prefs) : null)}
            busy={busy}
            error={errors("team-plan").teamName}
          />
          {errors("team-plan").form ? (
            <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
              {errors("team-plan").form}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/**
 * The switch to the Team plan asks first: the dialog says what the new price is and from when, and only its button
 * sends the form (the server refuses the switch without that confirmation).
 */
function SwitchToTeam({ terms, busy, error }: { terms: string; busy: boolean; error?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  return (
    <Form method="post" ref={form} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
      <input type="hidden" name="intent" value="team-plan" />
      <input type="hidden" name="confirm" value="yes" />
      <div className="sm:flex-1">
        <Field label="Team name" name="teamName" maxLength={80} required error={error} />
      </div>
      <Button type="button" onClick={() => (form.current?.reportValidity() ? dialog.current?.showModal() : undefined)}>
        Switch to the Team plan…
      </Button>
      <Modal ref={dialog} id="switch-to-team" title="Switch to the Team plan?">
        <p className="text-sm">{terms}</p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button type="submit" busy={busy} busyLabel="Switching…">
            Switch to the Team plan
          </Button>
        </div>
      </Modal>
    </Form>
  );
}
