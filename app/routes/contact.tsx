import type { ActionFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { ConsentCheckbox } from "~/components/ui/ConsentCheckbox";
import { choices, SelectField } from "~/components/ui/SelectField";
import { useNonce } from "~/components/ui/nonce";
import { StaticToast } from "~/components/ui/Toaster";
import { CONTACT_INTERESTS } from "~/db/enums";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import enhanceScript from "~/modules/marketing/contact-form.inline.js?raw";
import { CONTACT_HONEYPOT, CONTACT_MESSAGES, INTEREST_LABELS } from "~/modules/marketing/contact.messages";
import { submitContact } from "~/modules/marketing/contact.server";
import { readForm } from "~/lib/body.server";

// Served without React (ADR 0011): the form posts natively, the server answers with the confirmation or
// with the form filled in again, and a small inline script adds the consent check and sending state.
export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Contact",
    description:
      "Questions about Porchlight, the AI CRM for real estate agents, or a plan for your team? Write to us; we reply within 1 business day.",
    path: "/contact",
  });

const FIELDS = ["firstName", "lastName", "email", "phone", "company", "interest", "message", "consent"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const input = Object.fromEntries(await readForm(request));
  const result = await submitContact(context, request, input);
  if (result.ok)
    return { ok: true as const, intent: "contact", error: null, fieldErrors: {} as Record<string, string>, values: {} as Record<string, string> };
  // Failure keeps the form filled (spec section 4): the page is rendered again with what was sent.
  const values = Object.fromEntries(FIELDS.map((name) => [name, typeof input[name] === "string" ? (input[name] as string) : ""]));
  return data({ ok: false as const, intent: "contact", error: result.error, fieldErrors: result.fieldErrors, values }, { status: result.status });
}

const inputClass =
  "min-h-12 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

function Sent() {
  return (
    <section
      role="status"
      className="rounded-2xl border border-emerald-300 bg-emerald-50 p-6 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50"
    >
      <h2 className="text-xl font-semibold">Message sent</h2>
      <p className="mt-2">Thank you. We reply within 1 business day.</p>
      <p className="mt-2">While you wait: setting up Porchlight takes about 10 minutes, and the free trial lasts 14 days.</p>
    </section>
  );
}

export default function ContactPage() {
  const actionData = useActionData<typeof action>();
  const nonce = useNonce();

  if (actionData?.ok) {
    return (
      <MarketingPage label="Contact" title="Contact us">
        <Sent />
        <StaticToast toast={{ id: "contact-sent", ...CONTACT_MESSAGES.sentToast, variant: "success" }} />
      </MarketingPage>
    );
  }

  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const consentError = Boolean(errors.consent);
  return (
    <MarketingPage
      label="Contact"
      title="Contact us"
      intro={<p>Questions about Porchlight, your brokerage or a demo? Send us a note and we reply within 1 business day.</p>}
    >
      <Form method="post" noValidate data-contact-form="" className="grid gap-4 sm:grid-cols-2">
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={CONTACT_HONEYPOT}>Leave this field empty</label>
          <input id={CONTACT_HONEYPOT} name={CONTACT_HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <Field label="First name" name="firstName" autoComplete="given-name" required defaultValue={values.firstName} error={errors.firstName} />
        <Field label="Last name" name="lastName" autoComplete="family-name" required defaultValue={values.lastName} error={errors.lastName} />
        <Field
          label="Email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          defaultValue={values.email}
          error={errors.email}
        />
        <Field label="Phone (optional)" name="phone" type="tel" inputMode="tel" autoComplete="tel" defaultValue={values.phone} error={errors.phone} />
        <div className="sm:col-span-2">
          <Field
            label="Company (brokerage)"
            name="company"
            autoComplete="organization"
            required
            defaultValue={values.company}
            error={errors.company}
          />
        </div>
        <div className="sm:col-span-2">
          <SelectField
            id="interest"
            name="interest"
            label="I'm interested in"
            options={choices(CONTACT_INTERESTS, INTEREST_LABELS)}
            defaultValue={values.interest ?? ""}
            placeholder={{ label: "Choose one", disabled: true }}
            error={errors.interest}
          />
        </div>
        <div className="sm:col-span-2">
          <FieldShell id="message" label="Message" error={errors.message}>
            <textarea name="message" required rows={5} defaultValue={values.message} className={`${inputClass} py-2`} />
          </FieldShell>
        </div>
        <div className="sm:col-span-2">
          <ConsentCheckbox
            label="I agree to be contacted by Porchlight about the product."
            message={CONTACT_MESSAGES.consentInline}
            shown={consentError}
            defaultChecked={values.consent === "on"}
          />
        </div>
        {actionData && !actionData.ok && !consentError && Object.keys(errors).length === 0 ? (
          <p role="alert" className="text-sm font-medium text-red-700 sm:col-span-2 dark:text-red-400">
            {actionData.error}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          {/* The inline script makes it read as disabled until consent is given; pressing it anyway says what is missing.
              Without script it stays a plain submit button and the server asks for consent. */}
          <button type="submit" data-busy-label="Sending…" className={buttonClass("primary")}>
            Send message
          </button>
        </div>
      </Form>
      <div id="consent-toast" hidden={!consentError}>
        <StaticToast toast={{ id: "consent", ...CONTACT_MESSAGES.consentToast, variant: "destructive" }} />
      </div>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: enhanceScript }} />
    </MarketingPage>
  );
}
