import { Link } from "@remix-run/react";
import { TriangleAlert } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { CONTACT_MESSAGES, duplicateLine, SAVE_ANYWAY_FIELD, type PossibleDuplicate } from "../contacts.messages";

/**
 * The server's warning that the contact being saved has the e-mail or phone of contacts the agent already has: each
 * named, with a link to open it, and a "Save anyway" that submits the same form again with the save-anyway field.
 * Shown inside the form; focus moves to it so a keyboard or screen-reader user hears it at once.
 */
export function DuplicateWarning({
  duplicates,
  onOpen,
  saving,
}: {
  duplicates: readonly PossibleDuplicate[];
  onOpen?: () => void;
  saving?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => ref.current?.focus(), [duplicates]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby={titleId}
      className="rounded-lg border border-amber-600 bg-amber-50 p-3 text-sm text-stone-900 outline-none focus-visible:ring-2 focus-visible:ring-amber-600 sm:col-span-2 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50"
    >
      <p id={titleId} className="flex items-center gap-2 font-semibold">
        <TriangleAlert aria-hidden="true" className="h-4 w-4 shrink-0" /> Possible duplicate
      </p>
      <ul className="mt-1 space-y-1">
        {duplicates.map((d) => (
          <li key={d.id} className="break-words">
            <span className="font-medium">{d.name}</span> {duplicateLine(d)}.
          </li>
        ))}
      </ul>
      <p className="mt-1">{CONTACT_MESSAGES.possibleDuplicate}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {duplicates.map((d) => (
          <Link key={d.id} to={`/contacts/${d.id}`} onClick={onOpen} className={buttonClass("secondary")}>
            Open {d.name}
          </Link>
        ))}
        <Button type="submit" name={SAVE_ANYWAY_FIELD} value="1" variant="secondary" busy={saving} busyLabel="Saving…">
          Save anyway
        </Button>
      </div>
    </div>
  );
}
