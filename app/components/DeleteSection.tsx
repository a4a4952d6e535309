import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Button, buttonClass } from "~/components/ui/Button";

/**
 * A card that deletes the page's record after a confirmation (posts intent=delete to the page's action).
 * `question` is what the confirmation asks, e.g. "Delete Dana Reyes? This cannot be undone."
 * `onConfirm`: the page deletes in its own way once the script runs (the contact profile, to offer Undo);
 * the form still posts to the page's action without script.
 */
export function DeleteSection({
  id,
  title,
  question,
  className,
  onConfirm,
  busy = false,
}: {
  id: string;
  title: string;
  question: string;
  className: string;
  onConfirm?: () => void;
  busy?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const navigation = useNavigation();
  const deleting = busy || (navigation.state === "submitting" && navigation.formData?.get("intent") === "delete");
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {confirming ? (
        <Form
          method="post"
          className="mt-2 flex flex-col gap-3"
          role="alertdialog"
          aria-labelledby={`${id}-confirm`}
          onSubmit={(event) => {
            if (!onConfirm) return;
            event.preventDefault();
            onConfirm();
          }}
        >
          <p id={`${id}-confirm`}>{question}</p>
          <input type="hidden" name="intent" value="delete" />
          <div className="flex flex-wrap gap-2">
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the confirmation the agent just asked for takes focus */}
            <Button type="submit" variant="danger" autoFocus busy={deleting} busyLabel="Deleting…">
              Delete
            </Button>
            <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </Form>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className={buttonClass("secondary", "mt-2")}>
          {title}…
        </button>
      )}
    </section>
  );
}
