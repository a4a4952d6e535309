import { Form, useNavigation } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import type { EmailDeliveryFigures } from "../dead-letters.server";

interface DeadEmailView {
  id: string;
  to: string;
  subject: string;
  error: string | null;
  attempts: number;
  deadAt: number | null;
}

const figure = "rounded-xl border border-stone-200 p-3 dark:border-stone-800";

/**
 * The Monitoring tab's e-mail delivery (ADR 0056): e-mails being retried and the dead letters (out of retries), and a
 * "Send again" for each dead one. The threshold on dead e-mails in 24 hours reads the same figure.
 */
export function EmailDeliveryPanel({
  figures,
  dead,
  prefs,
  error,
}: {
  figures: EmailDeliveryFigures;
  dead: DeadEmailView[];
  prefs: DisplayPreferences;
  error: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "resend-email";
  return (
    <section
      aria-labelledby="email-delivery-heading"
      className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="email-delivery-heading" className="text-lg font-semibold">
        E-mail delivery
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Every e-mail goes through the e-mail queue. One the provider refuses is tried again up to 5 times over about 15 minutes; after the last
        refusal it is dead and listed here.
      </p>
      <dl className="mt-3 grid grid-cols-3 gap-2 sm:gap-3">
        <div className={figure}>
          <dt className="text-sm text-stone-600 dark:text-stone-400">{"Retrying, 24\u00a0h"}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{figures.retrying24h}</dd>
        </div>
        <div className={figure}>
          <dt className="text-sm text-stone-600 dark:text-stone-400">{"Dead, 24\u00a0h"}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{figures.dead24h}</dd>
        </div>
        <div className={figure}>
          <dt className="text-sm text-stone-600 dark:text-stone-400">Dead, all</dt>
          <dd className="text-2xl font-semibold tabular-nums">{figures.deadTotal}</dd>
        </div>
      </dl>
      {error ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <h3 className="mt-4 font-semibold">Dead e-mails</h3>
      {dead.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No dead e-mails.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2" aria-label="Dead e-mails">
          {dead.map((d) => (
            <li key={d.id} className="flex flex-wrap items-start justify-between gap-2 rounded-xl border border-stone-200 p-3 dark:border-stone-800">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words">{d.subject}</p>
                <p className="text-sm break-all text-stone-600 dark:text-stone-400">{`To ${d.to}`}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  {`${d.attempts} attempt${d.attempts === 1 ? "" : "s"}${d.deadAt === null ? "" : ` · dead since ${formatDateTime(d.deadAt, prefs)}`}`}
                </p>
                {d.error ? <p className="text-sm break-words text-red-700 dark:text-red-400">{`Last error: ${d.error}`}</p> : null}
              </div>
              <Form method="post">
                <input type="hidden" name="id" value={d.id} />
                <button
                  type="submit"
                  name="intent"
                  value="resend-email"
                  className={buttonClass("secondary")}
                  disabled={busy}
                  aria-label={`Send again: ${d.subject} to ${d.to}`}
                >
                  Send again
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
