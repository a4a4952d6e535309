import { useEffect, useRef } from "react";
import { formContent, settleSubmission, SUBMISSION_KEY_FIELD, submissionKey } from "../submission-key";

/**
 * The hidden submission key of a create form (ADR 0051). On submit, before the form's own handlers read it, it takes
 * the key of this form's unanswered submission of the same content (kept across a reload), or a new one; once an answer
 * comes (`answer` changes: a fetcher's data), the next submission is a new one. `ignore` names fields that change on
 * their own (a time filled in on submit) and do not make a submission different.
 */
export function SubmissionKey({ name, answer, ignore = [] }: { name: string; answer: unknown; ignore?: readonly string[] }) {
  const input = useRef<HTMLInputElement>(null);
  const ignored = ignore.join("\n");
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    // A listener on the form itself runs before React's (delegated to the root), so Remix sends the filled-in key.
    const fill = () => {
      if (input.current) input.current.value = submissionKey(name, formContent(form, ignored ? ignored.split("\n") : []));
    };
    form.addEventListener("submit", fill);
    return () => form.removeEventListener("submit", fill);
  }, [name, ignored]);
  useEffect(() => {
    if (answer !== undefined) settleSubmission(name);
  }, [answer, name]);
  return <input ref={input} type="hidden" name={SUBMISSION_KEY_FIELD} defaultValue="" />;
}
