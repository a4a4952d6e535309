import { useFetcher } from "@remix-run/react";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { TASKS_ACTION, type TaskActionResult } from "../task.schema";

// Complete, delete and their undo, for every task row of a page. The fetcher lives here, not in the row: a
// completed task leaves its list when the page revalidates, and its toast (with Undo) must still appear.

interface TaskActionsValue {
  submit(fields: Record<string, string>): void;
  /** Rows acted on whose answer has not come back: shown done at once. */
  pending: ReadonlySet<string>;
}

const Context = createContext<TaskActionsValue | null>(null);

export function TaskActionsProvider({ children }: { children: ReactNode }) {
  const action = useFetcher<TaskActionResult>();
  const undo = useFetcher<TaskActionResult>();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const settle = (id: string | undefined) =>
    setPending((current) => {
      if (!id || !current.has(id)) return current;
      const next = new Set(current);
      next.delete(id);
      return next;
    });

  useFetcherResult(action, (result) => {
    setPending(new Set());
    if (!result.ok) {
      toast({ title: "That did not work", description: result.error, variant: "destructive" });
      return;
    }
    const fields = result.undo;
    toast({
      title: result.message,
      variant: "success",
      actions: fields
        ? [
            {
              label: "Undo",
              altText: `Undo: ${result.message.toLowerCase()}`,
              onClick: () => undo.submit(fields, { method: "post", action: TASKS_ACTION }),
            },
          ]
        : undefined,
    });
  });
  useFetcherResult(undo, (result) => {
    settle(result.ok ? result.taskId : undefined);
    toast(
      result.ok ? { title: result.message, variant: "success" } : { title: "Undo did not work", description: result.error, variant: "destructive" },
    );
  });

  const submit = useCallback(
    (fields: Record<string, string>) => {
      if (fields.id) setPending((current) => new Set(current).add(fields.id!));
      action.submit(fields, { method: "post", action: TASKS_ACTION });
    },
    [action],
  );
  const value = useMemo(() => ({ submit, pending }), [submit, pending]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useTaskActions(): TaskActionsValue {
  const value = useContext(Context);
  if (!value) throw new Error("useTaskActions needs a TaskActionsProvider");
  return value;
}
