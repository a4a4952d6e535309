import { useFetcher } from "@remix-run/react";
import { Check, ClipboardCopy, ListPlus, Mail, NotebookPen, RefreshCw } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Spinner } from "~/components/ui/Spinner";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { SubmissionKey } from "~/modules/sync/components/SubmissionKey";
import { ACTIVITIES_ACTION } from "~/modules/activities/activity.schema";
import { TASKS_ACTION } from "~/modules/tasks/task.schema";
import { FairHousingFlags } from "./FairHousingFlags";
import { DRAFT_TASK_LABELS, ENGINE_LABELS } from "../draft-types";
import { mailtoHref, splitEmail } from "../email";
import { applySuggestion, checkFairHousing } from "../fair-housing";
import type { GenerationState } from "../use-generation";
import { localNow } from "~/modules/tasks/due";

type SaveResult = { ok: true } | { ok: false; error: string };

const TASK_TITLES = {
  follow_up: (name?: string) => (name ? `Send follow-up e-mail to ${name}` : "Send follow-up e-mail"),
  listing: (name?: string) => (name ? `Publish listing description for ${name}` : "Publish listing description"),
  market: () => "Share market insight",
  deal_review: () => "Work through the at-risk deals review",
  week_plan: () => "Work through this week's plan",
  advice: () => "Act on the coach's advice",
} as const;

/**
 * The coach's answer: streamed in, then editable. Says which engine wrote it, checks listing text against
 * Fair Housing phrases, and can be copied, regenerated, opened in the mail app, or saved as an activity or a
 * task on the contact.
 */
