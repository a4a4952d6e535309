import type { SerializeFrom } from "@remix-run/cloudflare";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { statusIncidents } from "~/db/schema";
import { buttonClass } from "~/components/ui/Button";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { STATUS_COMPONENTS } from "../status";

type Incident = SerializeFrom<typeof statusIncidents.$inferSelect>;
const field = "mt-1 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 dark:border-stone-700 dark:bg-stone-950";

/** Post a note to the public status page, and resolve the ones that are over. */
export function IncidentsPanel({ incidents, prefs, error }: { incidents: Incident[]; prefs: DisplayPreferences; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && String(navigation.formData?.get("intent") ?? "").includes("incident");
  return (
    <section aria-labelledby="incidents-heading" className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <h2 id="incidents-heading" className="text-lg font-semibold">
        Status page incidents
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        What you post here shows on the public{" "}
        <Link to="/status" className="underline underline-offset-4">
          status page
        </Link>{" "}
        until you resolve it (and for 14 days after).
      </p>
      {incidents.length > 0 ? (
        <ul className="mt-3 flex flex-col gap-2">
          {incidents.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-stone-200 p-3 dark:border-stone-800">
              <div>
                <p className="font-medium">{`${i.title} · ${STATUS_COMPONENTS.find((c) => c.id === i.component)?.label ?? i.component}`}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">{`Posted ${formatDateTime(i.openedAt, prefs)}${i.resolvedAt === null ? "" : ` · resolved ${formatDateTime(i.resolvedAt, prefs)}`}`}</p>
              </div>
              {i.resolvedAt === null ? (
                <Form method="post">
                  <input type="hidden" name="id" value={i.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="resolve-incident"
                    className={buttonClass("secondary")}
                    disabled={busy}
                    aria-label={`Resolve: ${i.title}`}
                  >
                    Resolve
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" className="mt-4 grid gap-3 sm:grid-cols-2">
        <label className="text-sm font-medium">
          Part affected
          <select name="component" className={field} required defaultValue="app">
            {STATUS_COMPONENTS.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium">
          Title
          <input name="title" className={field} required minLength={3} maxLength={120} placeholder="Sign-in is slow" />
        </label>
        <label className="text-sm font-medium sm:col-span-2">
          Note (optional)
          <textarea name="body" className={field} rows={2} maxLength={2000} />
        </label>
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-700 sm:col-span-2 dark:text-red-400">
            {error}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          <button type="submit" name="intent" value="incident" className={buttonClass("primary")} disabled={busy}>
            Post incident
          </button>
        </div>
      </Form>
    </section>
  );
}
