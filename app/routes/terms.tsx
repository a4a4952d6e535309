import type { MetaFunction } from "@remix-run/cloudflare";
import { formatDate } from "~/lib/format";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import { LEGAL } from "~/modules/marketing/legal";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Terms of Service",
    description: "The terms for using Porchlight: trial, billing, cancellation, your data, and liability.",
    path: "/terms",
  });

const L = LEGAL;

export default function TermsPage() {
  return (
    <MarketingPage label="Terms of Service" title="Terms of Service" intro={<p>Last updated {formatDate(`${L.termsRevised}T12:00:00Z`)}</p>}>
      <div className="flex flex-col gap-6 leading-relaxed [&_h2]:text-xl [&_h2]:font-semibold">
        <section>
          <h2>1. The service</h2>
          <p>
            {L.company} is a customer relationship manager for real estate agents. These terms apply to everyone who creates an account. By creating
            one you agree to them.
          </p>
        </section>
        <section>
          <h2>2. Free trial</h2>
          <p>
            New customers get one free trial of {L.trialDays} days. A payment card is required to start it. One trial is offered per customer; an
            address or payment account that has had a trial before starts a paid subscription straight away. Unless you cancel before the trial ends,
            the subscription continues and is billed automatically. There are no setup fees.
          </p>
        </section>
        <section>
          <h2>3. Plans and billing</h2>
          <p>
            The Solo Agent plan costs ${L.monthlyPrice} per month, billed monthly, or ${L.yearlyPrice} per year (${L.yearlyPrice / 12} per month),
            billed yearly. Payments are processed by Stripe. Plan changes take effect at the next billing cycle. We give at least {L.priceNoticeDays}{" "}
            days' notice by e-mail before any price change applies to you.
          </p>
        </section>
        <section>
          <h2>4. Cancellation</h2>
          <p>
            You can cancel at any time from Settings › Billing. Cancellation takes effect at the end of the billing period you have paid for, and you
            keep full access until then. Payments already made are not refunded automatically; write to us about a refund.
          </p>
        </section>
        <section>
          <h2>5. Your data</h2>
          <p>
            What you put into {L.company} is yours. Every record belongs to your account and is shown to no other customer. You can export all of it
            at any time, subscribed or not. If your subscription ends, your data stays in your account until you delete the account. When you delete
            your account, your data is kept for {L.dataKeptDays} days, during which a link we e-mail you brings the account back, and then deleted.
          </p>
        </section>
        <section>
          <h2>6. Billing disputes</h2>
          <p>
            If you believe a charge is wrong, tell us at {L.contactEmail} within {L.disputeDays} days of the charge, and we will look into it with
            you.
          </p>
        </section>
        <section>
          <h2>7. Liability</h2>
          <p>
            To the extent the law allows, our total liability for any claim about the service is limited to the fees you paid us in the{" "}
            {L.liabilityMonths} months before the claim.
          </p>
        </section>
        <section>
          <h2>8. Governing law</h2>
          <p>These terms are governed by the laws of {L.governingLaw}.</p>
        </section>
        <section>
          <h2>9. Contact</h2>
          <p>
            Questions about these terms:{" "}
            <a href={`mailto:${L.contactEmail}`} className="underline">
              {L.contactEmail}
            </a>
            . We reply within 1 business day.
          </p>
        </section>
      </div>
    </MarketingPage>
  );
}
