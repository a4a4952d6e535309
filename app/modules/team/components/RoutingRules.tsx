import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, PROPERTY_TYPES } from "~/db/enums";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import type { RoutingPage } from "../routing-settings.server";
import { LeadError } from "./LeadControls";
import { RouteTarget } from "./RouteTarget";

export type RoutingRefusal = { intent: string; rule: string; error: string; fieldErrors: Record<string, string> } | null;

type Rule = RoutingPage["rules"][number];
const CARD = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

/** The form of a rule: add (no rule) or edit. Conditions are all optional; a target is required. */
function RuleForm({ page, rule, busy, refusal }: { page: RoutingPage; rule: Rule | null; busy: boolean; refusal: RoutingRefusal }) {
  const mine = refusal && refusal.intent === "rule-save" && refusal.rule === (rule?.id ?? "") ? refusal : null;
  const errors = mine?.fieldErrors ?? {};
  const f = rule?.form;
  return (
    <Form method="post" aria-label={rule ? `Edit rule ${rule.number}` : "Add a rule"} className="mt-2 flex flex-col gap-3">
      <input type="hidden" name="intent" value="rule-save" />
      <input type="hidden" name="rule" value={rule?.id ?? ""} />
      <LeadError error={mine} />
      <fieldset>
        <legend className="text-sm font-medium">Sources (none: any source)</legend>
        <div className="grid grid-cols-1 sm:grid-cols-2">
          {CONTACT_SOURCES.map((s) => (
            <label key={s} className="flex min-h-12 items-center gap-2">
              <input type="checkbox" name="sources" value={s} defaultChecked={f?.sources.includes(s)} className="size-5" />
              {SOURCE_LABELS[s]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Lowest price ($)" name="minPrice" inputMode="numeric" defaultValue={f?.minPrice} error={errors.minPrice} />
        <Field label="Highest price ($)" name="maxPrice" inputMode="numeric" defaultValue={f?.maxPrice} error={errors.maxPrice} />
      </div>
      <Field
        label="Areas"
        name="areas"
        defaultValue={f?.areas}
        hint="Cities or ZIP codes, separated by commas, matched against the lead's property address."
        error={errors.areas}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Language" name="language" defaultValue={f?.language} hint="Leads with no language never match." error={errors.language} />
        <SelectField
          label="Property type"
          name="propertyType"
          options={[["", "Any type"] as const, ...PROPERTY_TYPES.map((t) => [t, PROPERTY_TYPE_LABELS[t]] as const)]}
          defaultValue={f?.propertyType ?? ""}
          error={errors.propertyType}
        />
      </div>
      <RouteTarget
        legend="Send matching leads to"
        names={{ kind: "target", agent: "agent", group: "group" }}
        members={page.members}
        value={f?.target ?? null}
        errors={{ target: errors.target }}
      />
      <Button type="submit" disabled={busy}>
        {rule ? "Save rule" : "Add rule"}
      </Button>
    </Form>
  );
}

/** The rules in order (first match wins), with move up/down, edit and delete for the owner and admins. */
export function RoutingRules({ page, manages, busy, refusal }: { page: RoutingPage; manages: boolean; busy: boolean; refusal: RoutingRefusal }) {
  const button = (intent: string, rule: Rule, label: string, text: string, disabled = false) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="rule" value={rule.id} />
      <Button type="submit" variant="ghost" disabled={busy || disabled} aria-label={label}>
        {text}
      </Button>
    </Form>
  );
  return (
    <section aria-labelledby="routing-rules" className={`${CARD} lg:col-span-2`}>
      <h2 id="routing-rules" className="font-semibold">
        Routing rules
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Checked in order: the first rule a new lead matches sends it. Paused agents and agents at their daily cap are skipped.
      </p>
      {page.rules.length === 0 ? (
        <p className="mt-2 text-sm">No rule yet: every lead goes by the team's distribution.</p>
      ) : (
        <ol aria-label="Rules in order" className="mt-2 flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
          {page.rules.map((rule, i) => (
            <li key={rule.id} aria-label={`Rule ${rule.number}`} className="flex flex-col gap-2 py-3">
              <p className="min-w-0 [overflow-wrap:anywhere]">
                <span className="font-medium">Rule {rule.number}:</span> {rule.conditions} → {rule.target}
              </p>
              {refusal && refusal.intent !== "rule-save" && refusal.rule === rule.id ? <LeadError error={refusal} /> : null}
              {manages ? (
                <div className="flex flex-wrap gap-2">
                  {button("rule-up", rule, `Move rule ${rule.number} up`, "Move up", i === 0)}
                  {button("rule-down", rule, `Move rule ${rule.number} down`, "Move down", i === page.rules.length - 1)}
                  {button("rule-delete", rule, `Delete rule ${rule.number}`, "Delete")}
                  <details className="w-full">
                    <summary className="min-h-12 cursor-pointer py-3 font-medium underline-offset-2 hover:underline">Edit rule {rule.number}</summary>
                    <RuleForm page={page} rule={rule} busy={busy} refusal={refusal} />
                  </details>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {manages ? (
        <details className="mt-3" open={refusal?.intent === "rule-save" && refusal.rule === ""}>
          <summary className="min-h-12 cursor-pointer py-3 font-medium">Add a rule</summary>
          <RuleForm page={page} rule={null} busy={busy} refusal={refusal} />
        </details>
      ) : null}
    </section>
  );
}
