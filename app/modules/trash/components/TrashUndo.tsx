import { useFetcher } from "@remix-run/react";
import { createContext, useCallback, useContext, useRef } from "react";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { TRASH_ACTION, type TrashActionResult } from "../trash";

/** What a delete answers: how many went to the trash and their trash ids, which an Undo sends back. */
export type TrashedResult = { ok: boolean; deleted: number; trashIds?: string[] };

type Announce = (result: TrashedResult, title: string, failed: { title: string; description?: string }) => void;
const AnnounceContext = createContext<Announce>(() => {});

/**
 * The "deleted" toast with its Undo, for every delete that moves records to the trash (contacts from the list
 * or the profile, a deal from its page). It lives in the signed-in layout, not in a page: a page that deletes
 * its own record leaves right after, and the Undo must still work on the next page (its restore refreshes
 * whatever page is showing). The browser sends back only the trash ids; the server checks they are the user's.
 */
export function TrashUndoProvider({ children }: { children: React.ReactNode }) {
  const restore = useFetcher<TrashActionResult>();
  const submit = useRef(restore.submit);
  submit.current = restore.submit;
  const failure = useRef<{ title: string; description?: string }>({ title: "Undo failed" });

  useFetcherResult(restore, (result) => {
    if (result.ok) toast({ title: result.message, variant: "success" });
    else toast({ ...failure.current, variant: "destructive" });
  });

  const announce = useCallback<Announce>((result, title, failed) => {
    const ids = result.trashIds ?? [];
    toast({
      title,
      variant: "success",
      actions: ids.length
        ? [
            {
              label: "Undo",
              altText: "Undo the delete",
              onClick: () => {
                failure.current = failed;
                const form = new FormData();
                form.set("intent", "restore");
                for (const id of ids) form.append("id", id);
                submit.current(form, { method: "post", action: TRASH_ACTION });
              },
            },
          ]
        : undefined,
    });
  }, []);

  return <AnnounceContext.Provider value={announce}>{children}</AnnounceContext.Provider>;
}

/** Raises the "deleted" toast with Undo for what a delete answered. */
export const useAnnounceTrashed = () => useContext(AnnounceContext);
