import { Form } from "@remix-run/react";
import { RefreshCw } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/Button";
import { CopyField } from "~/components/ui/CopyField";
import { Modal, ModalActions } from "~/components/ui/Modal";

/**
 * An intake address (an agent's or a team's) to copy, and New address, which asks first: the old address bounces from
 * then on. The form posts intent "intake-rotate" to the page it is on.
 */
export function IntakeAddressField({
  id,
  label,
  address,
  whose,
  busy,
}: {
  id: string;
  label: string;
  address: string;
  whose: string;
  busy: boolean;
}) {
  const rotate = useRef<HTMLDialogElement>(null);
  return (
    <>
      <CopyField id={id} label={label} labelClassName="sr-only" value={address} buttonLabel="Copy address" copied="Address copied">
        <Button type="button" variant="secondary" onClick={() => rotate.current?.showModal()}>
          <RefreshCw aria-hidden="true" className="h-5 w-5" />
          New address
        </Button>
      </CopyField>
      <Modal id={`${id}-rotate`} title={`Replace ${whose} lead intake address?`} ref={rotate}>
        <Form method="post" onSubmit={() => rotate.current?.close()}>
          <input type="hidden" name="intent" value="intake-rotate" />
          <p className="text-sm">
            E-mails to {address} will bounce from now on. Every portal, website and forwarding rule that sends to it needs the new address.
          </p>
          <ModalActions submitLabel="Replace address" busy={busy} className="mt-4" />
        </Form>
      </Modal>
    </>
  );
}
