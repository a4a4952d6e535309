import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { formatDate } from "~/lib/format";
import { NO_WORK, type MemberWork } from "../removal";
import { ROLE_NAMES, ROLE_OPTIONS } from "../team.messages";
import { HandOverWork, RemoveMember } from "./MemberWorkDialog";

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

/** The team's members with their roles; the owner changes roles, managers remove members (saying first what moves). */
export function MembersSection({
  members,
  me,
  owner,
  manager,
  work,
  prefs,
  busy,
}: {
  members: { userId: string; name: string; email: string; role: keyof typeof ROLE_NAMES; joinedAt: Parameters<typeof formatDate>[0] }[];
  me: string;
  owner: boolean;
  manager: boolean;
  work: Record<string, MemberWork>;
  prefs: Parameters<typeof formatDate>[1];
  busy: (intent: string, id?: string) => boolean;
}) {
  return (
    <section aria-labelledby="members-heading" className={card}>
      <h2 id="members-heading" className="text-lg font-semibold">
        Members
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Each member has a seat. The owner pays and manages billing; admins invite and remove agents and ISAs; agents work their own contacts and
        deals; an ISA works the team's new leads and hands them to agents.
      </p>
      <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800">
        {members.map((member) => (
          <li key={member.userId} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="truncate font-medium">
                {member.name}
                {member.userId === me ? " (you)" : ""}
              </p>
              <p className="truncate text-sm text-stone-600 dark:text-stone-400">
                {member.email} · {ROLE_NAMES[member.role]} · joined {formatDate(member.joinedAt, prefs)}
              </p>
            </div>
            {member.role !== "owner" && member.userId !== me && manager ? (
              <div className="flex flex-wrap items-end gap-2">
                {owner ? (
                  <Form method="post" className="flex items-end gap-2">
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="memberId" value={member.userId} />
                    <SelectField label={`Role of ${member.name}`} name="role" defaultValue={member.role} options={ROLE_OPTIONS} />
                    <Button type="submit" variant="secondary" busy={busy("role", member.userId)} busyLabel="Saving…">
                      Save role
                    </Button>
                  </Form>
                ) : null}
                {owner ? (
                  <HandOverWork
                    member={member}
                    members={members}
                    me={me}
                    work={work[member.userId] ?? NO_WORK}
                    busy={busy("hand-over", member.userId)}
                  />
                ) : null}
                {owner || member.role !== "admin" ? (
                  <div className="sm:ml-6">
                    <RemoveMember
                      member={member}
                      members={members}
                      me={me}
                      owner={owner}
                      work={work[member.userId] ?? NO_WORK}
                      busy={busy("remove", member.userId)}
                    />
                  </div>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
        A removed member keeps their account and, unless the owner gives it to a teammate, everything they made in it; to go on using Porchlight they
        start a plan of their own.
        {owner ? " Given to a teammate, their contacts, deals, tasks, activities and leads become that teammate's, with their timelines." : ""}{" "}
        {owner
          ? " Hand over… gives a member's work to a teammate while they stay (a vacation, a leave). Hand over… and Remove… say"
          : " Remove… says"}{" "}
        what moves, and to whom, before anything changes.
      </p>
    </section>
  );
}
