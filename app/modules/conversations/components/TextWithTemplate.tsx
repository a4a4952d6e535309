import { FileText } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { Spinner } from "~/components/ui/Spinner";

const TextTemplateForm = lazy(() => import("./TextTemplateForm"));

/**
 * "Text from a template" on a contact's page: a text template filled for the contact, opened in the phone's messages
 * app to send from there (Porchlight never sends texts itself: TCPA). The tap is remembered, so "How did it go?" logs it.
 */
export function TextWithTemplate({ contact, phone, className }: { contact: { id: string; name: string }; phone: string; className: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(0);
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => {
          setOpened((n) => n + 1);
          dialog.current?.showModal();
        }}
      >
        <FileText aria-hidden="true" className="h-5 w-5" /> Text from a template
      </button>
      <Modal ref={dialog} id="text-template" title={`Text ${contact.name}`}>
        {opened > 0 ? (
          <Suspense fallback={<Spinner label="Opening…" />}>
            <TextTemplateForm key={opened} contact={contact} phone={phone} close={() => dialog.current?.close()} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
