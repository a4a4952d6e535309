import type { ActionResult } from "~/lib/action-result";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { CONTACT_STATUSES } from "~/db/enums";
import { STATUS_LABELS } from "../contacts.messages";
import { CONTACTS_ACTION } from "./AddContactDialog";
import type { DeleteResult } from "./DeletedContactsUndo";

/** Actions on the selected contacts: status, tags, export, delete (confirmed, with undo). */
export function BulkBar({ ids, onDeleted }: { ids: string[]; onDeleted: (result: DeleteResult) => void }) {
  const bulk = useFetcher<ActionResult<{ changed: number }>>();
  const remove = useFetcher<DeleteResult>();
  const [confirming, setConfirming] = useState(false);
  const [tag, setTag] = useState("");
  const busy = bulk.state !== "idle" || remove.state !== "idle";
  const post = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    for (const id of ids) form.append("id", id);
    return form;
  };

  const seen = useRef<unknown[]>([]);
  const once = (result: unknown) => {
    if (!result || seen.current.includes(result)) return false;
    seen.current.push(result);
    return true;
  };
  useEffect(() => {
    const result = bulk.data;
    if (bulk.state !== "idle" || !once(result) || !result) return;
    if (result.ok) {
      toast({ title: `${result.changed} ${result.changed === 1 ? "contact" : "contacts"} updated`, variant: "success" });
      setTag("");
    } else toast({ title: "Nothing changed", description: result.error, variant: "destructive" });
  }, [bulk.data, bulk.state]);
  useEffect(() => {
    const result = remove.data;
    if (remove.state !== "idle" || !once(result) || !result) return;
    setConfirming(false);
    onDeleted(result);
  }, [remove.data, remove.state, onDeleted]);

  const small =
    "inline-flex min-h-11 items-center rounded-lg border border-stone-300 bg-white px-3 text-sm font-medium dark:border-stone-700 dark:bg-stone-900";
  return (
    <section
      aria-label="Selected contacts"
      className="sticky bottom-40 z-30 mb-3 flex flex-wrap items-center gap-2 rounded-2xl border border-brand-600 bg-brand-50 p-3 shadow-lg md:bottom-24 dark:bg-stone-900"
    >
      <p className="mr-2 font-semibold" aria-live="polite">
        {ids.length} selected
      </p>
      <label className="flex items-center gap-1 text-sm">
        <span className="sr-only">Set status</span>
        <select
          aria-label="Set status"
          value=""
          disabled={busy}
          onChange={(event) =>
            event.target.value &&
            bulk.submit(post({ intent: "bulk-status", status: event.target.value }), { method: "post", action: CONTACTS_ACTION })
          }
          className={small}
        >
          <option value="">Set status…</option>
          {CONTACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <input aria-label="Tag" value={tag} onChange={(event) => setTag(event.target.value)} placeholder="Tag" className={`${small} w-28`} />
      <button
        type="button"
        disabled={busy}
        className={small}
        onClick={() => bulk.submit(post({ intent: "bulk-tag", change: "add", tag }), { method: "post", action: CONTACTS_ACTION })}
      >
        Add tag
      </button>
      <button
        type="button"
        disabled={busy}
        className={small}
        onClick={() => bulk.submit(post({ intent: "bulk-tag", change: "remove", tag }), { method: "post", action: CONTACTS_ACTION })}
      >
        Remove tag
      </button>
      <a href={`/contacts/export.csv?${ids.map((id) => `id=${encodeURIComponent(id)}`).join("&")}`} download className={small}>
        Export
      </a>
      {confirming ? (
        <span role="alertdialog" aria-label="Confirm delete" className="flex flex-wrap items-center gap-2">
          <span>
            Delete {ids.length} {ids.length === 1 ? "contact" : "contacts"}?
          </span>
          <button
            type="button"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation the agent just asked for takes focus
            autoFocus
            disabled={busy}
            onClick={() => remove.submit(post({ intent: "delete" }), { method: "post", action: CONTACTS_ACTION })}
            className={buttonClass("danger")}
          >
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)} className={small}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className={small}>
          Delete…
        </button>
      )}
    </section>
  );
}
