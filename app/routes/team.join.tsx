import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { redirectWithToast } from "~/lib/toast.server";
import { getUser, requireUser } from "~/modules/auth/guards.server";
import { acceptInvitation, acceptRefusal, peekInvitation } from "~/modules/team/invitations.server";
import { refuse } from "~/lib/intents.server";
import { formWideError } from "~/lib/action-result";

// An invitation link: who invited whom to which team, and the button that accepts it. Accepting needs an
// account with the invited address, signed in and confirmed; the link works once.
export const meta: MetaFunction = () => [{ title: "Join a team — Porchlight" }, { name: "robots", content: "noindex" }];

const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await peekInvitation(context, token);
  if (!check.ok) return data({ ok: false as const, message: check.message }, { status: 400, headers: noStore });
  const { invitation } = check;
  const user = await getUser(request, context);
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
    },
    { headers: noStore },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await acceptInvitation(context, user, token);
  if (!result.ok) return refuse("join", { form: result.message }, 400, noStore);
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
        <h1 className="text-2xl font-bold">{view.ok ? `Join ${view.teamName}` : "Team invitation"}</h1>
        {!view.ok ? (
          <p role="alert" className="mt-3 text-stone-700 dark:text-stone-300">
            {view.message}
          </p>
        ) : (
          <>
            <p className="mt-3 text-stone-700 dark:text-stone-300">
              {view.inviter} invited {view.email} to join {view.teamName} on Porchlight as {view.role === "admin" ? "an admin" : "an agent"}. Your
              contacts, deals and tasks stay yours; the team&apos;s plan pays for your seat.
            </p>
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
