import { FileText } from "lucide-react";
import { lazy } from "react";
import { DialogButton } from "./DialogButton";

const TextTemplateForm = lazy(() => import("./TextTemplateForm"));

/**
 * "Text from a template" on a contact's page: a text template filled for the contact, opened in the phone's messages
 * app to send from there (Porchlight never sends texts itself: TCPA). The tap is remembered, so "How did it go?" logs it.
 */
export function TextWithTemplate({ contact, phone, className }: { contact: { id: string; name: string }; phone: string; className: string }) {
  return (
    <DialogButton
      id="text-template"
      title={`Text ${contact.name}`}
      className={className}
      label={
        <>
          <FileText aria-hidden="true" className="h-5 w-5" /> Text from a template
        </>
      }
      content={(close) => <TextTemplateForm contact={contact} phone={phone} close={close} />}
    />
  );
}
