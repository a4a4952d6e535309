import { Mail } from "lucide-react";
import { lazy } from "react";
import { DialogButton } from "./DialogButton";

// The dialog's form (templates, the AI draft, the Fair Housing check) loads when the agent first opens it: the
// contact's page stays as light as it was.
const ComposeForm = lazy(() => import("./ComposeForm"));

/**
 * "E-mail" on a contact's page (ADR 0071): one dialog to start from a template or an AI draft, edit, pass the Fair
 * Housing check and send, from the agent's Gmail or as "Agent via Porchlight". The sent e-mail lands on the timeline.
 */
export function ComposeEmail({ contact, className }: { contact: { id: string; name: string; email: string }; className: string }) {
  return (
    <DialogButton
      id="compose-email"
      title={`E-mail ${contact.name}`}
      wide
      className={className}
      label={
        <>
          <Mail aria-hidden="true" className="h-5 w-5" /> E-mail
        </>
      }
      content={(close) => <ComposeForm contact={contact} close={close} />}
    />
  );
}
