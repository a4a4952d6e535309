import { useFetcher } from "@remix-run/react";
import { Plus } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import type { DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import type { LocalNow } from "../due";
import { dueLabel } from "../due-label";
import type { QuickAddResult } from "../quick-add";
import { TASK_TYPE_LABELS, TASKS_ACTION, type TaskActionResult } from "../task.schema";

type Parser = (text: string, now: LocalNow) => QuickAddResult | null;

/**
 * One line to a task: "Call Jane tomorrow 3pm". The date reader (chrono-node) loads when the box is first
 * used, so the page does not pay for it; the preview says what will be saved, and the server reads the
 * same text with the same code. Links to a contact or deal when given.
 */
export function QuickAdd({ now, prefs, contactId, dealId, label = "Quick add a task" }: { now: LocalNow; prefs: DisplayPreferences; contactId?: string; dealId?: string; label?: string }) {
  const fetcher = useFetcher<TaskActionResult>();
  const [text, setText] = useState("");
  const [parser, setParser] = useState<Parser | null>(null);
  const loading = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const load = () => {
    if (loading.current) return;
    loading.current = true;
    void import("../quick-add").then((module) => setParser(() => module.parseQuickAdd));
  };
  const preview = parser && text.trim() ? parser(text, now) : null;
  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setText("");
      toast({ title: result.message, variant: "success" });
    } else toast({ title: "The task was not added", description: result.error, variant: "destructive" });
  });
  // Back to the box after each add (not on page load: on a phone that would open the keyboard).
  const wasBusy = useRef(false);
  useEffect(() => {
    if (fetcher.state !== "idle") wasBusy.current = true;
    else if (wasBusy.current) {
      wasBusy.current = false;
      input.current?.focus({ preventScroll: true });
    }
  }, [fetcher.state]);
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const previewText = preview ? `${TASK_TYPE_LABELS[preview.type]}: “${preview.title}”, due ${dueLabel(preview, now, prefs).text}` : "Type a task with a date and time, e.g. “Call Jane tomorrow 3pm”.";
  return (
    <fetcher.Form method="post" action={TASKS_ACTION} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
      <input type="hidden" name="intent" value="quick-add" />
      {contactId ? <input type="hidden" name="contactId" value={contactId} /> : null}
      {dealId ? <input type="hidden" name="dealId" value={dealId} /> : null}
      <label htmlFor={`${hintId}-input`} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={input}
          id={`${hintId}-input`}
          name="text"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onFocus={load}
          onPointerEnter={load}
          autoComplete="off"
          maxLength={300}
          placeholder="Call Jane tomorrow 3pm"
          aria-describedby={hintId}
          aria-invalid={error ? true : undefined}
          className="min-h-12 min-w-0 flex-1 rounded-lg border border-stone-300 bg-white px-3 text-base text-stone-900 placeholder:text-stone-400 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
        <Button type="submit" busy={fetcher.state !== "idle"} disabled={!text.trim()} aria-label="Add task">
          <Plus aria-hidden="true" className="h-5 w-5" />
          <span className="hidden sm:inline">Add</span>
        </Button>
      </div>
      <p id={hintId} className={`mt-1 text-sm ${error ? "text-red-700 dark:text-red-400" : "text-stone-600 dark:text-stone-400"}`} aria-live="polite">
        {error ?? previewText}
      </p>
    </fetcher.Form>
  );
}
