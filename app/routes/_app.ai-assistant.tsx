import type { MetaFunction } from "@remix-run/cloudflare";
import { Bot } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";
import { GuideButton } from "~/modules/guides/components/GuideDialog";

export const meta: MetaFunction = () => [{ title: "AI Assistant — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function AIAssistantPage() {
  return (
    <>
      <PageHeader title="AI Assistant" description="Drafts and advice written from your own data" actions={<GuideButton page="ai-assistant" />} />
      <EmptyState icon={Bot} title="Nothing to coach on yet">
        <p>The AI coach writes follow-ups, listing descriptions and insights from your contacts and deals. Add a few and come back.</p>
      </EmptyState>
    </>
  );
}
