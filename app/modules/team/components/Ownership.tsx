import { Form, Link } from "@remix-run/react";
import { Button, buttonClass } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { formatDate } from "~/lib/format";
import { OWNERSHIP_COPY, TEAM_MESSAGES } from "../team.messages";

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

/** The offer of the team's ownership, to the member it is for: accept (with a subscription to take the bill) or decline. */
export function OwnershipOffer({
  ownerName,
  teamName,
  seats,
  canTakeTheBill,
  busy,
}: {
  ownerName: string;
  teamName: string;
  seats: number;
  canTakeTheBill: boolean;
  busy: (intent: string) => boolean;
}) {
  return (
    <section aria-labelledby="offer-heading" className={`${card} border-brand-700 dark:border-brand-400`}>
      <h2 id="offer-heading" className="text-lg font-semibold">
        {OWNERSHIP_COPY.offered(ownerName, teamName)}
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{OWNERSHIP_COPY.terms(seats)}</p>
      {canTakeTheBill ? null : <p className="mt-2 text-sm font-medium">{TEAM_MESSAGES.ownerNeedsSubscription}</p>}
      <div className="mt-3 flex flex-wrap gap-2">
        {canTakeTheBill ? (
          <Form method="post">
            <input type="hidden" name="intent" value="accept-ownership" />
            <Button type="submit" busy={busy("accept-ownership")} busyLabel="Taking over…">
              Accept ownership
            </Button>
          </Form>
        ) : (
          <Link to="/trial/start" className={buttonClass("primary")}>
            Start your subscription
          </Link>
        )}
        <Form method="post">
          <input type="hidden" name="intent" value="decline-ownership" />
          <Button type="submit" variant="secondary" busy={busy("decline-ownership")} busyLabel="Declining…">
            Decline
          </Button>
        </Form>
      </div>
    </section>
  );
}

/** The owner offers the team (and its bill) to a member, or withdraws the offer (ADR 0039). */
export function OwnershipSection({
  members,
  me,
  offer,
  prefs,
  busy,
  errors,
}: {
  members: { userId: string; name: string }[];
  me: string;
  offer: { to: string; at: number } | null;
  prefs: Parameters<typeof formatDate>[1];
  busy: (intent: string) => boolean;
  errors: Record<string, string>;
}) {
  const offeredTo = offer ? members.find((m) => m.userId === offer.to) : undefined;
  return (
    <section aria-labelledby="ownership-heading" className={card}>
      <h2 id="ownership-heading" className="text-lg font-semibold">
        Transfer ownership
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        The owner pays for the team and manages its billing. The member you choose becomes the owner when they accept: the team&apos;s seats move to
        their own subscription, you stay on as an admin, and your subscription ends with the period you have paid.
      </p>
      {offer && offeredTo ? (
        <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p role="status" className="text-sm">
            Offered to <span className="font-medium">{offeredTo.name}</span> on {formatDate(offer.at, prefs)}. Waiting for their answer.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="withdraw-offer" />
            <Button type="submit" variant="secondary" busy={busy("withdraw-offer")} busyLabel="Withdrawing…">
              Withdraw offer
            </Button>
          </Form>
        </div>
      ) : (
        <Form method="post" className="mt-3 grid grid-cols-1 gap-3 sm:flex sm:items-end">
          <input type="hidden" name="intent" value="offer-ownership" />
          <SelectField
            label="New owner"
            name="memberId"
            placeholder={{ label: "Choose a member", disabled: true }}
            error={errors.memberId}
            options={members.filter((m) => m.userId !== me).map((m) => [m.userId, m.name] as const)}
          />
          <Button type="submit" variant="secondary" busy={busy("offer-ownership")} busyLabel="Offering…">
            Offer ownership
          </Button>
        </Form>
      )}
    </section>
  );
}
