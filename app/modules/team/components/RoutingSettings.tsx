import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import type { RoutingPage } from "../routing-settings.server";
import { WEEKDAYS } from "../routing";
import { LeadError } from "./LeadControls";
import { RouteTarget } from "./RouteTarget";
import type { RoutingRefusal } from "./RoutingRules";

const CARD = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

/** Business hours with the after-hours target, the daily cap and auto-reassign: read-only for agents. */
export function RoutingSettings({ page, manages, busy, refusal }: { page: RoutingPage; manages: boolean; busy: boolean; refusal: RoutingRefusal }) {
  const s = page.settings;
  const mine = refusal?.intent === "settings" ? refusal : null;
  const errors = mine?.fieldErrors ?? {};
  const hours = s.businessHours;
  if (!manages)
    return (
      <section aria-labelledby="routing-settings" className={`${CARD} lg:col-span-2`}>
        <h2 id="routing-settings" className="font-semibold">
          Hours, cap and auto-reassign
        </h2>
        <ul className="mt-2 flex flex-col gap-1 text-sm">
          <li>
            Business hours ({page.timeZone}): {hours ? `${hours.days.map((d) => WEEKDAYS[d]).join(", ")}, ${hours.from}–${hours.to}` : "always open"}
          </li>
          <li>Daily cap: {s.dailyCap ? `${s.dailyCap} new leads per agent` : "none"}</li>
          <li>Auto-reassign: {s.reassignMinutes ? `not contacted within ${s.reassignMinutes} minutes, at most ${s.reassignMax} times` : "off"}</li>
        </ul>
      </section>
    );
  return (
    <section aria-labelledby="routing-settings" className={`${CARD} lg:col-span-2`}>
      <h2 id="routing-settings" className="font-semibold">
        Hours, cap and auto-reassign
      </h2>
      <Form method="post" aria-label="Routing settings" className="mt-2 flex flex-col gap-3">
        <input type="hidden" name="intent" value="settings" />
        <LeadError error={mine} />
        <label className="flex min-h-12 items-center gap-2">
          <input type="checkbox" name="hoursOn" defaultChecked={hours !== null} className="size-5" />
          Use business hours (on the owner's clock, {page.timeZone})
        </label>
        <fieldset>
          <legend className="text-sm font-medium">Business days</legend>
          <div className="grid grid-cols-2 sm:grid-cols-4">
            {WEEKDAYS.map((day, i) => (
              <label key={day} className="flex min-h-12 items-center gap-2">
                <input type="checkbox" name="days" value={i} defaultChecked={hours ? hours.days.includes(i) : i >= 1 && i <= 5} className="size-5" />
                {day}
              </label>
            ))}
          </div>
          {errors.days ? <p className="mt-1 text-sm text-red-700 dark:text-red-400">{errors.days}</p> : null}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Open from" name="from" type="time" defaultValue={hours?.from ?? "09:00"} error={errors.from} />
          <Field label="Open until" name="to" type="time" defaultValue={hours?.to ?? "17:00"} error={errors.to} />
        </div>
        <RouteTarget
          legend="After hours, send new leads to"
          names={{ kind: "afterHours", agent: "afterHoursAgent", group: "afterHoursGroup" }}
          members={page.members}
          value={s.afterHours ?? { kind: "pond", agents: [] }}
          errors={{ afterHours: errors.afterHours }}
        />
        <Field
          label="Daily cap per agent"
          name="dailyCap"
          inputMode="numeric"
          defaultValue={s.dailyCap === null ? "" : String(s.dailyCap)}
          hint="New leads an agent gets automatically in a day; at the cap they are skipped. Empty: no cap."
          error={errors.dailyCap}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Reassign when not contacted within (minutes)"
            name="reassignMinutes"
            inputMode="numeric"
            defaultValue={s.reassignMinutes === null ? "" : String(s.reassignMinutes)}
            hint="Empty: off."
            error={errors.reassignMinutes}
          />
          <Field
            label="Reassign at most (times)"
            name="reassignMax"
            inputMode="numeric"
            defaultValue={s.reassignMax ? String(s.reassignMax) : "1"}
            error={errors.reassignMax}
          />
        </div>
        <Button type="submit" disabled={busy}>
          Save routing settings
        </Button>
      </Form>
    </section>
  );
}
