import { Form, useNavigation } from "@remix-run/react";
import { useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { SelectField } from "~/components/ui/SelectField";
import type { TemplateKind } from "~/db/enums";
import { fillFields, MERGE_FIELD_HELP, mergeFieldProblem, TEMPLATE_FIELDS, unfilledFields } from "../merge";
import { useMergeValues } from "../use-merge-values";
import { KIND_LABELS, TEMPLATE_LIMITS, type TemplateView } from "../template-kinds";

const TEXTAREA =
  "w-full rounded-lg border bg-white px-3 py-2 text-stone-900 dark:bg-stone-900 dark:text-stone-100 border-stone-300 dark:border-stone-700";

/**
 * A template's form with its merge fields one tap away and a live preview on one of the agent's real contacts (their
 * values read from the server, filled here as the agent types). A team template a member may not change shows read-only,
 * with Copy.
 */
export function TemplateEditor({
  template,
  kind: initialKind,
  contacts,
  teamName,
  editable,
  errors,
  className,
}: {
  template: TemplateView | null;
  kind: TemplateKind;
  contacts: { id: string; name: string }[];
  /** The team a new template may be shared with (the user manages it), or null. */
  teamName: string | null;
  editable: boolean;
  errors: Record<string, string>;
  className: string;
}) {
  const id = useId();
  const [kind, setKind] = useState<TemplateKind>(template?.kind ?? initialKind);
  const [subject, setSubject] = useState(template?.subject ?? "");
  const [body, setBody] = useState(template?.body ?? "");
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  // The merge fields are checked as the agent types, with the sentence the server would answer.
  const live = { subject: kind === "email" ? mergeFieldProblem(subject, TEMPLATE_FIELDS) : null, body: mergeFieldProblem(body, TEMPLATE_FIELDS) };

  const insert = (field: string) => {
    const area = bodyRef.current;
    const token = `{${field}}`;
    if (!area) return setBody((b) => b + token);
    const [start, end] = [area.selectionStart, area.selectionEnd];
    const next = body.slice(0, start) + token + body.slice(end);
    setBody(next);
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Form method="post" className={`${className} flex flex-col gap-4`} aria-label="Template">
        <input type="hidden" name="intent" value="save" />
        <fieldset disabled={!editable} className="flex flex-col gap-4">
          <fieldset>
            <legend className="mb-1 font-medium">Kind</legend>
            <div className="flex gap-4">
              {(["email", "text"] as const).map((k) => (
                <label key={k} className="flex min-h-12 items-center gap-2">
                  <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} className="h-5 w-5" />
                  {KIND_LABELS[k]}
                </label>
              ))}
            </div>
          </fieldset>
          <Field label="Name" name="name" defaultValue={template?.name ?? ""} maxLength={TEMPLATE_LIMITS.name} required error={errors.name} />
          {kind === "email" ? (
            <Field
              label="Subject"
              name="subject"
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
              maxLength={TEMPLATE_LIMITS.subject}
              error={errors.subject ?? live.subject ?? undefined}
            />
          ) : null}
          <FieldShell
            id={`${id}-body`}
            label={kind === "email" ? "E-mail" : "Text"}
            error={errors.body ?? live.body ?? undefined}
            hint={
              kind === "text" ? `${body.length} of ${TEMPLATE_LIMITS.text} characters. Texts go from your phone, never automatically.` : undefined
            }
          >
            <textarea
              ref={bodyRef}
              name="body"
              rows={kind === "email" ? 12 : 4}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              maxLength={kind === "email" ? TEMPLATE_LIMITS.email : TEMPLATE_LIMITS.text}
              className={TEXTAREA}
            />
          </FieldShell>
          {editable ? (
            <div role="group" aria-label="Insert a merge field" className="flex flex-wrap gap-2">
              {TEMPLATE_FIELDS.map((field) => (
                <button
                  key={field}
                  type="button"
                  onClick={() => insert(field)}
                  title={MERGE_FIELD_HELP[field]}
                  className="min-h-11 rounded-full border border-stone-300 px-3 text-sm dark:border-stone-700"
                >
                  {`{${field}}`}
                </button>
              ))}
            </div>
          ) : null}
          {teamName ? (
            <SelectField
              label="Who can use it"
              name="scope"
              defaultValue="mine"
              options={[
                ["mine", "Only me"],
                ["team", `My team (${teamName}): every member can use and copy it`],
              ]}
            />
          ) : null}
        </fieldset>
        {errors.form ? (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {errors.form}
          </p>
        ) : null}
        {editable ? (
          <div>
            <Button type="submit" busy={saving}>
              {template ? "Save template" : "Create template"}
            </Button>
          </div>
        ) : null}
      </Form>
      <div className="flex flex-col gap-4">
        <TemplatePreview kind={kind} subject={subject} body={body} contacts={contacts} className={className} />
        {!editable && template ? (
          <Form method="post" action="/templates" className={className}>
            <input type="hidden" name="intent" value="copy" />
            <input type="hidden" name="id" value={template.id} />
            <p className="mb-3 text-sm">Your team's owner and admins change this template. Copy it to make your own version.</p>
            <Button type="submit" variant="secondary">
              Copy to my templates
            </Button>
          </Form>
        ) : null}
      </div>
    </div>
  );
}

/** The template filled for a contact the agent picks, as that contact would read it. */
function TemplatePreview({
  kind,
  subject,
  body,
  contacts,
  className,
}: {
  kind: TemplateKind;
  subject: string;
  body: string;
  contacts: { id: string; name: string }[];
  className: string;
}) {
  const [contactId, setContactId] = useState(contacts[0]?.id ?? "");
  const values = useMergeValues(contactId);
  const name = contacts.find((c) => c.id === contactId)?.name ?? "";
  const filled = values ? { subject: fillFields(subject, values), body: fillFields(body, values) } : null;
  const missing = filled ? unfilledFields(`${filled.subject}\n${filled.body}`) : [];
  return (
    <section aria-labelledby="preview-heading" className={className}>
      <h2 id="preview-heading" className="mb-2 font-semibold">
        Preview
      </h2>
      {contacts.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Add a contact to preview the template on a real one.</p>
      ) : (
        <>
          <SelectField
            label="As sent to"
            name="preview-contact"
            value={contactId}
            onChange={(e) => setContactId(e.target.value)}
            options={contacts.map((c) => [c.id, c.name] as const)}
          />
          <figure aria-live="polite" className="mt-3 rounded-lg bg-stone-100 p-3 text-sm dark:bg-stone-800">
            <figcaption className="sr-only">The template as {name} would read it</figcaption>
            {!filled ? (
              <p className="text-stone-600 dark:text-stone-400">Reading {name}'s details…</p>
            ) : (
              <>
                {kind === "email" ? <p className="font-semibold">{filled.subject || "(no subject yet)"}</p> : null}
                <p className="mt-1 whitespace-pre-line wrap-anywhere">{filled.body || "(nothing written yet)"}</p>
              </>
            )}
          </figure>
          {missing.length > 0 ? (
            <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">
              {name} has nothing on file for {missing.map((f) => `{${f}}`).join(", ")}: it stays in braces, for you to fill in before sending.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
