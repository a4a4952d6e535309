import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { redirectWithToast } from "~/lib/toast.server";
import { getUser, requireUser } from "~/modules/auth/guards.server";
import { acceptInvitation, acceptRefusal, peekInvitation } from "~/modules/team/invitations.server";
import { auditWhere } from "~/modules/audit/audit.server";
import { INVITE_LINK_MESSAGES } from "~/modules/team/team.messages";
import { latestMove } from "~/modules/shards/account-move.server";
import { JobProgress, jobActive, type JobView } from "~/modules/jobs/components/JobProgress";
import { DAY_MS } from "~/lib/dates";
import { refuse } from "~/lib/intents.server";
import { formWideError } from "~/lib/action-result";

// An invitation link: who invited whom to which team, and the button that accepts it. Accepting needs an
// account with the invited address, signed in and confirmed; the link works once. An invitee whose account is in
// another database than the team's joins by moving it there (ADR 0060): the page then shows the move's progress.
export const meta: MetaFunction = () => [{ title: "Join a team — Porchlight" }, { name: "robots", content: "noindex" }];

const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/** The signed-in agent's move to a team's database while it runs, and for a day after it ended. */
async function currentMove(
  context: LoaderFunctionArgs["context"],
  userId: string,
): Promise<(JobView & { result: string | null; error: string | null }) | null> {
  const move = await latestMove(context.cloudflare.env, userId);
  const running = move?.status === "queued" || move?.status === "running";
  if (!move || !(running || (move.finishedAt ?? 0) > Date.now() - DAY_MS)) return null;
  return { id: move.id, status: move.status, step: move.step, done: move.done, total: move.total, result: move.result, error: move.error };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const user = await getUser(request, context);
  const move = user ? await currentMove(context, user.id) : null;
  const check = await peekInvitation(context, token);
  // The invitation this agent accepted is used up by their move: the page shows the move instead.
  if (
    move &&
    (move.status === "queued" ||
      move.status === "running" ||
      (move.status === "succeeded" && !check.ok && check.message === INVITE_LINK_MESSAGES.used))
  )
    return data({ ok: "moving" as const, move }, { headers: noStore });
  if (!check.ok) return data({ ok: false as const, message: check.message }, { status: 400, headers: noStore });
  const { invitation } = check;
  const refusal = user ? await acceptRefusal(context, user, invitation) : null;
  const back = `/team/join?token=${encodeURIComponent(token)}`;
  return data(
    {
      ok: true as const,
      teamName: invitation.teamName,
      inviter: invitation.inviter,
      role: invitation.role,
      email: invitation.email,
      signedInAs: user?.email ?? null,
      refusal,
      back,
      failedMove: move?.status === "failed" ? move.error : null,
    },
    { headers: noStore },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await acceptInvitation(context, user, token, auditWhere(request));
  if (!result.ok) return refuse("join", { form: result.message }, 400, noStore);
  // Moving the account to the team's database: this page shows its progress, then the result.
  if (result.moving) return redirect(`/team/join?token=${encodeURIComponent(token)}`, { headers: noStore });
  return redirectWithToast(context, "/team", {
    title: `Welcome to ${result.teamName}`,
    description: "You are on the team's plan now.",
    variant: "success",
  });
}

export default function JoinTeam() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <>
      <PublicHeader />
      <main id="main" className="mx-auto max-w-lg px-4 py-12">
        <h1 className="text-2xl font-bold">{view.ok === "moving" ? "Moving your account" : view.ok ? `Join ${view.teamName}` : "Team invitation"}</h1>
        {view.ok === "moving" ? (
          <MoveStatus move={view.move} />
        ) : !view.ok ? (
          <p role="alert" className="mt-3 text-stone-700 dark:text-stone-300">
            {view.message}
          </p>
        ) : (
          <>
            <p className="mt-3 text-stone-700 dark:text-stone-300">
              {view.inviter} invited {view.email} to join {view.teamName} on Porchlight as {view.role === "admin" ? "an admin" : "an agent"}. Your
              contacts, deals and tasks stay yours; the team&apos;s plan pays for your seat.
            </p>
            {view.failedMove ? (
              <p role="alert" className="mt-4 font-medium text-red-700 dark:text-red-400">
                {`Moving your account to the team's database did not finish (${view.failedMove}). Your account stayed where it was, as it was; you can accept again.`}
              </p>
            ) : null}
            {formWideError(result) || view.refusal ? (
              <p role="alert" className="mt-4 font-medium text-red-700 dark:text-red-400">
                {formWideError(result) ?? view.refusal}
              </p>
            ) : null}
            {view.signedInAs ? (
              view.refusal ? (
                <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">Signed in as {view.signedInAs}.</p>
              ) : (
                <Form method="post" className="mt-6">
                  <Button type="submit" busy={navigation.state === "submitting"} busyLabel="Joining…">
                    Join {view.teamName}
                  </Button>
                </Form>
              )
            ) : (
              <div className="mt-6 flex flex-col gap-3 sm:flex-row">
                <Link to={`/auth?redirectTo=${encodeURIComponent(view.back)}`} className={buttonClass("primary")}>
                  Sign in to accept
                </Link>
                <Link to={`/auth?mode=signup&redirectTo=${encodeURIComponent(view.back)}`} className={buttonClass("secondary")}>
                  Create an account
                </Link>
              </div>
            )}
            {!view.signedInAs ? (
              <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
                New to Porchlight? Create an account with {view.email}, confirm the address from the e-mail we send, then open this invitation again.
              </p>
            ) : null}
          </>
        )}
      </main>
    </>
  );
}

/** The move to the team's database: its progress while it runs, then where the agent is. */
function MoveStatus({ move }: { move: JobView }) {
  if (jobActive(move))
    return (
      <>
        <p className="mt-3 text-stone-700 dark:text-stone-300">
          Your team keeps its data in another of Porchlight&apos;s databases, so your contacts, deals and tasks are moving there: about a minute.
          Until it finishes your account is read-only.
        </p>
        <JobProgress job={move} label="Move" />
      </>
    );
  return (
    <>
      <p role="status" className="mt-3 font-medium text-stone-700 dark:text-stone-300">
        Your account has moved and you are on the team now.
      </p>
      <Link to="/team" className={`mt-6 ${buttonClass("primary")}`}>
        Go to your team
      </Link>
    </>
  );
}
