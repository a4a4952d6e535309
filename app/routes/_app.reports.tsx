import type { MetaFunction } from "@remix-run/cloudflare";
import { ChartColumn } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";
import { GuideButton } from "~/modules/guides/components/GuideDialog";

export const meta: MetaFunction = () => [{ title: "Reports — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function ReportsPage() {
  return (
    <>
      <PageHeader title="Reports" description="Your numbers, from your own data" actions={<GuideButton page="reports" />} />
      <EmptyState icon={ChartColumn} title="No data to report yet">
        <p>Reports are computed from your contacts, deals and closed commissions, so they appear once those exist.</p>
      </EmptyState>
    </>
  );
}
