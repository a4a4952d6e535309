import { Mail } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { Spinner } from "~/components/ui/Spinner";

// The dialog's form (templates, the AI draft, the Fair Housing check) loads when the agent first opens it: the
// contact's page stays as light as it was.
const ComposeForm = lazy(() => import("./ComposeForm"));

/**
 * "E-mail" on a contact's page (ADR 0071): one dialog to start from a template or an AI draft, edit, pass the Fair
 * Housing check and send, from the agent's Gmail or as "Agent via Porchlight". The sent e-mail lands on the timeline.
 */
export function ComposeEmail({ contact, className }: { contact: { id: string; name: string; email: string }; className: string }) {
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
        <Mail aria-hidden="true" className="h-5 w-5" /> E-mail
      </button>
      <Modal ref={dialog} id="compose-email" title={`E-mail ${contact.name}`} wide>
        {opened > 0 ? (
          <Suspense fallback={<Spinner label="Opening…" />}>
            <ComposeForm key={opened} contact={contact} close={() => dialog.current?.close()} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
