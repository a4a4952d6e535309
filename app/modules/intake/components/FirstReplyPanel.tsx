import { Form, Link } from "@remix-run/react";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { SelectField } from "~/components/ui/SelectField";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { mergeValues, minuteLabel, REPLY_FIELDS, type ReplySource } from "../first-reply";
import { fillFields } from "~/modules/templates/merge";

export interface FirstReplyData {
  hours: { from: number; until: number };
  templates: { source: ReplySource; enabled: boolean; subject: string; body: string }[];
  agent: { name: string; phone: string | null };
  recent: { id: string; contactId: string; contactName: string; status: string; reason: string | null; dueAt: number; sentAt: number | null }[];
}

type Errors = (intent: string) => Record<string, string>;

const HALF_HOURS = Array.from({ length: 49 }, (_, i) => i * 30);
/** The sample lead the preview fills a template for. */
const SAMPLE_LEAD = { name: "Jane Whitmore", property: "12 Oak St, Austin, TX 78704" };

/**
 * Settings → Lead sources → Instant first reply (ADR 0068): the sending hours, and per source whether a new lead gets
 * the reply and its words, with a preview on a sample lead; then the latest replies and what became of each.
 */
export function FirstReplyPanel({
  data,
  email,
  prefs,
  errors,
  busy,
  className,
}: {
  data: FirstReplyData;
  email: string;
  prefs: DisplayPreferences;
  errors: Errors;
  busy: (intent: string) => boolean;
  className: string;
}) {
  const hourErrors = errors("reply-hours");
  const on = data.templates.filter((t) => t.enabled).map((t) => SOURCE_LABELS[t.source]);
  return (
    <section aria-labelledby="first-reply-heading" className={className}>
      <h2 id="first-reply-heading" className="flex items-center gap-2 text-lg font-semibold">
        <MailCheck aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
        Instant first reply
      </h2>
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
        A new lead that arrives by e-mail or the lead API gets your short reply within a minute: once per lead, only in your sending hours (otherwise
        when they next open), never after you have reached out or they unsubscribed. It comes from “{data.agent.name} via Porchlight”, and replies go
        to {email}. It does not count as your answer: the speed-to-lead timer runs until you reach out.
      </p>
      <p className="mt-2 text-sm font-medium">{on.length === 0 ? "Off for every source." : `On for ${on.join(", ")}.`}</p>

      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="reply-hours" />
        <div className="min-w-36">
          <SelectField
            label="Send from"
            name="from"
            defaultValue={String(data.hours.from)}
            options={HALF_HOURS.slice(0, -1).map((m) => [String(m), minuteLabel(m)] as const)}
            error={hourErrors.from}
          />
        </div>
        <div className="min-w-36">
          <SelectField
            label="Until"
            name="until"
            defaultValue={String(data.hours.until)}
            options={HALF_HOURS.slice(1).map((m) => [String(m), minuteLabel(m)] as const)}
            error={hourErrors.until}
          />
        </div>
        <Button type="submit" variant="secondary" busy={busy("reply-hours")}>
          Save hours
        </Button>
      </Form>

      <ul className="mt-4 flex flex-col gap-2">
        {data.templates.map((template) => (
          <li key={template.source}>
            <ReplyTemplateForm template={template} agent={data.agent} errors={errors("first-reply")} busy={busy("first-reply")} />
          </li>
        ))}
      </ul>

      <h3 className="mt-5 text-sm font-semibold">Latest replies</h3>
      {data.recent.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No first reply yet.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-1 text-sm">
          {data.recent.map((reply) => (
            <li key={reply.id}>
              <Link to={`/contacts/${reply.contactId}`} className="font-medium underline underline-offset-2">
                {reply.contactName}
              </Link>
              {" · "}
              {reply.status === "sent" && reply.sentAt
                ? `Sent ${formatDateTime(reply.sentAt, prefs)}`
                : reply.status === "pending"
                  ? `Waiting for your sending hours: goes at ${formatDateTime(reply.dueAt, prefs)}`
                  : `Not sent: ${reply.reason ?? "skipped"}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReplyTemplateForm({
  template,
  agent,
  errors,
  busy,
}: {
  template: FirstReplyData["templates"][number];
  agent: FirstReplyData["agent"];
  errors: Record<string, string>;
  busy: boolean;
}) {
  const mine = errors.source === template.source ? errors : {};
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  const label = SOURCE_LABELS[template.source];
  const values = mergeValues(SAMPLE_LEAD, agent);
  const id = `reply-${template.source}`;
  return (
    <details open={Object.keys(mine).length > 0} className="rounded-lg border border-stone-200 dark:border-stone-700">
      <summary className="flex min-h-12 cursor-pointer items-center justify-between gap-2 px-3 font-medium">
        <span>{label}</span>
        <span className={`text-sm ${template.enabled ? "text-emerald-800 dark:text-emerald-300" : "text-stone-600 dark:text-stone-400"}`}>
          {template.enabled ? "On" : "Off"}
        </span>
      </summary>
      <Form method="post" className="flex flex-col gap-3 border-t border-stone-200 p-3 dark:border-stone-700">
        <input type="hidden" name="intent" value="first-reply" />
        <input type="hidden" name="source" value={template.source} />
        <label className="flex min-h-12 items-center gap-3">
          <input type="checkbox" name="enabled" defaultChecked={template.enabled} className="h-5 w-5" />
          Reply to new {label} leads
        </label>
        <Field label="Subject" name="subject" value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={150} error={mine.subject} />
        <FieldShell id={`${id}-body`} label="E-mail" error={mine.body} hint={`Merge fields: ${REPLY_FIELDS.map((f) => `{${f}}`).join(", ")}`}>
          <textarea
            name="body"
            rows={6}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            maxLength={2000}
            className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
          />
        </FieldShell>
        <figure className="rounded-lg bg-stone-100 p-3 text-sm dark:bg-stone-800">
          <figcaption className="font-medium">Preview for a lead asking about {SAMPLE_LEAD.property}</figcaption>
          <p className="mt-1 font-semibold">{fillFields(subject, values)}</p>
          <p className="mt-1 whitespace-pre-line">{fillFields(body, values)}</p>
        </figure>
        {mine.form ? <p className="text-sm font-medium text-red-700 dark:text-red-400">{mine.form}</p> : null}
        <div>
          <Button type="submit" busy={busy}>
            Save {label} reply
          </Button>
        </div>
      </Form>
    </details>
  );
}
