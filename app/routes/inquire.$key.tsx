import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { FieldShell } from "~/components/ui/FieldShell";
import { ConsentCheckbox } from "~/components/ui/ConsentCheckbox";
import { readForm } from "~/lib/body.server";
import { STATIC_PAGE } from "~/lib/seo";
import { LEAD_FORM_HONEYPOT } from "~/modules/team/lead-form";
import { leadFormTeam, submitLeadForm } from "~/modules/team/lead-form.server";

// A team's public lead form (ADR 0040): anyone with the address writes to the team; the enquiry becomes a
// team lead, distributed as the team's mode says. No sign-in, no JavaScript (a static page: the form posts natively
// and the server answers with the thanks, or the form filled in again with what to fix). Unknown, rotated or switched
// off addresses, and teams whose plan has lapsed, are not found.
export const handle = STATIC_PAGE;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: loaded ? `Contact ${loaded.teamName}` : "Not found" },
  { name: "robots", content: "noindex" },
];

// The address is the form's secret: never kept in a cache (the site's Referrer-Policy already keeps the path from
// other sites).
const HEADERS = { "Cache-Control": "no-store" };
export const headers: HeadersFunction = () => HEADERS;

async function teamAt(context: LoaderFunctionArgs["context"], key: string | undefined) {
  const team = key ? await leadFormTeam(context, key) : null;
  if (!team) throw new Response("Not Found", { status: 404, headers: HEADERS });
  return team;
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const team = await teamAt(context, params.key);
  return data({ teamName: team.teamName }, { headers: HEADERS });
}

const FIELDS = ["name", "phone", "email", "message", "consent"] as const;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const team = await teamAt(context, params.key);
  const form = await readForm(request);
  const result = await submitLeadForm(context, request, team, form);
  if (result.ok)
    return data(
      { ok: true as const, intent: "inquire", error: null, fieldErrors: {} as Record<string, string>, values: {} as Record<string, string> },
      { headers: HEADERS },
    );
  const values = Object.fromEntries(FIELDS.map((name) => [name, typeof form.get(name) === "string" ? (form.get(name) as string) : ""]));
  return data(
    { ok: false as const, intent: "inquire", error: result.error, fieldErrors: result.fieldErrors, values },
    { status: result.status, headers: HEADERS },
  );
}

const inputClass =
  "min-h-12 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

export default function TeamLeadForm() {
  const { teamName } = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>();
  const errors = sent && !sent.ok ? sent.fieldErrors : {};
  const values = sent && !sent.ok ? sent.values : {};
  const consentError = errors.consent;
  return (
    <div className="flex min-h-dvh flex-col">
      <main id="main" className="mx-auto w-full max-w-lg flex-1 px-4 py-10">
        <h1 className="text-3xl font-bold">Contact {teamName}</h1>
        {sent?.ok ? (
          <section
            role="status"
            className="mt-6 rounded-2xl border border-emerald-300 bg-emerald-50 p-6 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50"
          >
            <h2 className="text-xl font-semibold">Message sent</h2>
            <p className="mt-2">{`Thank you. ${teamName} has your message, and an agent will contact you.`}</p>
          </section>
        ) : (
          <>
            <p className="mt-2 text-stone-600 dark:text-stone-400">
              Looking to buy, sell or rent? Leave your details and an agent of {teamName} will contact you.
            </p>
            <Form method="post" noValidate className="mt-6 flex flex-col gap-4" aria-label={`Contact ${teamName}`}>
              <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
                <label htmlFor={LEAD_FORM_HONEYPOT}>Leave this field empty</label>
                <input id={LEAD_FORM_HONEYPOT} name={LEAD_FORM_HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
              </div>
              <Field label="Name" name="name" autoComplete="name" required maxLength={200} defaultValue={values.name} error={errors.name} />
              <Field
                label="Phone"
                name="phone"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                maxLength={40}
                defaultValue={values.phone}
                error={errors.phone}
              />
              <Field
                label="Email"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                maxLength={254}
                defaultValue={values.email}
                error={errors.email}
              />
              <p className="-mt-2 text-sm text-stone-600 dark:text-stone-400">A phone number or an e-mail address, or both.</p>
              <FieldShell id="message" label="What are you looking for? (optional)" error={errors.message}>
                <textarea name="message" rows={4} maxLength={2000} defaultValue={values.message} className={`${inputClass} py-2`} />
              </FieldShell>
              <ConsentCheckbox
                label={`I agree to be contacted by ${teamName} about my enquiry.`}
                message={consentError ?? ""}
                shown={Boolean(consentError)}
                defaultChecked={values.consent === "on"}
              />
              {sent && !sent.ok && Object.keys(errors).length === 0 ? (
                <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
                  {sent.error}
                </p>
              ) : null}
              <button type="submit" className={buttonClass("primary")}>
                Send
              </button>
            </Form>
          </>
        )}
      </main>
      <footer className="mx-auto w-full max-w-lg px-4 pb-8 text-sm text-stone-600 dark:text-stone-400">
        Sent securely through Porchlight, the CRM {teamName} uses, to {teamName}&apos;s agents. Porchlight&apos;s{" "}
        <Link to="/privacy" className="underline">
          privacy policy
        </Link>{" "}
        says how your details are kept.
      </footer>
    </div>
  );
}
