import { Form, useNavigation } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import type { DeliveryFigures } from "../queue-delivery.server";

interface DeadMessageView {
  id: string;
  to: string;
  subject: string;
  error: string | null;
  attempts: number;
  deadAt: number | null;
  /** The account database it is in (ADR 0060). */
  shard: number;
}

interface ChannelView {
  figures: DeliveryFigures;
  dead: DeadMessageView[];
}

const figure = "rounded-xl border border-stone-200 p-3 dark:border-stone-800";

/** What each outgoing queue is called and how its dead letters read; e-mail alone can be sent again. */
const CHANNELS = {
  email: {
    title: "E-mail",
    intro:
      "Every e-mail goes through the e-mail queue. One the provider refuses is tried again up to 5 times over about 15 minutes; after the last refusal it is dead and listed here.",
    deadTitle: "Dead e-mails",
    none: "No dead e-mails.",
    to: (to: string) => `To ${to}`,
    resendIntent: "resend-email",
  },
  push: {
    title: "Push notifications",
    intro:
      "New-lead alerts and reminders go through the push queue. A device whose push service refuses is tried again up to 5 times over about 15 minutes (a device that took it is not sent it again); after the last refusal the message is dead and listed here.",
    deadTitle: "Dead push messages",
    none: "No dead push messages.",
    to: (to: string) => `To the devices of ${to}`,
    resendIntent: null,
  },
} as const;

/**
 * The Monitoring tab's outgoing messages (ADR 0056): per queue, the messages being retried and the dead letters (out
 * of retries); a dead e-mail can be sent again (a lead alert is about that moment, so a dead push is only listed).
 * The thresholds on dead messages in 24 hours read the same figures.
 */
export function OutgoingMessagesPanel({
  email,
  push,
  prefs,
  error,
}: {
  email: ChannelView;
  push: ChannelView;
  prefs: DisplayPreferences;
  error: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "resend-email";
  const channels = [
    ["email", email],
    ["push", push],
  ] as const;
  return (
    <section
      aria-labelledby="outgoing-messages-heading"
      className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="outgoing-messages-heading" className="text-lg font-semibold">
        Outgoing messages
      </h2>
      {error ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {channels.map(([key, view]) => {
        const channel = CHANNELS[key];
        return (
          <section key={key} aria-labelledby={`${key}-delivery-heading`} className="mt-4">
            <h3 id={`${key}-delivery-heading`} className="font-semibold">
              {channel.title}
            </h3>
            <p className="text-sm text-stone-600 dark:text-stone-400">{channel.intro}</p>
            <dl className="mt-3 grid grid-cols-3 gap-2 sm:gap-3">
              <div className={figure}>
                <dt className="text-sm text-stone-600 dark:text-stone-400">{"Retrying, 24\u00a0h"}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{view.figures.retrying24h}</dd>
              </div>
              <div className={figure}>
                <dt className="text-sm text-stone-600 dark:text-stone-400">{"Dead, 24\u00a0h"}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{view.figures.dead24h}</dd>
              </div>
              <div className={figure}>
                <dt className="text-sm text-stone-600 dark:text-stone-400">Dead, all</dt>
                <dd className="text-2xl font-semibold tabular-nums">{view.figures.deadTotal}</dd>
              </div>
            </dl>
            <h4 className="mt-3 text-sm font-semibold">{channel.deadTitle}</h4>
            {view.dead.length === 0 ? (
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{channel.none}</p>
            ) : (
              <ul className="mt-2 flex flex-col gap-2" aria-label={channel.deadTitle}>
                {view.dead.map((d) => (
                  <li
                    key={`${d.shard}-${d.id}`}
                    className="flex flex-wrap items-start justify-between gap-2 rounded-xl border border-stone-200 p-3 dark:border-stone-800"
                  >
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-words">{d.subject}</p>
                      <p className="text-sm break-all text-stone-600 dark:text-stone-400">{channel.to(d.to)}</p>
                      <p className="text-sm text-stone-600 dark:text-stone-400">
                        {`${d.attempts} attempt${d.attempts === 1 ? "" : "s"}${d.deadAt === null ? "" : ` · dead since ${formatDateTime(d.deadAt, prefs)}`}`}
                      </p>
                      {d.error ? <p className="text-sm break-words text-red-700 dark:text-red-400">{`Last error: ${d.error}`}</p> : null}
                    </div>
                    {channel.resendIntent ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={d.id} />
                        <input type="hidden" name="shard" value={d.shard} />
                        <button
                          type="submit"
                          name="intent"
                          value={channel.resendIntent}
                          className={buttonClass("secondary")}
                          disabled={busy}
                          aria-label={`Send again: ${d.subject} to ${d.to}`}
                        >
                          Send again
                        </button>
                      </Form>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </section>
  );
}
