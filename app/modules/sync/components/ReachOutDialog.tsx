import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { localNow } from "~/modules/tasks/due";
import { outcomesFor, type ReachOut, type ReachOutcome } from "../reach-out";

/** What became of the question: answered and sent, answered and kept offline, or not answered. */
type Done = "sent" | "kept" | "dismissed";

/** The "How did it go?" dialog (ReachOutPrompt): one button per outcome, and Not now. */
export default function ReachOutDialog({
  reach,
  userId,
  timezone,
  onDone,
}: {
  reach: ReachOut;
  userId: string;
  timezone: string;
  onDone: (done: Done) => void;
}) {
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const finished = useRef(false);
  const titleId = useId();
  const choices = outcomesFor(reach.kind);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const finish = (done: Done) => {
    if (finished.current) return;
    finished.current = true;
    dialog.current?.close();
    onDone(done);
  };

  const answer = async (choice: ReachOutcome) => {
    if (busy) return;
    setBusy(true);
    const { submitChange } = await import("../field-app/submit");
    const { date, time } = localNow(timezone, new Date(reach.at));
    const label = `${choice.type === "text" ? "Text" : "Call"} logged with ${reach.name}: ${choice.outcome.toLowerCase()}`;
    const result = await submitChange(
      userId,
      {
        type: "log_activity",
        activity: { type: choice.type, contactId: reach.contactId, dealId: null, date, time, outcome: choice.outcome, notes: "" },
      },
      label,
    ).catch(() => ({ ok: false as const, error: "It could not be kept on this phone. Log it from the contact's page.", field: "" }));
    if (!result.ok) {
      toast({ title: "Not logged", description: result.error, variant: "destructive" });
      finish("dismissed");
      return;
    }
    const online = navigator.onLine;
    toast({ title: label, description: online ? undefined : "Saved on this phone: it is sent when you are back online.", variant: "success" });
    finish(online ? "sent" : "kept");
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={() => finish("dismissed")}
      className="m-auto w-[min(26rem,calc(100vw-1rem))] rounded-2xl border border-stone-200 bg-stone-50 p-4 text-stone-900 shadow-2xl backdrop:bg-black/50 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-100"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        How did it go with {reach.name}?
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        One tap logs it on {reach.name}'s timeline{reach.kind === "call" ? " as a call" : ""}, at the time you tapped.
      </p>
      <div className="mt-4 grid gap-2">
        {choices.map((choice, i) => (
          <Button key={choice.id} type="button" variant={i === 0 ? "primary" : "secondary"} disabled={busy} onClick={() => void answer(choice)}>
            {choice.label}
          </Button>
        ))}
        <Button type="button" variant="ghost" disabled={busy} onClick={() => finish("dismissed")}>
          Not now
        </Button>
      </div>
    </dialog>
  );
}
