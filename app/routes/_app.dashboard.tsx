import type { MetaFunction } from "@remix-run/cloudflare";
import { LayoutDashboard } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Dashboard — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="Your command center" />
      <EmptyState icon={LayoutDashboard} title="Your dashboard fills in as you work">
        <p>Quick stats, pipeline overview, recent activity and task reminders appear here once you have contacts, deals and tasks. Nothing is shown until there is real data to show.</p>
      </EmptyState>
    </>
  );
}
