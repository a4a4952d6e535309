import { Suspense, useRef, useState, type ReactNode } from "react";
import { Modal } from "~/components/ui/Modal";
import { Spinner } from "~/components/ui/Spinner";

/**
 * A button that opens a dialog whose content (a lazily loaded form) is mounted fresh on each opening, so it starts
 * empty every time; `content` gets the function that closes the dialog.
 */
export function DialogButton({
  id,
  title,
  wide = false,
  className,
  label,
  content,
}: {
  id: string;
  title: string;
  wide?: boolean;
  className: string;
  label: ReactNode;
  content: (close: () => void) => ReactNode;
}) {
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
        {label}
      </button>
      <Modal ref={dialog} id={id} title={title} wide={wide}>
        {opened > 0 ? (
          <Suspense key={opened} fallback={<Spinner label="Opening…" />}>
            {content(() => dialog.current?.close())}
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
