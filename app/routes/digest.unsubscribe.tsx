import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { Button } from "~/components/ui/Button";
import { setDigest, verifyUnsubscribe } from "~/modules/digest/digest.server";
import { refuse } from "~/lib/intents.server";

// The daily digest's unsubscribe link: no sign-in needed, the link is signed (and names the agent's database). A mail app's one-click
// unsubscribe (RFC 8058) POSTs "List-Unsubscribe=One-Click" to the same address; a person gets a button.
export const meta: MetaFunction = () => [{ title: "Stop the daily digest — Porchlight" }, { name: "robots", content: "noindex" }];

const INVALID = "This unsubscribe link is not valid. Turn the daily digest off in Settings → Notifications instead.";

async function signedUser(request: Request, context: LoaderFunctionArgs["context"]) {
  const url = new URL(request.url);
  return verifyUnsubscribe(context, url.searchParams.get("u"), url.searchParams.get("s"));
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const valid = (await signedUser(request, context)) !== null;
  return data({ valid }, { status: valid ? 200 : 400, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const userId = await signedUser(request, context);
  if (!userId) return refuse("unsubscribe", { form: INVALID });
  await setDigest(context, userId, false, null);
  return { ok: true as const, intent: "unsubscribe" };
}

export default function DigestUnsubscribe() {
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <PublicHeader />
      <main id="main" className="mx-auto max-w-lg px-4 py-12">
        <h1 className="text-2xl font-bold">Stop the daily digest</h1>
        {!valid || result?.ok === false ? (
          <p className="mt-3 text-stone-700 dark:text-stone-300">{INVALID}</p>
        ) : result?.ok ? (
          <p role="status" className="mt-3 text-stone-700 dark:text-stone-300">
            Done: you will not get the daily digest any more. Turn it back on any time in Settings → Notifications.
          </p>
        ) : (
          <Form method="post" className="mt-4">
            <p className="text-stone-700 dark:text-stone-300">
              Porchlight will stop sending you the 7:00 e-mail with your day. Nothing else changes.
            </p>
            <Button type="submit" className="mt-4">
              Stop the daily digest
            </Button>
          </Form>
        )}
      </main>
    </>
  );
}
