import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { formatDate } from "~/lib/format";
import { INVITE_DAYS } from "../team.schema";
import type { InviteRole } from "~/db/enums";
import { ROLE_HELP, ROLE_NAMES, ROLE_OPTIONS } from "../team.messages";

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

/** Managers invite by e-mail and resend or withdraw pending invitations. */
export function InvitationsSection({
  invitesOn,
  invitations,
  owner,
  prefs,
  busy,
  errors,
}: {
  invitesOn: boolean;
  invitations: { id: string; email: string; role: InviteRole; expired: boolean; expiresAt: Parameters<typeof formatDate>[0] }[];
  owner: boolean;
  prefs: Parameters<typeof formatDate>[1];
  busy: (intent: string, id?: string) => boolean;
  errors: Record<string, string>;
}) {
  return (
    <section aria-labelledby="invite-heading" className={card}>
      <h2 id="invite-heading" className="text-lg font-semibold">
        Invitations
      </h2>
      {invitesOn ? (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            We e-mail a link that works once and expires in {INVITE_DAYS} days. Your team is billed for a new seat when the invitation is accepted.
          </p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{ROLE_HELP}</p>
          <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Invite a member">
            <input type="hidden" name="intent" value="invite" />
            <div className="sm:flex-1">
              <Field label="E-mail" name="email" type="email" autoComplete="off" required error={errors.email} />
            </div>
            <SelectField
              label="Role"
              name="role"
              defaultValue="agent"
              error={errors.role}
              options={owner ? ROLE_OPTIONS : ROLE_OPTIONS.filter(([role]) => role !== "admin")}
            />
            <Button type="submit" busy={busy("invite")} busyLabel="Sending…">
              Send invitation
            </Button>
          </Form>
        </>
      ) : (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Invitations by e-mail are not available on this server yet. Write to hello@porchlight.app to add members.
        </p>
      )}
      {invitations.length > 0 ? (
        <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800" aria-label="Pending invitations">
          {invitations.map((invitation) => (
            <li key={invitation.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="min-w-0 truncate text-sm">
                <span className="font-medium">{invitation.email}</span> · {ROLE_NAMES[invitation.role]} ·{" "}
                {invitation.expired ? "expired" : `expires ${formatDate(invitation.expiresAt, prefs)}`}
              </p>
              <div className="flex gap-2">
                <Form method="post">
                  <input type="hidden" name="intent" value="resend" />
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <Button
                    type="submit"
                    variant="secondary"
                    busy={busy("resend", invitation.id)}
                    busyLabel="Sending…"
                    aria-label={`Send the invitation to ${invitation.email} again`}
                  >
                    Resend
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <Button
                    type="submit"
                    variant="secondary"
                    busy={busy("revoke", invitation.id)}
                    busyLabel="Withdrawing…"
                    aria-label={`Withdraw the invitation to ${invitation.email}`}
                  >
                    Withdraw
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
