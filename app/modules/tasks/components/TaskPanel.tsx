import { Plus } from "lucide-react";
import { Button } from "~/components/ui/Button";
import type { DisplayPreferences } from "~/lib/format";
import type { LocalNow } from "../due";
import type { TaskItem } from "../task.schema";
import { QuickAdd } from "./QuickAdd";
import { TaskList } from "./TaskList";

/** The tasks section of a contact profile or a deal page: quick add linked to it, the list, and the full form. */
export function TaskPanel({
  tasks,
  now,
  prefs,
  contact,
  deal,
}: {
  tasks: TaskItem[];
  now: LocalNow;
  prefs: DisplayPreferences;
  contact?: { id: string; name: string } | null;
  deal?: { id: string; title: string } | null;
}) {
  const owner = deal ? "deal" : "contact";
  return (
    <section aria-labelledby="tasks-heading" className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <TaskList
        tasks={tasks}
        now={now}
        prefs={prefs}
        label="Tasks"
        hideContact={Boolean(contact) && !deal}
        hideDeal={Boolean(deal)}
        header={({ addTask }) => (
          <>
            <div className="mb-3 flex items-center justify-between gap-2">
              <h2 id="tasks-heading" className="text-lg font-semibold">
                Tasks
              </h2>
              <Button type="button" variant="secondary" onClick={() => addTask({ contact: contact ?? null, deal: deal ?? null })}>
                <Plus aria-hidden="true" className="h-5 w-5" />
                Add task
              </Button>
            </div>
            <QuickAdd now={now} prefs={prefs} contactId={contact?.id} dealId={deal?.id} label={`Quick add a task for this ${owner}`} />
          </>
        )}
        empty={<p className="py-3 text-sm text-stone-600 dark:text-stone-400">No tasks for this {owner} yet.</p>}
      />
    </section>
  );
}
