import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { ACTIVITY_TYPES, type ActivityType } from "~/db/enums";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { deleteActivity, logActivityFromForm, timeline } from "~/modules/activities/activities.server";
import { ActivityEntry, ActivityTypeFilter } from "~/modules/activities/components/ActivityTimeline";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import type { ActionResult } from "~/lib/action-result";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";

export const meta: MetaFunction = () => [{ title: "Recent activity — Porchlight" }];

const isType = (value: string | null): value is ActivityType => (ACTIVITY_TYPES as readonly string[]).includes(value ?? "");

/** The recent-activity feed; timelines on contact and deal pages load their further pages and filters here. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const params = new URL(request.url).searchParams;
  const type = params.get("type");
  const [page, prefs] = await Promise.all([
    timeline(context, user.id, {
      contactId: params.get("contactId") || undefined,
      dealId: params.get("dealId") || undefined,
      types: isType(type) ? [type] : undefined,
      before: params.get("before"),
    }),
    getDisplayPreferences(context, user.id),
  ]);
  return { ...page, prefs };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, {
    log: async () => {
      const result = await logActivityFromForm(context, user.id, form);
      if (!result.ok)
        return data<ActionResult>({ ok: false, intent: "log", error: result.error, fieldErrors: result.fieldErrors }, { status: result.status });
      return data<ActionResult<{ id: string }>>({ ok: true, intent: "log", id: result.id });
    },
    delete: async () => {
      const result = await deleteActivity(context, user.id, String(form.get("id") ?? ""));
      if (!result.ok) return data<ActionResult>({ ok: false, intent: "delete", error: result.error, fieldErrors: {} }, { status: 400 });
      return data<ActionResult>({ ok: true, intent: "delete" });
    },
  });
}

export default function ActivityFeedPage() {
  const { activities, nextCursor, prefs } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const type = params.get("type") ?? "";
  const more = new URLSearchParams(params);
  if (nextCursor) more.set("before", nextCursor);
  return (
    <>
      <PageHeader title="Recent activity" description="Everything logged on your contacts and deals, newest first" />
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2">
        <ActivityTypeFilter id="feed-type" name="type" defaultValue={type} />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </Form>
      <section aria-label="Activity feed" className="rounded-2xl border border-stone-200 bg-white px-4 dark:border-stone-800 dark:bg-stone-900">
        {activities.length ? (
          <ol className="divide-y divide-stone-200 dark:divide-stone-800">
            {activities.map((activity) => (
              <ActivityEntry key={activity.id} activity={activity} prefs={prefs} />
            ))}
          </ol>
        ) : (
          <p className="py-6 text-center text-stone-600 dark:text-stone-400">
            {params.get("before")
              ? "No older activity."
              : "No activity yet. Log calls, showings and notes from a contact or a deal, or complete a task and log it."}
          </p>
        )}
      </section>
      {nextCursor ? (
        <Link
          to={`/activities?${more}`}
          className="mt-3 inline-flex min-h-12 items-center rounded-lg px-3 font-medium text-brand-700 hover:underline dark:text-brand-400"
        >
          Older activity
        </Link>
      ) : null}
    </>
  );
}
