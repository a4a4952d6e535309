import { Form } from "@remix-run/react";
import { useRef, useState } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { SelectField } from "~/components/ui/SelectField";
import { handOverSummary, removalSummary, type MemberWork } from "../removal";

interface Member {
  userId: string;
  name: string;
}

interface Props {
  member: Member;
  members: Member[];
  me: string;
  work: MemberWork;
  busy: boolean;
}

/**
 * A member's row's action on their work, asked first: nothing happens on the first click. The dialog asks where the
 * work goes and says, with counts, what moves to whom before the form is sent (the server refuses it without `confirm`).
 */
function MemberWorkDialog({
  member,
  members,
  me,
  work,
  busy,
  kind,
}: Props & {
  kind: { intent: "remove"; owner: boolean } | { intent: "hand-over" };
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [to, setTo] = useState("");
  const target = members.find((m) => m.userId === to);
  const targetName = target ? (target.userId === me ? "you" : target.name) : null;
  const others = members.filter((m) => m.userId !== member.userId);
  const removing = kind.intent === "remove";
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className={buttonClass("ghost", removing ? "text-red-700 dark:text-red-400" : "")}
        aria-label={removing ? `Remove ${member.name} from the team…` : `Hand over ${member.name}'s work…`}
      >
        {removing ? "Remove…" : "Hand over…"}
      </button>
      <Modal
        ref={dialog}
        id={`${kind.intent}-${member.userId}`}
        title={removing ? `Remove ${member.name}?` : `Hand over ${member.name}'s work?`}
        onClose={() => setTo("")}
      >
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="intent" value={kind.intent} />
          <input type="hidden" name="memberId" value={member.userId} />
          <input type="hidden" name="confirm" value="yes" />
          {kind.intent === "hand-over" ? (
            <SelectField
              label="Goes to"
              name="to"
              value={to}
              onChange={(event) => setTo(event.target.value)}
              placeholder={{ label: "Choose a teammate", disabled: true }}
              options={others.map((m) => [m.userId, m.userId === me ? "You" : m.name] as const)}
            />
          ) : kind.owner ? (
            <SelectField
              label={`${member.name}'s data`}
              name="reassignTo"
              value={to}
              onChange={(event) => setTo(event.target.value)}
              options={[["", "Stays theirs"], ...others.map((m) => [m.userId, `Goes to ${m.userId === me ? "you" : m.name}`] as const)]}
            />
          ) : null}
          <p role="status" className="text-sm">
            {removing ? removalSummary(member.name, work, targetName) : handOverSummary(member.name, work, targetName)}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            {removing ? (
              <Button type="submit" variant="danger" busy={busy} busyLabel="Removing…">
                {targetName ? `Remove and move their work to ${targetName}` : `Remove ${member.name}`}
              </Button>
            ) : (
              <Button type="submit" busy={busy} busyLabel="Starting…" disabled={!targetName}>
                {targetName ? `Move their work to ${targetName}` : "Move their work"}
              </Button>
            )}
          </div>
        </Form>
      </Modal>
    </>
  );
}

/** "Remove…": the owner chooses where the work goes (an admin's removal leaves it with the member). */
export const RemoveMember = ({ owner, ...props }: Props & { owner: boolean }) => <MemberWorkDialog {...props} kind={{ intent: "remove", owner }} />;

/** "Hand over…" (the owner's): the work goes to a teammate while the member stays on the team. */
export const HandOverWork = (props: Props) => <MemberWorkDialog {...props} kind={{ intent: "hand-over" }} />;
