import { useFetcher } from "@remix-run/react";
import { CalendarPlus } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/Button";
import { CopyField } from "~/components/ui/CopyField";
import { toast } from "~/components/ui/Toaster";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import type { CalendarFeedResult } from "../task.schema";

const ACTION = "/calendar-feed";

/**
 * Settings → Calendar feed: a private ICS address for Google, Apple or Outlook calendar with the user's tasks
 * and closing dates. The address is shown once when made (only its hash is kept); a new one replaces the old,
 * and turning the feed off makes the address stop working at once.
 */
export function CalendarFeedSettings({
  feed,
  prefs,
  className,
}: {
  feed: { createdAt: string } | null;
  prefs: DisplayPreferences;
  className: string;
}) {
  const fetcher = useFetcher<CalendarFeedResult>();
  const [url, setUrl] = useState<string | null>(null);
  useFetcherResult(fetcher, (result) => {
    if (!result.ok) toast({ title: "That did not work", description: result.error, variant: "destructive" });
    else if (result.intent === "create") {
      setUrl(result.url);
      toast({ title: "Calendar feed ready", description: "Copy the address now: it is shown only once.", variant: "success" });
    } else {
      setUrl(null);
      toast({ title: "Calendar feed turned off", description: "The old address no longer works.", variant: "success" });
    }
  });
  const busy = fetcher.state !== "idle";
  const webcal = url?.replace(/^https?:/, "webcal:");
  return (
    <section aria-labelledby="calendar-feed-heading" className={className}>
      <h2 id="calendar-feed-heading" className="flex items-center gap-2 text-lg font-semibold">
        <CalendarPlus aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" />
        Calendar feed
      </h2>
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
        See your tasks and closing dates in Google Calendar, Apple Calendar or Outlook. The address is private: anyone who has it can read your tasks,
        so share it with no one.
      </p>
      {url ? (
        <div className="mt-3 flex flex-col gap-2">
          <CopyField id="calendar-feed-url" label="Your private address (shown only now)" value={url} buttonLabel="Copy" copied="Address copied" />
          <ul className="list-disc pl-5 text-sm text-stone-700 dark:text-stone-300">
            <li>
              Google Calendar: Other calendars → + → From URL, and paste the address. Or{" "}
              <a
                href={`https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal!)}`}
                target="_blank"
                rel="noreferrer"
                className="font-medium text-brand-700 underline dark:text-brand-400"
              >
                add it to Google Calendar
              </a>
              .
            </li>
            <li>
              Apple Calendar (iPhone, Mac):{" "}
              <a href={webcal} className="font-medium text-brand-700 underline dark:text-brand-400">
                subscribe
              </a>
              , or File → New Calendar Subscription and paste it.
            </li>
            <li>Outlook: Add calendar → Subscribe from web, and paste it.</li>
          </ul>
        </div>
      ) : (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          {feed
            ? `A feed address made on ${formatDate(feed.createdAt, prefs)} is active. Make a new one if you lost it; the old one then stops working.`
            : "No feed address yet."}
        </p>
      )}
      <fetcher.Form method="post" action={ACTION} className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="create" busy={busy && fetcher.formData?.get("intent") === "create"}>
          {feed || url ? "Make a new address" : "Make my feed address"}
        </Button>
        {feed || url ? (
          <Button type="submit" name="intent" value="revoke" variant="secondary" busy={busy && fetcher.formData?.get("intent") === "revoke"}>
            Turn the feed off
          </Button>
        ) : null}
      </fetcher.Form>
    </section>
  );
}
