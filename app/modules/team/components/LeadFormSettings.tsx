import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/Button";

/** The team's public lead form (ADR 0040): its address, a new address, or off. For the owner and admins. */
export function LeadFormSettings({ leadFormUrl, busy, className }: { leadFormUrl: string | null; busy: boolean; className: string }) {
  return (
    <section aria-labelledby="leads-form" className={`${className} lg:col-span-2`}>
      <h2 id="leads-form" className="font-semibold">
        Website lead form
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        A page anyone can fill in, with your team&apos;s name on it: link to it from your website, listings and social profiles. Each enquiry arrives
        here as a website lead and is distributed as set above. A new address stops the old one from working.
      </p>
      {leadFormUrl ? (
        <p className="mt-2 text-sm [overflow-wrap:anywhere]">
          <span className="font-medium">Address: </span>
          <a href={leadFormUrl} target="_blank" rel="noreferrer" className="underline">
            {leadFormUrl}
          </a>
        </p>
      ) : (
        <p className="mt-2 text-sm font-medium">The form is off.</p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="form-on" />
          <Button type="submit" variant="secondary" disabled={busy}>
            {leadFormUrl ? "Give it a new address" : "Turn the form on"}
          </Button>
        </Form>
        {leadFormUrl ? (
          <Form method="post">
            <input type="hidden" name="intent" value="form-off" />
            <Button type="submit" variant="ghost" disabled={busy}>
              Turn the form off
            </Button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
