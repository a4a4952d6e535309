import type { MetaFunction } from "@remix-run/cloudflare";
import { KanbanSquare } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";

export const meta: MetaFunction = () => [{ title: "Pipeline — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function PipelinePage() {
  return (
    <>
      <PageHeader title="Pipeline" description="Deals by stage, with commission forecasts" />
      <EmptyState icon={KanbanSquare} title="No deals yet">
        <p>Deals move through Lead, Qualified, Showing, Offer, Under Contract and Closed. Your pipeline and its commission forecast appear here.</p>
      </EmptyState>
    </>
  );
}
