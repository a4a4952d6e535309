import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { PublicHeader } from "~/components/PublicHeader";
import { formatDateTime } from "~/lib/format";
import { listOutbox } from "~/lib/mailer.server";

export const meta: MetaFunction = () => [{ title: "Development mailbox — Porchlight" }, { name: "robots", content: "noindex" }];

/** Local only: e-mails that would have been sent. In production this page does not exist. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.config.isDev) throw new Response("Not Found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to")?.trim().toLowerCase();
  const emails = await listOutbox(context, to);
  return { emails, to: to ?? "" };
}

function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <p className="whitespace-pre-wrap break-words text-sm">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="font-medium text-brand-700 underline dark:text-brand-400">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}

export default function DevMailbox() {
  const { emails, to } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-dvh">
      <PublicHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 pb-16">
        <h1 className="text-2xl font-bold">Development mailbox</h1>
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          No e-mail provider is configured, so messages wait here instead of being sent. Newest first.
        </p>
        <form method="get" className="mt-4 flex gap-2">
          <label htmlFor="to" className="sr-only">
            Filter by recipient
          </label>
          <input
            id="to"
            name="to"
            type="email"
            inputMode="email"
            defaultValue={to}
            placeholder="Filter by recipient"
            className="min-h-12 flex-1 rounded-lg border border-stone-300 bg-white px-3 dark:border-stone-700 dark:bg-stone-900"
          />
          <button type="submit" className="min-h-12 rounded-lg border border-stone-300 px-4 font-semibold dark:border-stone-700">
            Filter
          </button>
        </form>
        {emails.length === 0 ? (
          <p className="mt-8 rounded-lg border border-dashed border-stone-300 p-6 text-center dark:border-stone-700">The mailbox is empty.</p>
        ) : (
          <ul className="mt-6 flex flex-col gap-4">
            {emails.map((email) => (
              <li key={email.id} className="rounded-xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
                <article aria-label={email.subject}>
                  <h2 className="font-semibold">{email.subject}</h2>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    {email.fromName ? `From ${email.fromName} via Porchlight · ` : ""}To {email.to} · {formatDateTime(email.createdAt)} ·{" "}
                    {email.status}
                  </p>
                  {email.replyTo ? <p className="text-sm text-stone-600 dark:text-stone-400 wrap-anywhere">Reply-To {email.replyTo}</p> : null}
                  <div className="mt-3">
                    <Linkified text={email.text} />
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
