import { useRef, type ReactNode } from "react";
import type { DisplayPreferences } from "~/lib/format";
import type { LocalNow } from "../due";
import type { TaskItem } from "../task.schema";
import { CompleteLogDialog, type CompleteLogHandle } from "./CompleteLogDialog";
import { TaskActionsProvider } from "./TaskActions";
import { TaskDialog, type TaskDialogHandle } from "./TaskDialog";
import { TaskRow } from "./TaskRow";

export interface TaskListTools {
  addTask(options?: Parameters<TaskDialogHandle["open"]>[0]): void;
}

/**
 * A list of task rows with everything they need: complete/delete with undo, the edit dialog and the
 * complete-and-log dialog. `header` renders above the list and may open the add dialog.
 */
export function TaskList({
  tasks,
  now,
  prefs,
  empty,
  header,
  hideContact,
  hideDeal,
  label,
  highlightId,
}: {
  tasks: TaskItem[];
  now: LocalNow;
  prefs: DisplayPreferences;
  empty: ReactNode;
  header?: (tools: TaskListTools) => ReactNode;
  hideContact?: boolean;
  hideDeal?: boolean;
  label: string;
  /** A just-added task to mark and scroll into view. */
  highlightId?: string | null;
}) {
  const dialog = useRef<TaskDialogHandle>(null);
  const log = useRef<CompleteLogHandle>(null);
  return (
    <TaskActionsProvider>
      {header?.({ addTask: (options) => dialog.current?.open(options) })}
      {tasks.length ? (
        <ul aria-label={label} className="divide-y divide-stone-200 dark:divide-stone-800">
          {tasks.map((task) => (
            <TaskRow
              key={task.id}
              task={task}
              now={now}
              prefs={prefs}
              onEdit={(t) => dialog.current?.open({ task: t })}
              onCompleteAndLog={(t) => log.current?.open(t)}
              hideContact={hideContact}
              hideDeal={hideDeal}
              highlight={task.id === highlightId}
            />
          ))}
        </ul>
      ) : (
        empty
      )}
      <TaskDialog ref={dialog} today={now.date} />
      <CompleteLogDialog ref={log} />
    </TaskActionsProvider>
  );
}
