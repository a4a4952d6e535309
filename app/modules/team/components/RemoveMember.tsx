import { Form } from "@remix-run/react";
import { useRef, useState } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { SelectField } from "~/components/ui/SelectField";
import { removalSummary, type MemberWork } from "../removal";

interface Member {
  userId: string;
  name: string;
}

/**
 * "Remove…" on a member's row: nothing happens on the first click. The dialog asks where their work goes (the owner
 * chooses; an admin's removal leaves it with them) and says, with counts, what moves to whom before the removal is
 * sent (the server refuses a removal without this confirmation).
 */
export function RemoveMember({
  member,
  members,
  me,
  owner,
  work,
  busy,
}: {
  member: Member;
  members: Member[];
  me: string;
  owner: boolean;
  work: MemberWork;
  busy: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [to, setTo] = useState("");
  const target = members.find((m) => m.userId === to);
  const targetName = target ? (target.userId === me ? "you" : target.name) : null;
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className={buttonClass("ghost", "text-red-700 dark:text-red-400")}
        aria-label={`Remove ${member.name} from the team…`}
      >
        Remove…
      </button>
      <Modal ref={dialog} id={`remove-${member.userId}`} title={`Remove ${member.name}?`} onClose={() => setTo("")}>
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="memberId" value={member.userId} />
          <input type="hidden" name="confirm" value="yes" />
          {owner ? (
            <SelectField
              label={`${member.name}'s data`}
              name="reassignTo"
              value={to}
              onChange={(event) => setTo(event.target.value)}
              options={[
                ["", "Stays theirs"],
                ...members.filter((m) => m.userId !== member.userId).map((m) => [m.userId, `Goes to ${m.userId === me ? "you" : m.name}`] as const),
              ]}
            />
          ) : null}
          <p role="status" className="text-sm">
            {removalSummary(member.name, work, targetName)}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" busy={busy} busyLabel="Removing…">
              {targetName ? `Remove and move their work to ${targetName}` : `Remove ${member.name}`}
            </Button>
          </div>
        </Form>
      </Modal>
    </>
  );
}
