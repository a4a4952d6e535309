import { Form, Link } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/Button";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import type { BillingDetails } from "../details.server";
import { SOLO_PRICES } from "../plans";

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

export function BillingPanel({ details, prefs, busy }: { details: BillingDetails; prefs: DisplayPreferences; busy: boolean }) {
  const live = details.status === "active" || details.status === "trialing";
  const price = details.billingPeriod === "yearly" ? SOLO_PRICES.yearly.billed : details.billingPeriod === "monthly" ? SOLO_PRICES.monthly.billed : null;
  return (
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
        <Row label="Plan">{`${details.plan === "solo" || !details.plan ? "Solo Agent" : details.plan}${price ? ` · ${price}` : ""}`}</Row>
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
        Cancelling keeps your access until the end of the period you paid for. Changes to your billing address may change the tax on
        later invoices. Questions or disputes: write to{" "}
        <a href="mailto:hello@porchlight.app" className="underline">
          hello@porchlight.app
        </a>{" "}
        within 30 days.
      </p>
    </section>
  );
}
