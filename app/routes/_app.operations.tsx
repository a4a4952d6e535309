import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/lib/format";
import { requireAdmin } from "~/modules/auth/guards.server";
import { probeStorage, recentCronRuns } from "~/modules/ops/health.server";

export const meta: MetaFunction = () => [{ title: "Operations Center — Porchlight" }];

/** Admin only. Shows what the product measures today: live storage probes and the scheduler's runs. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const [storage, runs] = await Promise.all([probeStorage(context.cloudflare.env), recentCronRuns(context.db)]);
  return { probes: { D1: storage.d1, KV: storage.kv }, runs };
}

export default function OperationsPage() {
  const { probes, runs } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Operations Center" description="Live probes taken while this page loaded, and the scheduler's recent runs." />
      <section aria-labelledby="probes" className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900">
        <h2 id="probes" className="text-lg font-semibold">
          Storage probes
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-4">
          {Object.entries(probes).map(([name, probe]) => (
            <div key={name}>
              <dt className="text-sm text-stone-600 dark:text-stone-400">{name}</dt>
              <dd className="text-lg font-semibold">{probe.ok ? `OK · ${probe.ms} ms` : `Failing · ${probe.ms} ms`}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="runs" className="mt-6 rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900">
        <h2 id="runs" className="text-lg font-semibold">
          Scheduled jobs
        </h2>
        {runs.length === 0 ? (
          <p className="mt-2 text-stone-600 dark:text-stone-400">The scheduler has not run yet.</p>
        ) : (
          <table className="mt-3 w-full text-left text-sm">
            <thead>
              <tr className="text-stone-600 dark:text-stone-400">
                <th scope="col" className="py-1">Job</th>
                <th scope="col" className="py-1">Started</th>
                <th scope="col" className="py-1">Status</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id} className="border-t border-stone-200 dark:border-stone-800">
                  <td className="py-2">{run.job}</td>
                  <td className="py-2">{formatDateTime(run.startedAt)}</td>
                  <td className="py-2">{run.status}{run.detail ? ` · ${run.detail}` : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
