import { DAY_MS } from "~/lib/dates";
import { useFetcher } from "@remix-run/react";
import { Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { EmptyState } from "~/components/EmptyState";
import { Button } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { toast } from "~/components/ui/Toaster";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import type { TrashKind } from "~/db/enums";
import { KIND_LABELS, TRASH_ACTION, type TrashActionResult } from "../trash";

export interface TrashRow {
  id: string;
  kind: TrashKind;
  title: string;
  deletedAt: number;
}

/** "Deleted for good in 3 days", "… today" on the last day. */
function leftText(deletedAt: number, now: number, days: number) {
  const left = Math.max(0, Math.ceil((deletedAt + days * DAY_MS - now) / DAY_MS));
  return left === 0 ? "Deleted for good today" : `Deleted for good in ${left} ${left === 1 ? "day" : "days"}`;
}

const kindLabel = (kind: TrashKind) => KIND_LABELS[kind].one.replace(/^./, (c) => c.toUpperCase());

/**
 * Settings → Trash: what was deleted in the last 30 days, newest first, to restore (one, or those ticked) or
 * delete for good (a confirmation asks first). A list of cards at every width: each row is short, and a phone
 * needs the same controls as a wide screen.
 */
export function TrashPanel({
  items,
  total,
  days,
  now,
  prefs,
  className,
}: {
  items: TrashRow[];
  total: number;
  days: number;
  now: number;
  prefs: DisplayPreferences;
  className: string;
}) {
  const fetcher = useFetcher<TrashActionResult>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const confirm = useRef<HTMLDialogElement>(null);
  // What the confirmation is for: the whole trash, or the ticked items.
  const [confirming, setConfirming] = useState<"empty" | "selected">("empty");
  const busy = fetcher.state !== "idle";
  const pending = busy ? String(fetcher.formData?.get("intent") ?? "") : "";

  useFetcherResult(fetcher, (result) => {
    confirm.current?.close();
    if (result.ok) {
      setSelected(new Set());
      toast({ title: result.message, variant: "success" });
    } else toast({ title: result.error, variant: "destructive" });
  });
  // Items restored or purged elsewhere drop out of the selection.
  useEffect(() => setSelected((current) => new Set([...current].filter((id) => items.some((i) => i.id === id)))), [items]);

  const send = (intent: "restore" | "delete" | "empty", ids: string[] = []) => {
    const form = new FormData();
    form.set("intent", intent);
    for (const id of ids) form.append("id", id);
    fetcher.submit(form, { method: "post", action: TRASH_ACTION });
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));

  if (total === 0) {
    return (
      <EmptyState icon={Trash2} title="The trash is empty">
        Contacts, deals and tasks you delete wait here for {days} days, with everything linked to them, so you can restore them. After that they are
        deleted for good.
      </EmptyState>
    );
  }

  return (
    <section aria-labelledby="trash-heading" className={className}>
      <h2 id="trash-heading" className="text-lg font-semibold">
        Trash
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Deleted contacts, deals and tasks stay here for {days} days with everything linked to them, then they are deleted for good. Lists, search,
        reports and exports leave them out.
        {total > items.length ? ` Showing the newest ${items.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}.` : ""}
      </p>

      <div className="mt-4 flex flex-wrap items-center gap-2">
        <label className="inline-flex min-h-12 items-center gap-3 pr-2 font-medium">
          <input
            type="checkbox"
            className="h-5 w-5 accent-brand-700"
            checked={allSelected}
            onChange={(e) => setSelected(e.target.checked ? new Set(items.map((i) => i.id)) : new Set())}
          />
          Select all
        </label>
        <Button
          type="button"
          variant="secondary"
          disabled={selected.size === 0}
          busy={pending === "restore" && (fetcher.formData?.getAll("id").length ?? 0) > 1}
          busyLabel="Restoring…"
          onClick={() => send("restore", [...selected])}
        >
          Restore selected{selected.size ? ` (${selected.size})` : ""}
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={selected.size === 0}
          onClick={() => {
            setConfirming("selected");
            confirm.current?.showModal();
          }}
        >
          Delete selected for good
        </Button>
        <Button
          type="button"
          variant="danger"
          className="sm:ml-auto"
          onClick={() => {
            setConfirming("empty");
            confirm.current?.showModal();
          }}
        >
          Empty trash
        </Button>
      </div>
      <p className="sr-only" aria-live="polite">
        {selected.size ? `${selected.size} selected` : ""}
      </p>

      <ul className="mt-3 divide-y divide-stone-200 border-y border-stone-200 dark:divide-stone-800 dark:border-stone-800" aria-label="Deleted items">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
            <input
              id={`trash-${item.id}`}
              type="checkbox"
              className="h-5 w-5 shrink-0 accent-brand-700"
              checked={selected.has(item.id)}
              onChange={(e) => toggle(item.id, e.target.checked)}
              aria-describedby={`trash-${item.id}-meta`}
            />
            <div className="min-w-0 flex-1">
              <label htmlFor={`trash-${item.id}`} className="block break-words font-medium">
                {item.title || "(untitled)"}
              </label>
              <p id={`trash-${item.id}-meta`} className="text-sm text-stone-600 dark:text-stone-400">
                {kindLabel(item.kind)} · deleted {formatDate(new Date(item.deletedAt), prefs)} · {leftText(item.deletedAt, now, days)}
              </p>
            </div>
            <Button
              type="button"
              variant="secondary"
              aria-label={`Restore ${item.title || kindLabel(item.kind)}`}
              busy={pending === "restore" && fetcher.formData?.getAll("id").length === 1 && fetcher.formData.get("id") === item.id}
              busyLabel="Restoring…"
              disabled={busy}
              onClick={() => send("restore", [item.id])}
            >
              Restore
            </Button>
          </li>
        ))}
      </ul>

      <Modal ref={confirm} id="empty-trash-dialog" title={confirming === "empty" ? "Empty trash" : "Delete for good"}>
        <div className="flex flex-col gap-4">
          <p className="font-medium">
            {confirming === "empty"
              ? `Delete the ${total.toLocaleString("en-US")} ${total === 1 ? "item" : "items"} in the trash for good? This cannot be undone.`
              : `Delete the ${selected.size.toLocaleString("en-US")} selected ${selected.size === 1 ? "item" : "items"} for good? This cannot be undone.`}
          </p>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => confirm.current?.close()}>
              Cancel
            </Button>
            <Button
              type="button"
              variant="danger"
              busy={pending === "empty" || pending === "delete"}
              busyLabel="Deleting…"
              onClick={() => (confirming === "empty" ? send("empty") : send("delete", [...selected]))}
            >
              {confirming === "empty" ? "Empty trash" : "Delete for good"}
            </Button>
          </div>
        </div>
      </Modal>
    </section>
  );
}
