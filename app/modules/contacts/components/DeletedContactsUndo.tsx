import { useFetcher } from "@remix-run/react";
import { createContext, useCallback, useContext, useRef } from "react";
import { toast } from "~/components/ui/Toaster";
import type { Contact } from "~/db/schema";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { CONTACT_MESSAGES } from "../contacts.messages";
import { CONTACTS_ACTION } from "./AddContactDialog";

/** What the list's action answers a delete with: the removed rows go to the browser, which can send them back. */
export type DeleteResult = { ok: boolean; deleted: number; removed?: Contact[] };

const AnnounceContext = createContext<(result: DeleteResult, title?: string) => void>(() => {});

/**
 * The "deleted" toast with its Undo, for the list's bulk delete and the profile's delete alike. It lives in the
 * signed-in layout, not in a page: the profile goes to the list right after deleting, and the undo must
 * still work there (its restore refreshes whatever page is showing).
 */
export function DeletedContactsProvider({ children }: { children: React.ReactNode }) {
  const restore = useFetcher<{ ok: boolean; restored: number }>();
  const submit = useRef(restore.submit);
  submit.current = restore.submit;

  useFetcherResult(restore, (result) => {
    if (result.ok) toast({ title: `${result.restored} ${result.restored === 1 ? "contact" : "contacts"} restored`, variant: "success" });
    else toast({ ...CONTACT_MESSAGES.undoFailed, variant: "destructive" });
  });

  const announce = useCallback((result: DeleteResult, title?: string) => {
    const removed = result.removed ?? [];
    toast({
      title: title ?? `${result.deleted} ${result.deleted === 1 ? "contact" : "contacts"} deleted`,
      variant: "success",
      actions: removed.length
        ? [{ label: "Undo", altText: "Undo the delete", onClick: () => submit.current({ intent: "restore", contacts: JSON.stringify(removed) }, { method: "post", action: CONTACTS_ACTION }) }]
        : undefined,
    });
  }, []);

  return <AnnounceContext.Provider value={announce}>{children}</AnnounceContext.Provider>;
}

/** Raises the "deleted" toast with Undo for what a delete answered. */
export const useAnnounceDeleted = () => useContext(AnnounceContext);
