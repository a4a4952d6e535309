import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, PROPERTY_TYPES } from "~/db/enums";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { LEAD_IMPORT_ROWS } from "../leads";
import { LeadError } from "./LeadControls";

type Refusal = { error: string; fieldErrors: Record<string, string> } | null;

/** An owner or admin adds one lead, or imports a CSV file of them; each is distributed as the team has set. */
export function AddLeads({ errorFor, busy, className }: { errorFor: (intent: string) => Refusal; busy: boolean; className: string }) {
  return (
    <section aria-labelledby="leads-add" className={`${className} lg:col-span-2`}>
      <h2 id="leads-add" className="font-semibold">
        Add a lead
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">A new lead for the team: it is distributed as set above.</p>
      <Form method="post" aria-label="Add a lead" className="mt-2 grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="add" />
        <Field label="Name" name="name" required error={errorFor("add")?.fieldErrors.name} />
        <SelectField
          label="Source"
          name="source"
          placeholder={{ label: "Where did this lead come from?", disabled: true }}
          options={CONTACT_SOURCES.map((s) => [s, SOURCE_LABELS[s]] as const)}
          error={errorFor("add")?.fieldErrors.source}
        />
        <Field label="Phone" name="phone" type="tel" error={errorFor("add")?.fieldErrors.phone} />
        <Field label="E-mail" name="email" type="email" error={errorFor("add")?.fieldErrors.email} />
        <Field label="Property address" name="address" hint="Street, city, state and ZIP" error={errorFor("add")?.fieldErrors.address} />
        <Field label="Price ($)" name="price" inputMode="numeric" error={errorFor("add")?.fieldErrors.price} />
        <Field label="Language" name="language" error={errorFor("add")?.fieldErrors.language} />
        <SelectField
          label="Property type"
          name="propertyType"
          options={[["", "Not known"] as const, ...PROPERTY_TYPES.map((t) => [t, PROPERTY_TYPE_LABELS[t]] as const)]}
          defaultValue=""
          error={errorFor("add")?.fieldErrors.propertyType}
        />
        <div className="flex flex-col sm:col-span-2">
          <label htmlFor="lead-message" className="text-sm font-medium">
            Message
          </label>
          <textarea
            id="lead-message"
            name="message"
            rows={3}
            maxLength={10_000}
            className="mt-1 rounded-lg border border-stone-300 bg-white px-3 py-2 text-base dark:border-stone-700 dark:bg-stone-950"
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            Add lead
          </Button>
        </div>
      </Form>
      <Form
        method="post"
        encType="multipart/form-data"
        aria-label="Import leads"
        className="mt-4 flex flex-col gap-2 border-t border-stone-200 pt-4 dark:border-stone-800"
      >
        <input type="hidden" name="intent" value="import" />
        <label htmlFor="leads-file" className="text-sm font-medium">
          Or import a CSV file of leads
        </label>
        <p id="leads-file-hint" className="text-sm text-stone-600 dark:text-stone-400">
          Up to {LEAD_IMPORT_ROWS} rows, with a Name column and a phone or e-mail for each; Source and Notes columns are used too. Each lead is
          distributed as set above.
        </p>
        <input
          id="leads-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          required
          aria-describedby="leads-file-hint"
          className="min-h-12 w-full max-w-full text-base"
        />
        <LeadError error={errorFor("import")} />
        <div>
          <Button type="submit" variant="secondary" disabled={busy}>
            Import leads
          </Button>
        </div>
      </Form>
    </section>
  );
}
