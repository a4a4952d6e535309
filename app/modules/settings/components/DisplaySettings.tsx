import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { ThemePicker } from "~/components/ui/ThemePicker";
import { CURRENCIES } from "~/db/enums";
import { formatDate, formatMoney, formatTime, type DisplayPreferences } from "~/lib/format";
import { DisplayPreferencesSchema } from "../preferences.schema";
import { COMMON_TIMEZONES } from "../timezones";

function Select({ label, name, value, options, error }: { label: string; name: string; value: string; options: [string, string][]; error?: string }) {
  return <SelectField id={name} label={label} name={name} defaultValue={value} options={options} error={error} />;
}

const PREFERENCE_KEYS = ["dateFormat", "timeFormat", "timezone", "currency"] as const;

/** The display fields as currently chosen in the form (before saving), for the live example. */
function draftPreferences(form: HTMLFormElement, saved: DisplayPreferences): DisplayPreferences {
  const parsed = DisplayPreferencesSchema.safeParse(Object.fromEntries(new FormData(form)));
  return parsed.success ? parsed.data : saved;
}

/** Settings → Account → Display: date, time, timezone and currency, with a live example, and the theme. */
export function DisplaySettings({
  prefs,
  now,
  errors,
  busy,
  className,
}: {
  prefs: DisplayPreferences;
  now: number;
  errors: Record<string, string>;
  busy: boolean;
  className: string;
}) {
  // The example follows the fields as the agent changes them; saving (new loader data) starts over from the saved values.
  const [draft, setDraft] = useState<DisplayPreferences | null>(null);
  useEffect(() => setDraft(null), [prefs]);
  const shown = draft ?? prefs;
  const timezones = COMMON_TIMEZONES.includes(prefs.timezone) ? COMMON_TIMEZONES : [prefs.timezone, ...COMMON_TIMEZONES];
  return (
    <section aria-labelledby="display-heading" className={className}>
      <h2 id="display-heading" className="text-lg font-semibold">
        Display
      </h2>
      <p data-testid="display-example" aria-live="polite" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Example: {formatDate(now, shown)}, {formatTime(now, shown)}, {formatMoney(650000, shown)}
        {draft && PREFERENCE_KEYS.some((key) => draft[key] !== prefs[key]) ? " (not saved yet)" : ""}
      </p>
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" onChange={(event) => setDraft(draftPreferences(event.currentTarget, prefs))}>
        <input type="hidden" name="intent" value="preferences" />
        <Select
          label="Date format"
          name="dateFormat"
          value={prefs.dateFormat}
          options={[
            ["US", "US (Nov 22, 2026)"],
            ["EU", "EU (22/11/26)"],
          ]}
          error={errors.dateFormat}
        />
        <Select
          label="Time format"
          name="timeFormat"
          value={prefs.timeFormat}
          options={[
            ["12h", "12-hour (3:05 PM)"],
            ["24h", "24-hour (15:05)"],
          ]}
          error={errors.timeFormat}
        />
        <Select
          label="Timezone"
          name="timezone"
          value={prefs.timezone}
          options={timezones.map((tz) => [tz, tz.replace(/_/g, " ")])}
          error={errors.timezone}
        />
        <Select label="Currency" name="currency" value={prefs.currency} options={CURRENCIES.map((c) => [c, c])} error={errors.currency} />
        <div className="sm:col-span-2">
          <Button type="submit" busy={busy} busyLabel="Saving…">
            Save display settings
          </Button>
        </div>
      </Form>
      <div className="mt-6 max-w-sm border-t border-stone-200 pt-4 dark:border-stone-800">
        <ThemePicker />
      </div>
    </section>
  );
}
