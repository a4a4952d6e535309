import { Link, useFetcher } from "@remix-run/react";
import {
  ArrowRightLeft,
  Calendar,
  CloudOff,
  Inbox,
  FileSignature,
  Handshake,
  Home,
  Mail,
  MailOpen,
  MailCheck,
  MailPlus,
  MessageSquare,
  NotebookPen,
  Phone,
  Plus,
  Tag,
  Trash2,
  type LucideIcon,
} from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { SELECT_CLASS } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import type { ActivityType } from "~/db/enums";
import { ACTIVITY_TYPES, isSystemActivity } from "~/db/enums";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import type { ActionResult } from "~/lib/action-result";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { ACTIVITIES_ACTION, ACTIVITY_TYPE_LABELS, type ActivityItem } from "../activity.schema";
import { LogActivityDialog, type LogActivityHandle } from "./LogActivityDialog";

const ACTIVITY_ICONS: Record<ActivityType, LucideIcon> = {
  call: Phone,
  email_sent: Mail,
  email_opened: MailOpen,
  text: MessageSquare,
  showing: Home,
  meeting: Calendar,
  listing: Tag,
  offer: Handshake,
  contract: FileSignature,
  note: NotebookPen,
  stage_change: ArrowRightLeft,
  assignment: Inbox,
  sync_conflict: CloudOff,
  enquiry: MailPlus,
  auto_reply: MailCheck,
  email_received: MailOpen,
  plan_email: MailCheck,
};

interface Page {
  activities: ActivityItem[];
  nextCursor: string | null;
}

