import { useFetcher } from "@remix-run/react";
import { Send, Sparkles } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { SELECT_CLASS } from "~/components/ui/SelectField";
import { Spinner } from "~/components/ui/Spinner";
import { toast } from "~/components/ui/Toaster";
import type { FairHousingFlag } from "~/modules/ai/draft-types";
import { FairHousingFlags } from "~/modules/ai/components/FairHousingFlags";
import { mailtoHref, splitEmail } from "~/modules/ai/email";
import { applySuggestion, checkFairHousing } from "~/modules/ai/fair-housing";
import { useGeneration } from "~/modules/ai/use-generation";
import { fillFields, unfilledFields } from "~/modules/templates/merge";
import { useMergeValues } from "~/modules/templates/use-merge-values";
import { COMPOSE_LIMITS, type ComposeOptions } from "../compose";

type SendAnswer =
  | { ok: true; emailId: string; via: "gmail" | "porchlight"; from: string }
  | { ok: false; error: string; fieldErrors: Record<string, string>; flags?: FairHousingFlag[] };

const TEXTAREA =
  "w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

/** The compose dialog's form: loaded on first use (ComposeEmail). */
export default function ComposeForm({ contact, close }: { contact: { id: string; name: string; email: string }; close: () => void }) {
  const id = useId();
  const options = useFetcher<ComposeOptions>();
  const sender = useFetcher<SendAnswer>();
  const { load } = options;
  useEffect(() => load(`/contacts/${contact.id}/email`), [load, contact.id]);
  const values = useMergeValues(contact.id);
  const { state: draft, run } = useGeneration();
  const [templateId, setTemplateId] = useState("");
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [variant, setVariant] = useState(0);
  const [reviewed, setReviewed] = useState(false);

  // A finished AI draft becomes the subject and the text, to edit before sending.
  useEffect(() => {
    if (draft.status !== "done") return;
    const split = splitEmail(draft.text);
    setSubject(split.subject);
    setBody(split.body.trim());
    setTemplateId("");
  }, [draft.status, draft.text]);

  const answer = sender.data;
  useEffect(() => {
    if (sender.state !== "idle" || !answer) return;
    if (answer.ok) {
      toast({
        title: `E-mail to ${contact.name} sent`,
        description: answer.via === "gmail" ? `From ${answer.from}.` : "Via Porchlight.",
        variant: "success",
      });
      close();
    }
  }, [sender.state, answer, close, contact.name]);

  const templates = options.data?.templates ?? [];
  const choose = (value: string) => {
    setTemplateId(value);
    const template = templates.find((t) => t.id === value);
    if (!template) return;
    setSubject(values ? fillFields(template.subject, values) : template.subject);
    setBody(values ? fillFields(template.body, values) : template.body);
  };
  const flags = useMemo(() => checkFairHousing(`${subject}\n${body}`), [subject, body]);
  const missing = unfilledFields(`${subject}\n${body}`);
  const refused = answer && !answer.ok ? answer : null;
  const writing = draft.status === "running";
  const sending = sender.state !== "idle";

  return (
    <sender.Form method="post" action={`/contacts/${contact.id}/email`} className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium">From</dt>
        <dd className="wrap-anywhere">{options.data ? options.data.from.label : <Spinner size="sm" label="Reading your settings…" />}</dd>
        <dt className="font-medium">To</dt>
        <dd className="wrap-anywhere">
          {contact.name} &lt;{contact.email}&gt;
        </dd>
      </dl>
      {options.data ? <p className="text-sm text-stone-600 dark:text-stone-400">{options.data.from.note}</p> : null}
      <input type="hidden" name="templateId" value={templateId} />
      <input type="hidden" name="reviewed" value={reviewed ? "1" : ""} />
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor={`${id}-template`} className="mb-1 block font-medium">
            Start from a template
          </label>
          <select id={`${id}-template`} value={templateId} onChange={(e) => choose(e.target.value)} className={SELECT_CLASS} disabled={!values}>
            <option value="">{templates.length === 0 ? "No e-mail templates yet" : "Choose a template"}</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
                {t.scope === "team" ? " (team)" : ""}
              </option>
            ))}
          </select>
        </div>
        <Button
          type="button"
          variant="secondary"
          busy={writing}
          busyLabel="Writing…"
          onClick={() => {
            setVariant((v) => v + 1);
            void run({ task: "follow_up", tone: "friendly", userInput: "", contactId: contact.id, variant });
          }}
        >
          <Sparkles aria-hidden="true" className="h-4 w-4" /> {draft.status === "done" ? "Another AI draft" : "Draft with AI"}
        </Button>
      </div>
      {draft.error ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
          {draft.error}
        </p>
      ) : null}
      <Field
        label="Subject"
        name="subject"
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        maxLength={COMPOSE_LIMITS.subject}
        required
        error={refused?.fieldErrors.subject}
      />
      <FieldShell id={`${id}-body`} label="E-mail" error={refused?.fieldErrors.body && !refused.flags ? refused.fieldErrors.body : undefined}>
        <textarea
          name="body"
          rows={12}
          value={writing ? draft.text : body}
          readOnly={writing}
          aria-busy={writing || undefined}
          onChange={(e) => setBody(e.target.value)}
          maxLength={COMPOSE_LIMITS.body}
          required
          className={TEXTAREA}
        />
      </FieldShell>
      {missing.length > 0 ? (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
          {contact.name} has nothing on file for {missing.map((f) => `{${f}}`).join(", ")}: write it in before sending.
        </p>
      ) : null}
      {flags.length > 0 ? (
        <>
          <FairHousingFlags flags={flags} onApply={(flag) => setBody((current) => applySuggestion(current, flag))} />
          {refused?.flags ? (
            <label className="flex min-h-12 items-center gap-3 text-sm">
              <input type="checkbox" checked={reviewed} onChange={(e) => setReviewed(e.target.checked)} className="h-5 w-5" />I reviewed these
              phrases: send it as written
            </label>
          ) : null}
        </>
      ) : null}
      {refused && !refused.flags && !refused.fieldErrors.subject && !refused.fieldErrors.body ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {refused.error}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <a href={mailtoHref(contact.email, subject ? `Subject: ${subject}\n\n${body}` : body)} className="text-sm underline underline-offset-2">
          Open in your mail app instead
        </a>
        <Button
          type="submit"
          busy={sending}
          busyLabel="Sending…"
          disabled={writing || missing.length > 0 || (flags.length > 0 && Boolean(refused?.flags) && !reviewed)}
        >
          <Send aria-hidden="true" className="h-4 w-4" /> Send
        </Button>
      </div>
    </sender.Form>
  );
}
