import type { MetaFunction } from "@remix-run/cloudflare";
import { CircleCheckBig } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Tasks — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function TasksPage() {
  return (
    <>
      <PageHeader title="Tasks" description="Follow-ups, showings and deadlines" />
      <EmptyState icon={CircleCheckBig} title="No tasks yet">
        <p>Tasks and calendar events you create will be listed here by due date.</p>
      </EmptyState>
    </>
  );
}
