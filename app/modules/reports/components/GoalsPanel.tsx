import { Form, Link } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { CONTACT_SOURCES } from "~/db/enums";
import type { DisplayPreferences } from "~/lib/format";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import type { Goals } from "../goals.server";

const amount = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2).replace(/\.00$/, ""));

/** Settings → Goals: the annual income goal, and one month's lead source costs (both feed Reports). */
export function GoalsPanel({
  goals,
  prefs,
  errors,
  busy,
  className,
}: {
  goals: Goals;
  prefs: DisplayPreferences;
  errors: (intent: "goal" | "costs") => Record<string, string>;
  busy: (intent: "goal" | "costs") => boolean;
  className: string;
}) {
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="goal-heading" className={className}>
        <h2 id="goal-heading" className="text-lg font-semibold">
          Annual income goal
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          The agent net you aim to earn in a calendar year, after splits and fees.{" "}
          <Link to="/reports#income" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
            Reports
          </Link>{" "}
          measures your year to date against it. Leave it blank for no goal.
        </p>
        <Form method="post" className="mt-4 flex max-w-md flex-col gap-4">
          <input type="hidden" name="intent" value="goal" />
          <Field
            label={`Goal (${prefs.currency})`}
            name="incomeGoalCents"
            inputMode="decimal"
            defaultValue={amount(goals.incomeGoalCents)}
            placeholder="e.g. 150,000"
            error={errors("goal").incomeGoalCents}
          />
          <Button type="submit" busy={busy("goal")} busyLabel="Saving…">
            Save income goal
          </Button>
        </Form>
      </section>

      <section aria-labelledby="costs-heading" className={className}>
        <h2 id="costs-heading" className="text-lg font-semibold">
          Lead source costs
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          What you spent on each source in a month: portal fees, ads, open-house flyers. Reports turns them into cost per lead, cost per closed deal
          and return on spend. Leave a source blank when it cost nothing you want to count.
        </p>
        <Form method="get" className="mt-4 flex flex-wrap items-end gap-2">
          <input type="hidden" name="tab" value="goals" />
          <Field label="Month" name="month" type="month" defaultValue={goals.month} required />
          <Button type="submit" variant="secondary">
            Show month
          </Button>
        </Form>
        <Form method="post" key={goals.month} className="mt-4 grid gap-4 sm:grid-cols-2">
          <input type="hidden" name="intent" value="costs" />
          <input type="hidden" name="month" value={goals.month} />
          {errors("costs").month ? (
            <p role="alert" className="text-sm font-medium text-red-700 sm:col-span-2 dark:text-red-400">
              {errors("costs").month}
            </p>
          ) : null}
          {CONTACT_SOURCES.map((source) => (
            <Field
              key={source}
              label={`${SOURCE_LABELS[source]} (${prefs.currency})`}
              name={`cost_${source}`}
              inputMode="decimal"
              defaultValue={amount(goals.costs[source])}
              error={errors("costs")[`cost_${source}`]}
            />
          ))}
          <div className="sm:col-span-2">
            <Button type="submit" busy={busy("costs")} busyLabel="Saving…">
              {`Save costs for ${new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${goals.month}-15T12:00:00Z`))}`}
            </Button>
          </div>
        </Form>
      </section>
    </div>
  );
}
