import { BookOpen } from "lucide-react";
import { forwardRef, useRef } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { GUIDE_DIALOGS, type GuidePage } from "../guide-dialogs";

/** The page's Guide button and the dialog it opens (spec "Guide dialog"): title, description, 4 steps, 'Got it!'. */
export function GuideButton({ page }: { page: GuidePage }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()} aria-haspopup="dialog" className={buttonClass("secondary")}>
        <BookOpen aria-hidden="true" className="h-5 w-5" />
        Guide
      </button>
      <GuideModal ref={dialog} page={page} />
    </>
  );
}

/** The guide dialog alone, for a page that opens it from more than one place (a button and a menu). */
export const GuideModal = forwardRef<HTMLDialogElement, { page: GuidePage; onClose?: () => void }>(function GuideModal({ page, onClose }, ref) {
  const guide = GUIDE_DIALOGS[page];
  return (
    <Modal ref={ref} id={`guide-${page}`} title={guide.title} onClose={onClose}>
      <p className="text-stone-700 dark:text-stone-300">{guide.description}</p>
      <ol className="mt-4 flex flex-col gap-3">
        {guide.steps.map((step, index) => (
          <li key={index} className="flex gap-3">
            <span
              aria-hidden="true"
              className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white dark:bg-brand-400 dark:text-stone-950"
            >
              {index + 1}
            </span>
            <span className="pt-0.5">{step}</span>
          </li>
        ))}
      </ol>
      <div className="mt-6 flex justify-end">
        <Button type="button" onClick={(event) => event.currentTarget.closest("dialog")?.close()}>
          Got it!
        </Button>
      </div>
    </Modal>
  );
});
