import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { Button } from "~/components/ui/Button";
import { refuse } from "~/lib/intents.server";
import { unsubscribeContact, verifyContactUnsubscribe } from "~/modules/intake/first-reply.server";

// The unsubscribe link of e-mails Porchlight sends to an agent's leads (their instant first reply, ADR 0068): no
// sign-in, the link is signed and names the contact's database. A mail app's one-click unsubscribe (RFC 8058) POSTs
// "List-Unsubscribe=One-Click" to the same address; a person gets a button.
export const meta: MetaFunction = () => [{ title: "Unsubscribe — Porchlight" }, { name: "robots", content: "noindex" }];

const INVALID = "This unsubscribe link is not valid. Reply to the e-mail and ask the agent to stop, and they will.";

async function signedContact(request: Request, context: LoaderFunctionArgs["context"]) {
  const url = new URL(request.url);
  return verifyContactUnsubscribe(context, url.searchParams.get("c"), url.searchParams.get("s"));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const valid = (await signedContact(request, context)) !== null;
  return data({ valid }, { status: valid ? 200 : 400, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const contactId = await signedContact(request, context);
  if (!contactId) return refuse("unsubscribe", { form: INVALID });
  await unsubscribeContact(context.db, contactId);
  return { ok: true as const, intent: "unsubscribe" };
}

export default function Unsubscribe() {
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <PublicHeader />
      <main id="main" className="mx-auto max-w-lg px-4 py-12">
        <h1 className="text-2xl font-bold">Unsubscribe</h1>
        {!valid || result?.ok === false ? (
          <p className="mt-3 text-stone-700 dark:text-stone-300">{INVALID}</p>
        ) : result?.ok ? (
          <p role="status" className="mt-3 text-stone-700 dark:text-stone-300">
            Done: you will get no more automatic e-mails from this agent through Porchlight.
          </p>
        ) : (
          <Form method="post" className="mt-4">
            <p className="text-stone-700 dark:text-stone-300">
              Stop the automatic e-mails this agent sends you through Porchlight. You can still write to them, and they to you.
            </p>
            <Button type="submit" className="mt-4">
              Unsubscribe
            </Button>
          </Form>
        )}
      </main>
    </>
  );
}