export function DraftResult({
  state,
  today,
  nowTime,
  timezone,
  onRegenerate,
}: {
  state: GenerationState;
  today: string;
  nowTime: string;
  timezone: string;
  onRegenerate: () => void;
}) {
  const id = useId();
  const { contact } = state;
  const [text, setText] = useState(state.text);
  const [copied, setCopied] = useState(false);
  useEffect(() => setText(state.text), [state.text]);
  useEffect(() => setCopied(false), [state.text]);
  const task = state.request?.task ?? "advice";
  const flags = useMemo(() => (state.status === "done" ? checkFairHousing(text) : []), [text, state.status]);
  const limit = task === "listing" ? (state.request?.mlsLimit ?? null) : null;
  const activity = useFetcher<SaveResult>();
  const taskSave = useFetcher<SaveResult>();
  useFetcherResult(activity, (result) =>
    toast(
      result.ok
        ? { title: "Saved as an activity", description: contact ? `On ${contact.name}'s timeline.` : undefined, variant: "success" }
        : { title: "Not saved", description: result.error, variant: "destructive" },
    ),
  );
  useFetcherResult(taskSave, (result) =>
    toast(
      result.ok
        ? { title: "Task added for today", description: "It is on your Tasks page.", variant: "success" }
        : { title: "Not saved", description: result.error, variant: "destructive" },
    ),
  );

  if (state.status === "idle") return null;
  const running = state.status === "running";
  const email = task === "follow_up" ? splitEmail(text) : null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: "Copied to the clipboard", variant: "success" });
    } catch {
      toast({ title: "Could not copy", description: "Select the text and copy it yourself.", variant: "destructive" });
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {DRAFT_TASK_LABELS[task]}
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
          {running ? (
            <Spinner size="sm" label={state.engine ? `Writing with ${ENGINE_LABELS[state.engine]}…` : "Writing…"} />
          ) : state.engine ? (
            <>Written by {ENGINE_LABELS[state.engine]}</>
          ) : null}
        </p>
      </div>
      {state.note && !running ? <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Note: {state.note}</p> : null}
      {state.error ? (
        <p role="alert" className="mt-2 rounded-lg bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
          {state.error}
        </p>
      ) : null}
      {running ? (
        <div className="mt-3 min-h-24 whitespace-pre-wrap rounded-lg bg-stone-50 p-3 text-base dark:bg-stone-950" aria-busy="true">
          {state.text}
        </div>
      ) : state.status === "done" ? (
        <>
          <label htmlFor={`${id}-text`} className="mt-3 block text-sm font-medium">
            Draft (you can edit it before you copy or save it)
          </label>
          <textarea
            id={`${id}-text`}
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={Math.min(22, Math.max(6, text.split("\n").length + 2))}
            aria-describedby={limit ? `${id}-count` : undefined}
            className="mt-1 w-full rounded-lg border border-stone-300 bg-white p-3 text-base leading-relaxed dark:border-stone-700 dark:bg-stone-950"
          />
          {limit ? (
            <p
              id={`${id}-count`}
              className={`text-sm ${text.length > limit ? "font-semibold text-red-800 dark:text-red-300" : "text-stone-600 dark:text-stone-400"}`}
            >
              {text.length} of {limit} characters (MLS limit){text.length > limit ? ": too long for the MLS" : ""}
            </p>
          ) : null}
          {flags.length > 0 ? (
            <FairHousingFlags flags={flags} onApply={(flag) => setText((current) => applySuggestion(current, flag))} />
          ) : task === "listing" ? (
            <p className="mt-2 flex items-center gap-1 text-sm text-stone-700 dark:text-stone-300">
              <Check aria-hidden="true" className="h-4 w-4" /> Fair Housing check: no flagged phrases.
            </p>
          ) : null}
          <div className="mt-3 flex flex-wrap gap-2">
            <Button type="button" variant="secondary" onClick={copy}>
              <ClipboardCopy aria-hidden="true" className="h-4 w-4" /> {copied ? "Copied" : "Copy"}
            </Button>
            <Button type="button" variant="secondary" onClick={onRegenerate}>
              <RefreshCw aria-hidden="true" className="h-4 w-4" /> Regenerate
            </Button>
            {email ? (
              <a className={buttonClass("secondary")} href={mailtoHref(contact?.email ?? null, text)}>
                <Mail aria-hidden="true" className="h-4 w-4" /> Open in mail app
              </a>
            ) : null}
            <activity.Form
              method="post"
              action={ACTIVITIES_ACTION}
              onSubmit={(event) => {
                // Saved now: the time it is saved, not the minute the page loaded.
                const now = localNow(timezone);
                const fields = event.currentTarget.elements;
                (fields.namedItem("date") as HTMLInputElement).value = now.date;
                (fields.namedItem("time") as HTMLInputElement).value = now.time;
              }}
            >
              <input type="hidden" name="intent" value="log" />
              <SubmissionKey name="draft-note" answer={activity.data} ignore={["date", "time"]} />
              <input type="hidden" name="type" value="note" />
              <input type="hidden" name="contactId" value={contact?.id ?? ""} />
              <input type="hidden" name="date" value={today} />
              <input type="hidden" name="time" value={nowTime} />
              <input type="hidden" name="outcome" value={`AI draft: ${DRAFT_TASK_LABELS[task]}`} />
              <input type="hidden" name="notes" value={text.slice(0, 5000)} />
              <Button
                type="submit"
                variant="secondary"
                disabled={!contact}
                busy={activity.state !== "idle"}
                title={contact ? undefined : "Pick a contact to save it on their timeline"}
              >
                <NotebookPen aria-hidden="true" className="h-4 w-4" /> Save as activity
              </Button>
            </activity.Form>
            <taskSave.Form method="post" action={TASKS_ACTION}>
              <input type="hidden" name="intent" value="create" />
              <SubmissionKey name="draft-task" answer={taskSave.data} />
              <input type="hidden" name="title" value={TASK_TITLES[task](contact?.name)} />
              <input type="hidden" name="type" value={task === "follow_up" ? "email" : "other"} />
              <input type="hidden" name="priority" value="medium" />
              <input type="hidden" name="dueDate" value={today} />
              <input type="hidden" name="contactId" value={contact?.id ?? ""} />
              <input type="hidden" name="notes" value={text.slice(0, 5000)} />
              <Button type="submit" variant="secondary" busy={taskSave.state !== "idle"}>
                <ListPlus aria-hidden="true" className="h-4 w-4" /> Save as task
              </Button>
            </taskSave.Form>
          </div>
          {!contact ? (
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Pick a contact above to save drafts on their timeline.</p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
