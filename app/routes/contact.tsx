import type { ActionFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { toast } from "~/components/ui/Toaster";
import { seo } from "~/lib/seo";
import { CONTACT_INTERESTS } from "~/db/enums";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import { CONTACT_HONEYPOT, CONTACT_MESSAGES, INTEREST_LABELS } from "~/modules/marketing/contact.messages";
import { submitContact } from "~/modules/marketing/contact.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Contact",
    description: "Questions about Porchlight, the AI CRM for real estate agents, or a plan for your team? Write to us; we reply within 1 business day.",
    path: "/contact",
  });

export async function action({ request, context }: ActionFunctionArgs) {
  const result = await submitContact(context, request, Object.fromEntries(await request.formData()));
  if (result.ok) return { ok: true as const, error: null, fieldErrors: {} as Record<string, string> };
  return data({ ok: false as const, error: result.error, fieldErrors: result.fieldErrors }, { status: result.status });
}

const inputClass =
  "min-h-12 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

function Sent() {
  return (
    <section role="status" className="rounded-2xl border border-emerald-300 bg-emerald-50 p-6 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50">
      <h2 className="text-xl font-semibold">Message sent</h2>
      <p className="mt-2">Thank you. We reply within 1 business day.</p>
      <p className="mt-2">
        While you wait: setting up Porchlight takes about 10 minutes, and the free trial lasts 14 days.
      </p>
    </section>
  );
}

export default function ContactPage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState(false);
  const consentId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const errors = actionData && !actionData.ok ? actionData.fieldErrors : {};

  useEffect(() => {
    if (actionData?.ok) toast({ ...CONTACT_MESSAGES.sentToast, variant: "success" });
  }, [actionData]);

  if (actionData?.ok) {
    return (
      <MarketingPage label="Contact" title="Contact us">
        <Sent />
      </MarketingPage>
    );
  }

  return (
    <MarketingPage
      label="Contact"
      title="Contact us"
      intro={<p>Questions about Porchlight, your brokerage or a demo? Send us a note and we reply within 1 business day.</p>}
    >
      <Form
        ref={formRef}
        method="post"
        noValidate
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          if (!consent) {
            event.preventDefault();
            setConsentError(true);
            toast({ ...CONTACT_MESSAGES.consentToast, variant: "destructive" });
          }
        }}
      >
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={CONTACT_HONEYPOT}>Leave this field empty</label>
          <input id={CONTACT_HONEYPOT} name={CONTACT_HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <Field label="First name" name="firstName" autoComplete="given-name" required error={errors.firstName} />
        <Field label="Last name" name="lastName" autoComplete="family-name" required error={errors.lastName} />
        <Field label="Email" name="email" type="email" inputMode="email" autoComplete="email" required error={errors.email} />
        <Field label="Phone (optional)" name="phone" type="tel" inputMode="tel" autoComplete="tel" error={errors.phone} />
        <div className="sm:col-span-2">
          <Field label="Company (brokerage)" name="company" autoComplete="organization" required error={errors.company} />
        </div>
        <div className="sm:col-span-2">
          <FieldShell id="interest" label="I'm interested in" error={errors.interest}>
            <select name="interest" required defaultValue="" className={inputClass}>
              <option value="" disabled>
                Choose one
              </option>
              {CONTACT_INTERESTS.map((value) => (
                <option key={value} value={value}>
                  {INTEREST_LABELS[value]}
                </option>
              ))}
            </select>
          </FieldShell>
        </div>
        <div className="sm:col-span-2">
          <FieldShell id="message" label="Message" error={errors.message}>
            <textarea name="message" required rows={5} className={`${inputClass} py-2`} />
          </FieldShell>
        </div>
        <div className="sm:col-span-2">
          <div className="flex items-start gap-3">
            <input
              id={consentId}
              name="consent"
              type="checkbox"
              checked={consent}
              onChange={(event) => {
                setConsent(event.target.checked);
                if (event.target.checked) setConsentError(false);
              }}
              className="mt-1 h-5 w-5 accent-brand-700"
              aria-invalid={consentError || errors.consent ? true : undefined}
              aria-describedby={consentError || errors.consent ? `${consentId}-error` : undefined}
            />
            <label htmlFor={consentId}>I agree to be contacted by Porchlight about the product.</label>
          </div>
          {consentError || errors.consent ? (
            <p id={`${consentId}-error`} role="alert" className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
              {CONTACT_MESSAGES.consentInline}
            </p>
          ) : null}
        </div>
        {actionData && !actionData.ok && Object.keys(errors).length === 0 ? (
          <p role="alert" className="text-sm font-medium text-red-700 sm:col-span-2 dark:text-red-400">
            {actionData.error}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          {/* Looks and reads as disabled until consent is given; pressing it anyway says what is missing. */}
          <Button type="submit" busy={sending} busyLabel="Sending…" aria-disabled={!consent || undefined} className={consent ? "" : "opacity-60"}>
            Send message
          </Button>
        </div>
      </Form>
    </MarketingPage>
  );
}
