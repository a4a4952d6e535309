import { useCallback } from "react";
import { useAnnounceTrashed, type TrashedResult } from "~/modules/trash/components/TrashUndo";
import { CONTACT_MESSAGES } from "../contacts.messages";

/** What the list's action answers a delete with: how many contacts went to the trash, and their trash ids for Undo. */
export type DeleteResult = TrashedResult;

/** Raises the "N contacts deleted" toast with Undo (a restore from the trash) for the list's and the profile's delete. */
export function useAnnounceDeleted() {
  const announce = useAnnounceTrashed();
  return useCallback(
    (result: DeleteResult, title?: string) =>
      announce(result, title ?? `${result.deleted} ${result.deleted === 1 ? "contact" : "contacts"} deleted`, CONTACT_MESSAGES.undoFailed),
    [announce],
  );
}
