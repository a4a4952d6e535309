import { useLocation } from "@remix-run/react";
import { CloudOff } from "lucide-react";
import { useEffect, useState } from "react";
import { fieldUrlFor, onCopyChanged } from "../field-copy";
import type { QueuedEntry } from "../local-copy.client";
import { useOnline } from "../use-online";
import { ChangeAnswers } from "./ChangeAnswers";

/**
 * In the signed-in app: while there is no connection, the way to the copy saved on the phone; once changes made
 * offline have been sent, what happened to any that did not go as made. The IndexedDB code loads only when needed.
 */
export function FieldCopyStatus({ userId }: { userId: string }) {
  const online = useOnline();
  const location = useLocation();
  const [answered, setAnswered] = useState<QueuedEntry[]>([]);
  useEffect(() => {
    const read = () => void import("../local-copy.client").then((copy) => copy.readAnswers(userId)).then(setAnswered, () => {});
    return onCopyChanged(read);
  }, [userId]);
  const dismiss = () => void import("../local-copy.client").then((copy) => copy.dismissAnswers(userId));
  return (
    <>
      {online ? null : (
        <p
          role="status"
          className="mb-4 flex flex-wrap items-center gap-2 rounded-xl bg-amber-100 px-4 py-3 text-sm font-medium text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        >
          <CloudOff aria-hidden="true" className="h-4 w-4 shrink-0" />
          You are offline.
          <a href={fieldUrlFor(location.pathname + location.search)} className="underline underline-offset-2">
            Open the copy saved on this phone
          </a>
        </p>
      )}
      <ChangeAnswers answered={answered} onDismiss={dismiss} />
    </>
  );
}
