import { Link } from "@remix-run/react";
import { MessageSquare, Phone, Timer } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { buttonClass } from "~/components/ui/Button";
import { ReachOutLink } from "~/modules/sync/components/ReachOutLink";
import { Definition } from "~/modules/dashboard/components/MetricDefinition";
import { METRIC_DEFINITIONS } from "~/modules/dashboard/metrics";

export interface WaitingLeadItem {
  contactId: string;
  name: string;
  phone: string | null;
  email: string | null;
  arrivedAt: number;
}

/** Call, and Text beside it (its word only from sm up: the row is narrow on a phone). */
const REACH = [
  { kind: "call", Icon: Phone, text: "Call", look: "primary" },
  { kind: "text", Icon: MessageSquare, text: "Text", look: "secondary" },
] as const;

/** "0:42", "4:05", "1 h 12 min": how long a lead has waited. */
function waitedFor(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 3_600) return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return `${Math.floor(seconds / 3_600)} h ${Math.floor((seconds % 3_600) / 60)} min`;
}

/**
 * The dashboard's new leads with no response yet, each with a live timer since it arrived; past the
 * reminder mark the timer turns red. A lead leaves the list once its first call, text, e-mail or meeting is logged
 * (figures.server.ts: the waiting leads Reports and the digest show).
 */
export function LeadsWaiting({
  leads,
  more = 0,
  serverNow,
  reminderMinutes,
}: {
  leads: readonly WaitingLeadItem[];
  more?: number;
  serverNow: number;
  reminderMinutes: number;
}) {
  // The server's moment first (the same text on both sides of hydration), then the device's clock every second.
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  const titleId = useId();
  if (leads.length === 0) return null;
  return (
    <section
      aria-labelledby={titleId}
      className="relative mb-4 rounded-xl border border-brand-300 bg-brand-50 p-4 dark:border-brand-800 dark:bg-stone-900"
    >
      <h2 id={titleId} className="mr-10 flex items-center gap-2 text-lg font-semibold">
        <Timer aria-hidden="true" className="h-5 w-5" /> {METRIC_DEFINITIONS.leadsWaiting.label}
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        The first to reach out usually wins the client. Log a call, text, e-mail or meeting to clear a lead from here.
      </p>
      <Definition {...METRIC_DEFINITIONS.leadsWaiting} />
      <ul className="mt-3 space-y-2">
        {leads.map((lead) => {
          const waited = now - lead.arrivedAt;
          const late = waited >= reminderMinutes * 60_000;
          return (
            <li key={lead.contactId} className="flex items-center justify-between gap-3 rounded-lg bg-white p-3 dark:bg-stone-800">
              <div className="min-w-0">
                <Link to={`/contacts/${lead.contactId}`} className="font-medium underline-offset-2 hover:underline">
                  {lead.name}
                </Link>
                <p className={`text-sm tabular-nums ${late ? "font-semibold text-red-700 dark:text-red-300" : "text-stone-600 dark:text-stone-400"}`}>
                  Waiting <time dateTime={new Date(lead.arrivedAt).toISOString()}>{waitedFor(waited)}</time>
                  {late ? ` · over ${reminderMinutes} minutes` : ""}
                </p>
              </div>
              {lead.phone ? (
                <div className="flex shrink-0 gap-2">
                  {REACH.map(({ kind, Icon, text, look }) => (
                    <ReachOutLink
                      key={kind}
                      contact={{ id: lead.contactId, name: lead.name }}
                      phone={lead.phone!}
                      kind={kind}
                      className={buttonClass(look)}
                      label={`${text} ${lead.name}`}
                    >
                      <Icon aria-hidden="true" className="h-4 w-4" />{" "}
                      <span className={kind === "text" ? "sr-only sm:not-sr-only" : undefined}>{text}</span>
                    </ReachOutLink>
                  ))}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {more > 0 ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          {more === 1 ? "1 more new lead is" : `${more.toLocaleString("en-US")} more new leads are`} waiting; the oldest are listed first, and the
          next take their place as you reach out.
        </p>
      ) : null}
    </section>
  );
}
