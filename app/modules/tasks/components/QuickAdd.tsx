import { useFetcher } from "@remix-run/react";
import { Plus } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import type { DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { SubmissionKey } from "~/modules/sync/components/SubmissionKey";
import type { LocalNow } from "../due";
import { dueLabel } from "../due-label";
import type { QuickAddResult } from "../quick-add";
import type { ContactChoice, ContactLinkOffer } from "../contact-match";
import { TASK_TYPE_LABELS, TASKS_ACTION, type TaskActionResult } from "../task.schema";

type Parser = (text: string, now: LocalNow) => QuickAddResult | null;

/**
 * One line to a task: "Call Jane tomorrow 3pm". The date reader (chrono-node) loads when the box is first
 * used, so the page does not pay for it; the preview says what will be saved, and the server reads the
 * same text with the same code. Links to a contact or deal when given.
 */
export function QuickAdd({
  now,
  prefs,
  contactId,
  dealId,
  label = "Quick add a task",
  onAdded,
}: {
  now: LocalNow;
  prefs: DisplayPreferences;
  contactId?: string;
  dealId?: string;
  label?: string;
  /** Called with each added task, e.g. to show the list it went to; returns the toast's description. */
  onAdded?: (task: { id: string; dueDate: string; dueTime: string | null }) => string | undefined;
}) {
  const fetcher = useFetcher<TaskActionResult>();
  const [offer, setOffer] = useState<(ContactLinkOffer & { taskId: string; title: string }) | null>(null);
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
      const added = result.taskId && result.due ? { id: result.taskId, ...result.due } : null;
      const where = added ? onAdded?.(added) : undefined;
      const link = result.contactLink;
      setOffer(added && link && (link.linked || link.candidates.length) ? { ...link, taskId: added.id, title: preview?.title ?? text } : null);
      setText("");
      toast({
        title: result.message,
        description: [link?.linked ? `Linked to ${link.linked.name}.` : null, where].filter(Boolean).join(" ") || undefined,
        variant: "success",
      });
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
  const previewText = preview
    ? `${TASK_TYPE_LABELS[preview.type]}: “${preview.title}”, due ${dueLabel(preview, now, prefs).text}`
    : "Type a task with a date and time, e.g. “Call Jane tomorrow 3pm”.";
  return (
    <fetcher.Form
      method="post"
      action={TASKS_ACTION}
      className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900"
    >
      <input type="hidden" name="intent" value="quick-add" />
      <SubmissionKey name={`quick-add:${contactId ?? dealId ?? "tasks"}`} answer={fetcher.data} />
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
      {offer ? <ContactLinkPanel key={offer.taskId} offer={offer} onDone={() => setOffer(null)} /> : null}
    </fetcher.Form>
  );
}

/**
 * After a quick add: the contact it was linked to, with Unlink, or the equally good matches to pick from.
 * One clear match is linked at once (the agent typed the name; asking would cost a tap nearly every time);
 * the link stays in view with its undo until the agent dismisses it or adds the next task.
 */
function ContactLinkPanel({ offer, onDone }: { offer: ContactLinkOffer & { taskId: string; title: string }; onDone: () => void }) {
  const fetcher = useFetcher<TaskActionResult>();
  const [linked, setLinked] = useState(offer.linked);
  // Once unlinked, the match it had is offered again, so a mistaken Unlink is one tap to undo.
  const choices = linked ? [] : offer.candidates.length ? offer.candidates : offer.linked ? [offer.linked] : [];
  const submitLink = (contact: ContactChoice | null) => {
    setLinked(contact);
    fetcher.submit({ intent: "link-contact", id: offer.taskId, contactId: contact?.id ?? "" }, { method: "post", action: TASKS_ACTION });
  };
  useFetcherResult(fetcher, (result) => {
    if (result.ok) toast({ title: result.message, variant: "success" });
    else {
      setLinked(offer.linked);
      toast({ title: "The link was not changed", description: result.error, variant: "destructive" });
    }
  });
  const button = "inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium";
  return (
    <div
      role="group"
      aria-label="Contact for the new task"
      className="mt-2 flex flex-wrap items-center gap-2 rounded-xl bg-stone-100 p-2 text-sm dark:bg-stone-800"
    >
      {linked ? (
        <>
          <p className="min-w-0 flex-1 px-1">
            “{offer.title}” is linked to <span className="font-semibold">{linked.name}</span>.
          </p>
          <button
            type="button"
            className={`${button} text-brand-700 hover:bg-white dark:text-brand-300 dark:hover:bg-stone-900`}
            onClick={() => submitLink(null)}
          >
            Unlink
          </button>
        </>
      ) : (
        <>
          <p className="min-w-0 flex-1 basis-full px-1 sm:basis-auto">
            {offer.candidates.length > 1 ? `Several contacts match “${offer.title}”:` : `“${offer.title}” is not linked to a contact.`}
          </p>
          {choices.map((contact) => (
            <button
              key={contact.id}
              type="button"
              className={`${button} bg-white text-brand-700 hover:bg-brand-50 dark:bg-stone-900 dark:text-brand-300`}
              onClick={() => submitLink(contact)}
            >
              Link to {contact.name}
            </button>
          ))}
        </>
      )}
      <button type="button" className={`${button} text-stone-700 hover:bg-white dark:text-stone-200 dark:hover:bg-stone-900`} onClick={onDone}>
        Dismiss
      </button>
    </div>
  );
}
