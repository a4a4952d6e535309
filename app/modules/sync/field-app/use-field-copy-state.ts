import { useCallback, useEffect, useState } from "react";
import { changeRowId } from "../change-id";
import { buildView, type FieldView } from "../field-view";
import { onCopyChanged } from "../field-copy";
import { copyOwner, openCopy, readCopy, syncCopy, type CopyMeta, type SentTally, type StageRow } from "../local-copy.client";

export type CopyState =
  | { status: "loading" }
  | { status: "none" }
  | { status: "ready"; userId: string; meta: CopyMeta; sent: SentTally | null; stages: StageRow[]; view: FieldView };

/** The agent's saved copy with their waiting changes laid over it, read again whenever either changes. */
export function useCopyState(): CopyState {
  const [state, setState] = useState<CopyState>({ status: "loading" });
  const load = useCallback(async () => {
    try {
      const userId = await copyOwner();
      if (!userId) return setState({ status: "none" });
      const db = await openCopy(userId);
      const copy = await readCopy(db).finally(() => db.close());
      if (!copy.meta) return setState({ status: "none" });
      const ids = new Map<string, string>();
      for (const { change } of copy.queue)
        if (change.type === "add_contact" || change.type === "add_task") ids.set(change.key, await changeRowId(userId, change.key));
      setState({ status: "ready", userId, meta: copy.meta, sent: copy.sent, stages: copy.stages, view: buildView(copy, ids) });
    } catch {
      // Storage refused (private browsing) or unreadable: the same as no copy.
      setState({ status: "none" });
    }
  }, []);
  useEffect(() => {
    void load();
    const reload = () => void load();
    return onCopyChanged(reload);
  }, [load]);
  return state;
}

/** While the view is open: send the waiting changes and refresh the copy whenever the connection comes back. */
export function useSendWhenOnline(userId: string | null, online: boolean) {
  useEffect(() => {
    if (userId && online) void syncCopy(userId);
  }, [userId, online]);
}
