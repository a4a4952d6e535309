import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { SignOutEverywhere } from "./SignOutEverywhere";

interface Device {
  key: string;
  device: string;
  place: string | null;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

/** Where the account is signed in: each session's device, rough place and times; sign out one, or every one. */
export function DevicesPanel({
  devices,
  prefs,
  busy,
  className,
}: {
  devices: Device[];
  prefs: DisplayPreferences;
  busy: boolean;
  className: string;
}) {
  return (
    <section aria-labelledby="sessions-heading" className={className}>
      <h2 id="sessions-heading" className="text-lg font-semibold">
        Signed-in devices
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Where your account is signed in now. The place is approximate (from the network), and “last seen” is updated about twice a day.
      </p>
      <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800">
        {devices.map((d) => (
          <li key={d.key} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-medium">
                {d.device}
                {d.place ? <span className="font-normal text-stone-600 dark:text-stone-400"> · {d.place}</span> : null}
                {d.current ? (
                  <span className="ml-2 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-800 dark:bg-stone-800 dark:text-stone-100">
                    This device
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-stone-600 dark:text-stone-400">
                Signed in {formatDateTime(d.createdAt, prefs)} · last seen {formatDateTime(d.lastSeenAt, prefs)}
              </p>
            </div>
            {d.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="session-end" />
                <input type="hidden" name="key" value={d.key} />
                <Button
                  type="submit"
                  variant="secondary"
                  busy={busy}
                  aria-label={`Sign out ${d.device}, signed in ${formatDateTime(d.createdAt, prefs)}`}
                >
                  Sign out
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
        Lost a phone or used a shared computer? Sign out of Porchlight on every device at once, this one included.
      </p>
      <SignOutEverywhere className="mt-3" />
    </section>
  );
}
