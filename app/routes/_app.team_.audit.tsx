import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Download } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { AuditList } from "~/modules/audit/components/AuditList";
import { loadTeamAudit } from "~/modules/audit/team-audit.server";

export const meta: MetaFunction = () => [{ title: "Audit log — Porchlight" }];

// The team's audit log (ADR 0073): who did what to whom, from where, newest first, for the owner and admins (404 to
// agents and to anyone outside the team). Filter by group and member, 50 a page, the same rows as CSV.

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadTeamAudit(request, context);
}

export default function TeamAuditPage() {
  const { teamName, filter, groups, members, lines, next, first, query, timezone } = useLoaderData<typeof loader>();
  const withQuery = (extra: Record<string, string>) => `?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(query)), ...extra })}`;
  return (
    <>
      <PageHeader
        title="Audit log"
        description={`${teamName} · kept for a year · times in ${timezone}`}
        actions={
          <a href={`/team/audit.csv${query ? `?${query}` : ""}`} className={buttonClass("secondary")} download>
            <Download aria-hidden="true" className="h-5 w-5" />
            Download CSV
          </a>
        }
      />
      <Form method="get" className="mb-4 flex flex-col gap-3 md:flex-row md:items-end">
        <SelectField
          label="What"
          name="group"
          defaultValue={filter.group ?? ""}
          options={[["", "Everything"], ...groups.map((g) => [g.key, g.label] as const)]}
        />
        <SelectField
          label="Member"
          name="member"
          defaultValue={filter.member ?? ""}
          options={[["", "Everyone"], ...members.map((m) => [m.id, m.name] as const)]}
        />
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </Form>
      <AuditList
        lines={lines}
        label="Audit log, newest first"
        nextHref={next ? withQuery({ after: next }) : null}
        firstHref={first ? `?${query}` : null}
        empty="Nothing recorded for this filter yet."
      />
      <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
        <Link to="/team" className="underline">
          Back to the team
        </Link>
      </p>
    </>
  );
}
