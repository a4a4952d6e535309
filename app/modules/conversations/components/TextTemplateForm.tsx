import { Link, useFetcher } from "@remix-run/react";
import { MessageSquare } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { buttonClass } from "~/components/ui/Button";
import { SELECT_CLASS } from "~/components/ui/SelectField";
import { Spinner } from "~/components/ui/Spinner";
import { ReachOutLink } from "~/modules/sync/components/ReachOutLink";
import { fillFields, unfilledFields } from "~/modules/templates/merge";
import { useMergeValues } from "~/modules/templates/use-merge-values";
import type { ComposeOptions } from "../compose";

/** The text template dialog's form: loaded on first use (TextWithTemplate). */
export default function TextTemplateForm({ contact, phone, close }: { contact: { id: string; name: string }; phone: string; close: () => void }) {
  const id = useId();
  const options = useFetcher<ComposeOptions>();
  const { load } = options;
  useEffect(() => load(`/contacts/${contact.id}/email`), [load, contact.id]);
  const values = useMergeValues(contact.id);
  const texts = options.data?.texts ?? [];
  const [chosen, setChosen] = useState("");
  const [text, setText] = useState("");
  const choose = (value: string) => {
    setChosen(value);
    const template = texts.find((t) => t.id === value);
    setText(template && values ? fillFields(template.body, values) : "");
  };
  const missing = unfilledFields(text);
  if (!options.data || !values) return <Spinner label="Reading your templates…" />;
  if (texts.length === 0)
    return (
      <p>
        You have no text templates yet.{" "}
        <Link to="/templates/new?kind=text" className="underline underline-offset-2">
          Write one
        </Link>
        .
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      <div>
        <label htmlFor={`${id}-template`} className="mb-1 block font-medium">
          Text template
        </label>
        <select id={`${id}-template`} value={chosen} onChange={(e) => choose(e.target.value)} className={SELECT_CLASS}>
          <option value="">Choose a template</option>
          {texts.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
              {t.scope === "team" ? " (team)" : ""}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-text`} className="mb-1 block font-medium">
          Text
        </label>
        <textarea
          id={`${id}-text`}
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
      </div>
      {missing.length > 0 ? (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
          {contact.name} has nothing on file for {missing.map((f) => `{${f}}`).join(", ")}: write it in before sending.
        </p>
      ) : null}
      <p className="text-sm text-stone-600 dark:text-stone-400">It opens your phone's messages app with the text written: you send it from there.</p>
      {text && missing.length === 0 ? (
        <span onClickCapture={close}>
          <ReachOutLink contact={contact} phone={phone} kind="text" body={text} className={buttonClass("primary")}>
            <MessageSquare aria-hidden="true" className="h-4 w-4" /> Open in Messages
          </ReachOutLink>
        </span>
      ) : null}
    </div>
  );
}
