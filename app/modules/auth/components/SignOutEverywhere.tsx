import { useRef } from "react";
import { SignOutForm } from "./SignOutForm";
import { Button } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { SIGN_OUT_EVERYWHERE_CONFIRM } from "../auth.schema";

/**
 * Settings → Account's "Sign out everywhere": a confirmation first, saying what happens, since it cannot be taken
 * back. The dialog is the native modal (focus kept inside, Esc cancels, focus returns to the button).
 */
export function SignOutEverywhere({ className }: { className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <div className={className}>
      <Button type="button" variant="danger" aria-haspopup="dialog" onClick={() => dialog.current?.showModal()}>
        Sign out everywhere
      </Button>
      <Modal ref={dialog} id="sign-out-everywhere" title="Sign out everywhere?">
        <div id="sign-out-everywhere-what" className="space-y-2">
          <p>Every device signed in to Porchlight with your account is signed out at once, this one included: phones, tablets and computers.</p>
          <p>
            Each needs your password to sign in again. The copy kept on a device for working offline is deleted the next time it connects, with any
            changes still waiting to send on it.
          </p>
        </div>
        <SignOutForm everywhere className="mt-4 flex flex-wrap justify-end gap-2">
          {/* The server signs out everywhere only with this, which only this dialog sends. */}
          <input type="hidden" name="confirm" value={SIGN_OUT_EVERYWHERE_CONFIRM} />
          <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" aria-describedby="sign-out-everywhere-what">
            Sign out everywhere
          </Button>
        </SignOutForm>
      </Modal>
    </div>
  );
}