/** "Show: All activity / Call / …", for timelines (controlled) and the feed's GET form (uncontrolled, named). */
export function ActivityTypeFilter({
  id,
  value,
  defaultValue,
  name,
  onChange,
}: {
  id: string;
  value?: string;
  defaultValue?: string;
  name?: string;
  onChange?(value: string): void;
}) {
  return (
    <div className="flex flex-col">
      <label htmlFor={id} className="text-sm font-medium">
        Show
      </label>
      <select
        id={id}
        name={name}
        value={value}
        defaultValue={defaultValue}
        onChange={onChange ? (event) => onChange(event.target.value) : undefined}
        className={`${SELECT_CLASS} w-auto`}
      >
        <option value="">All activity</option>
        {ACTIVITY_TYPES.map((t) => (
          <option key={t} value={t}>
            {ACTIVITY_TYPE_LABELS[t]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What an activity says in one line: a stage change names its stages, others their type and outcome. */
function activitySummary(activity: ActivityItem): string {
  if (activity.type === "stage_change") {
    const meta = activity.meta ?? {};
    return `Moved from ${meta.fromName ?? meta.from ?? "?"} to ${meta.toName ?? meta.to ?? "?"}${meta.by ? ` by ${meta.by}` : ""}`;
  }
  if ((activity.type === "email_sent" || activity.type === "email_received" || activity.type === "plan_email") && activity.meta?.subject) {
    return `${ACTIVITY_TYPE_LABELS[activity.type]} · ${String(activity.meta.subject)}`;
  }
  return activity.outcome ? `${ACTIVITY_TYPE_LABELS[activity.type]} · ${activity.outcome}` : ACTIVITY_TYPE_LABELS[activity.type];
}

/** How an e-mail sent from Porchlight went, as its timeline entry says it (ADR 0071). */
const EMAIL_STATUS_LABELS: Record<string, string> = {
  sent: "Sent",
  bounced: "Bounced: nothing more goes to this address",
  complained: "Marked as spam: no more automatic e-mail to them",
  failed: "Not sent",
};
function emailStatus(activity: ActivityItem): { text: string; bad: boolean } | null {
  const meta = activity.meta;
  if ((activity.type !== "email_sent" && activity.type !== "plan_email") || !meta?.emailId || typeof meta.status !== "string") return null;
  const via = `${meta.via === "gmail" ? "from your Gmail" : "via Porchlight"}${typeof meta.plan === "string" ? ` by the plan “${meta.plan}”` : ""}`;
  return meta.status === "sent" ? { text: `Sent ${via}`, bad: false } : { text: EMAIL_STATUS_LABELS[meta.status] ?? meta.status, bad: true };
}

export function ActivityEntry({
  activity,
  prefs,
  hideContact,
  hideDeal,
  onDelete,
}: {
  activity: ActivityItem;
  prefs: DisplayPreferences;
  hideContact?: boolean;
  hideDeal?: boolean;
  onDelete?(activity: ActivityItem): void;
}) {
  const Icon = ACTIVITY_ICONS[activity.type];
  const email = emailStatus(activity);
  return (
    <li className="flex gap-3 py-3">
      <span
        aria-hidden="true"
        className="mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-200"
      >
        <Icon className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-medium">{activitySummary(activity)}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          <time dateTime={new Date(activity.occurredAt).toISOString()}>{formatDateTime(activity.occurredAt, prefs)}</time>
          {activity.contactName && activity.contactId && !hideContact ? (
            <>
              {" · "}
              <Link
                to={`/contacts/${encodeURIComponent(activity.contactId)}`}
                className="inline-flex min-h-6 items-center text-brand-700 underline underline-offset-2 dark:text-brand-400"
              >
                {activity.contactName}
              </Link>
            </>
          ) : null}
          {activity.dealTitle && activity.dealId && !hideDeal ? (
            <>
              {" · "}
              <Link
                to={`/deals/${encodeURIComponent(activity.dealId)}`}
                className="inline-flex min-h-6 items-center text-brand-700 underline underline-offset-2 dark:text-brand-400"
              >
                {activity.dealTitle}
              </Link>
            </>
          ) : null}
        </p>
        {activity.notes && activity.type !== "stage_change" ? <p className="mt-1 whitespace-pre-line break-words text-sm">{activity.notes}</p> : null}
        {activity.type !== "stage_change" && activity.meta?.by ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{`Logged by ${String(activity.meta.by)}`}</p>
        ) : null}
        {email ? (
          <p className={`mt-1 text-sm font-medium ${email.bad ? "text-red-700 dark:text-red-400" : "text-emerald-800 dark:text-emerald-300"}`}>
            {email.text}
          </p>
        ) : null}
        {activity.type === "stage_change" && activity.meta?.lostReason ? (
          <p className="mt-1 text-sm">Reason: {String(activity.meta.lostReason)}</p>
        ) : null}
      </div>
      {onDelete && !isSystemActivity(activity.type) ? (
        <button
          type="button"
          onClick={() => onDelete(activity)}
          aria-label={`Delete activity: ${activitySummary(activity)}, ${formatDateTime(activity.occurredAt, prefs)}`}
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800"
        >
          <Trash2 aria-hidden="true" className="h-5 w-5" />
        </button>
      ) : null}
    </li>
  );
}

/**
 * A contact's or deal's timeline, newest first: filter by type, show more, log an activity, delete one
 * (stage changes stay). The first page comes with the page; filters and further pages load from /activities.
 */
export function ActivityTimeline({
  initial,
  prefs,
  today,
  nowTime,
  contact,
  deal,
}: {
  initial: Page;
  prefs: DisplayPreferences;
  today: string;
  nowTime: string;
  contact?: { id: string; name: string } | null;
  deal?: { id: string; title: string } | null;
}) {
  const [type, setType] = useState("");
  const [page, setPage] = useState<Page>(initial);
  const loader = useFetcher<Page>();
  const remove = useFetcher<ActionResult>();
  const dialog = useRef<LogActivityHandle>(null);
  const appending = useRef(false);
  const filterId = useId();
  const link: Record<string, string> = deal ? { dealId: deal.id } : contact ? { contactId: contact.id } : {};
  const query = (extra: Record<string, string>) => `${ACTIVITIES_ACTION}?${new URLSearchParams({ ...link, ...(type ? { type } : {}), ...extra })}`;
  // New page data (after logging or deleting) starts the timeline again, unless a filter is on.
  useEffect(() => {
    if (!type) setPage(initial);
    else loader.load(query({}));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initial]);
  useEffect(() => {
    if (loader.state !== "idle" || !loader.data) return;
    const data = loader.data;
    setPage((current) => (appending.current ? { activities: [...current.activities, ...data.activities], nextCursor: data.nextCursor } : data));
    appending.current = false;
  }, [loader.data, loader.state]);
  useFetcherResult(remove, (result) =>
    toast(
      result.ok
        ? { title: "Activity deleted", variant: "success" }
        : { title: "The activity was not deleted", description: result.error, variant: "destructive" },
    ),
  );

  return (
    <section aria-labelledby="timeline-heading" className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <div className="mb-2 flex flex-wrap items-end justify-between gap-2">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Activity
        </h2>
        <div className="flex flex-wrap items-end gap-2">
          <ActivityTypeFilter
            id={`${filterId}-type`}
            value={type}
            onChange={(value) => {
              setType(value);
              appending.current = false;
              loader.load(`${ACTIVITIES_ACTION}?${new URLSearchParams({ ...link, ...(value ? { type: value } : {}) })}`);
            }}
          />
          <Button type="button" variant="secondary" onClick={() => dialog.current?.open()}>
            <Plus aria-hidden="true" className="h-5 w-5" />
            Log activity
          </Button>
        </div>
      </div>
      <div aria-live="polite" aria-busy={loader.state !== "idle" || undefined}>
        {page.activities.length ? (
          <ol aria-label="Activity timeline" className="divide-y divide-stone-200 dark:divide-stone-800">
            {page.activities.map((activity) => (
              <ActivityEntry
                key={activity.id}
                activity={activity}
                prefs={prefs}
                hideContact={Boolean(contact) && !deal}
                hideDeal={Boolean(deal)}
                onDelete={(a) => remove.submit({ intent: "delete", id: a.id }, { method: "post", action: ACTIVITIES_ACTION })}
              />
            ))}
          </ol>
        ) : (
          <p className="py-3 text-sm text-stone-600 dark:text-stone-400">
            {type
              ? `No ${ACTIVITY_TYPE_LABELS[type as ActivityType].toLowerCase()} activity yet.`
              : "No activity yet. Log calls, showings and notes here."}
          </p>
        )}
      </div>
      {page.nextCursor ? (
        <Button
          type="button"
          variant="ghost"
          busy={loader.state !== "idle"}
          onClick={() => {
            appending.current = true;
            loader.load(query({ before: page.nextCursor! }));
          }}
        >
          Show more
        </Button>
      ) : null}
      <LogActivityDialog ref={dialog} contact={contact ?? null} deal={deal ?? null} today={today} nowTime={nowTime} timezone={prefs.timezone} />
    </section>
  );
}
