import { Form, Link } from "@remix-run/react";
import { Inbox, MailPlus } from "lucide-react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, type ContactSource, type IntakeFormat, type IntakeStatus } from "~/db/enums";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { INTAKE_FORMAT_LABELS, INTAKE_GUIDES } from "../intake";
import { IntakeAddressField } from "./IntakeAddressField";
import { ApiKeysPanel, type ApiKeyItem } from "./ApiKeysPanel";
import { FirstReplyPanel, type FirstReplyData } from "./FirstReplyPanel";

export interface LeadSourcesData {
  address: string;
  apiKeys: ApiKeyItem[];
  createdAt: number;
  firstReply: FirstReplyData;
  review: {
    total: number;
    items: {
      id: string;
      receivedAt: number;
      fromAddress: string;
      subject: string;
      guess: { name: string | null; email: string | null; phone: string | null; source: ContactSource };
      body: string;
      auth: { spf: string; dkim: string; dmarc: string };
      /** Sent to the team's address: added, it becomes the team's lead. */
      team: boolean;
    }[];
  };
  recent: {
    id: string;
    receivedAt: number;
    format: IntakeFormat;
    status: IntakeStatus;
    contactId: string | null;
    contactName: string | null;
    subject: string;
  }[];
}

type Errors = (intent: string) => Record<string, string>;

const STATUS_WORDS: Record<IntakeStatus, string> = {
  created: "New lead",
  attached: "Added to a contact",
  review: "To review",
  confirmed: "Confirmed by you",
  discarded: "Discarded",
};

/**
 * Settings → Lead sources: the agent's private intake address (copy it, or replace it: the old one then bounces), how
 * to send portals' lead e-mails to it, the e-mails waiting for review (the original text, never rendered as HTML, with
 * the best guess to correct and add, or discard), and the latest e-mails with what became of each.
 */
export function LeadSourcesPanel({
  data,
  email,
  prefs,
  errors,
  busy,
  className,
}: {
  data: LeadSourcesData;
  /** The agent's address: where leads' replies to the instant reply go. */
  email: string;
  prefs: DisplayPreferences;
  errors: Errors;
  busy: (intent: string) => boolean;
  className: string;
}) {
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="intake-heading" className={className}>
        <h2 id="intake-heading" className="flex items-center gap-2 text-lg font-semibold">
          <MailPlus aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
          Your lead intake address
        </h2>
        <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
          Send your portals' and website's lead e-mails here: each becomes a lead in Porchlight within seconds, with its source, the property asked
          about and your speed-to-lead timer running from when the e-mail was sent. Keep the address private.
        </p>
        <div className="mt-3">
          <IntakeAddressField id="intake-address" label="Lead intake address" address={data.address} whose="your" busy={busy("intake-rotate")} />
        </div>
        <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">In use since {formatDateTime(data.createdAt, prefs)}.</p>
        <h3 className="mt-4 text-sm font-semibold">How to send leads here</h3>
        <dl className="mt-1 flex flex-col gap-2 text-sm">
          {INTAKE_GUIDES.map((guide) => (
            <div key={guide.title}>
              <dt className="font-medium">{guide.title}</dt>
              <dd className="text-stone-700 dark:text-stone-300">{guide.steps}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="review-heading" className={className}>
        <h2 id="review-heading" className="flex items-center gap-2 text-lg font-semibold">
          <Inbox aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
          To review ({data.review.total})
        </h2>
        <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
          E-mails Porchlight could not read as a lead for sure. Check the details against the e-mail, then add the lead or discard the e-mail.
        </p>
        {data.review.items.length === 0 ? (
          <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">Nothing to review.</p>
        ) : (
          <ul className="mt-3 flex flex-col gap-4">
            {data.review.items.map((item) => (
              <ReviewItem key={item.id} item={item} prefs={prefs} errors={errors} busy={busy} />
            ))}
          </ul>
        )}
      </section>

      <FirstReplyPanel data={data.firstReply} email={email} prefs={prefs} errors={errors} busy={busy} className={className} />

      <ApiKeysPanel keys={data.apiKeys} prefs={prefs} className={className} />

      <section aria-labelledby="recent-intake-heading" className={className}>
        <h2 id="recent-intake-heading" className="text-lg font-semibold">
          Latest lead e-mails
        </h2>
        {data.recent.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">No lead e-mails yet. Send one to the address above to see it here.</p>
        ) : (
          <ul className="mt-2 divide-y divide-stone-200 text-sm dark:divide-stone-800">
            {data.recent.map((row) => (
              <li key={row.id} className="flex flex-col gap-0.5 py-2 sm:flex-row sm:items-center sm:gap-3">
                <span className="min-w-0 flex-1 truncate font-medium">{row.subject || "(no subject)"}</span>
                <span className="text-stone-700 dark:text-stone-300">{INTAKE_FORMAT_LABELS[row.format]}</span>
                <span className="text-stone-700 dark:text-stone-300">
                  {row.contactId && row.contactName ? (
                    <Link to={`/contacts/${row.contactId}`} className="underline">
                      {STATUS_WORDS[row.status]}: {row.contactName}
                    </Link>
                  ) : (
                    STATUS_WORDS[row.status]
                  )}
                </span>
                <span className="text-xs text-stone-600 dark:text-stone-400">{formatDateTime(row.receivedAt, prefs)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function ReviewItem({
  item,
  prefs,
  errors,
  busy,
}: {
  item: LeadSourcesData["review"]["items"][number];
  prefs: DisplayPreferences;
  errors: Errors;
  busy: (intent: string) => boolean;
}) {
  const own = (intent: string) => (errors(intent).id === item.id ? errors(intent) : {});
  const headingId = `review-${item.id}`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-stone-200 p-3 dark:border-stone-800">
      <h3 id={headingId} className="font-medium">
        {item.subject || "(no subject)"}
      </h3>
      <p className="text-xs text-stone-600 dark:text-stone-400">
        {item.team ? "To your team's address · " : ""}From {item.fromAddress} · {formatDateTime(item.receivedAt, prefs)} · SPF {item.auth.spf}, DKIM{" "}
        {item.auth.dkim}
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium text-brand-800 dark:text-brand-300">Show the e-mail</summary>
        <pre className="mt-2 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-stone-100 p-3 text-xs dark:bg-stone-950">
          {item.body}
        </pre>
      </details>
      <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2" aria-label={`Add the lead from “${item.subject || "(no subject)"}”`}>
        <input type="hidden" name="id" value={item.id} />
        <Field label="Name" name="name" required defaultValue={item.guess.name ?? ""} error={own("intake-confirm").name} />
        <SelectField
          label="Source"
          name="source"
          options={CONTACT_SOURCES.map((s) => [s, SOURCE_LABELS[s]] as const)}
          defaultValue={item.guess.source}
          error={own("intake-confirm").source}
        />
        <Field label="E-mail" name="email" type="email" defaultValue={item.guess.email ?? ""} error={own("intake-confirm").email} />
        <Field label="Phone" name="phone" type="tel" defaultValue={item.guess.phone ?? ""} error={own("intake-confirm").phone} />
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <Button type="submit" name="intent" value="intake-confirm" busy={busy("intake-confirm")}>
            Add as lead
          </Button>
          <Button type="submit" name="intent" value="intake-discard" variant="secondary" formNoValidate busy={busy("intake-discard")}>
            Discard
          </Button>
        </div>
      </Form>
    </li>
  );
}
