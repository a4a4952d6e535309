import type { MetaFunction } from "@remix-run/cloudflare";
import { formatDate } from "~/lib/format";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import { LEGAL } from "~/modules/marketing/legal";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Privacy Policy",
    description: "What Porchlight stores, why, who processes it, how long it is kept, and your choices.",
    path: "/privacy",
  });

const L = LEGAL;

export default function PrivacyPage() {
  return (
    <MarketingPage label="Privacy Policy" title="Privacy Policy" intro={<p>Last updated {formatDate(`${L.privacyRevised}T12:00:00Z`)}</p>}>
      <div className="flex flex-col gap-6 leading-relaxed [&_h2]:text-xl [&_h2]:font-semibold">
        <section>
          <h2>What we store</h2>
          <p>
            Your account (e-mail address, a salted hash of your password, your display preferences), your subscription status, and the records you
            create: contacts, deals, tasks and notes. Messages sent through our contact form are stored so we can answer them.
          </p>
          <p>
            To keep the service fast and up, we also measure how long our pages and requests take: counted per minute by kind of page (for example "a
            contact's page", never which contact), without your name, address or anything you typed, and kept for up to 90 days.
          </p>
        </section>
        <section>
          <h2>How it is protected</h2>
          <p>
            Data travels encrypted (HTTPS) and is stored with Cloudflare. Every record is tied to your account and every query is limited to it, so no
            other customer can see your data. Sessions can be ended on every device at once from Settings.
          </p>
          <p>
            While you are signed in, the app also keeps a copy of what you need in the field (your hot and warm contacts and those you worked with in
            the last 30 days, with their recent activity; tasks due in the next two weeks; open deals) in your browser&apos;s storage on that device,
            with any changes you made there without a connection until they are sent. Signing out deletes it, and so does signing in as someone else
            on the device; ending your sessions from Settings deletes it from another device the next time that device connects.
          </p>
          <p>
            If you turn on new-lead alerts for a device, we keep that device&apos;s push address and the keys your browser gives us to encrypt alerts
            to it. The alert (the lead&apos;s name and phone number or e-mail) is encrypted before it leaves us, and your browser maker&apos;s push
            service, which delivers it, cannot read it. Turning alerts off on the device deletes them.
          </p>
        </section>
        <section>
          <h2>Who processes it</h2>
          <p>
            Cloudflare hosts the service and its data. Stripe handles payments; your card details go to Stripe and are never stored by us. Our e-mail
            provider delivers account e-mails such as confirmation links, and the daily digest if you turn it on (it names your tasks, deals and new
            leads). New-lead alerts, if you turn them on, travel encrypted through the push service of your device&apos;s browser (Apple, Google or
            Mozilla).
          </p>
        </section>
        <section>
          <h2>How long we keep it</h2>
          <p>
            While your account exists, whether or not your subscription is active, and for {L.dataKeptDays} days after you delete it, so a link we
            e-mail you can still bring it back. After that every record of the account is deleted. Our daily backups are kept 30 days, so the last
            copies of a deleted account leave them 30 days after that. A contact, deal or task you delete waits in your trash for 30 days, so you can
            restore it, and is then deleted for good (sooner if you empty the trash).
          </p>
        </section>
        <section>
          <h2>Your choices</h2>
          <p>
            Under Settings › Data you can export all your data, delete your records, or delete your account, yourself and at any time. You can also
            ask for a copy of your data, its correction or its deletion by writing to{" "}
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
