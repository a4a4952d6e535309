import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Lightbulb } from "lucide-react";
import { useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { ScrollToTop } from "~/components/ui/ScrollToTop";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { loadAssistant } from "~/modules/ai/assistant.server";
import { CoachCard } from "~/modules/ai/components/CoachCard";
import { DraftResult } from "~/modules/ai/components/DraftResult";
import { ENGINE_LABELS, isQuickTask } from "~/modules/ai/draft-types";
import { useGeneration, type GenerationRequest } from "~/modules/ai/use-generation";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { InsightList } from "~/modules/insights/components/InsightList";
import { CommandPaletteButton } from "~/modules/palette/components/CommandPaletteButton";

export const meta: MetaFunction = () => [{ title: "AI Assistant — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return loadAssistant(context, user.id, { contactId: new URL(request.url).searchParams.get("contact") });
}

export default function AIAssistantPage() {
  const { insights, today, nowTime, timezone, agent, contact: linked, engine, quota } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const quick = params.get("quick");
  const { state, run } = useGeneration();
  const [variant, setVariant] = useState(0);
  const [used, setUsed] = useState(quota.used);

  function start(request: Omit<GenerationRequest, "variant">, next = 0) {
    setVariant(next);
    setUsed((n) => n + 1);
    void run({ ...request, variant: next });
  }

  return (
    <>
      <PageHeader title="AI Assistant" description="Drafts and advice written from your own data" actions={<GuideButton page="ai-assistant" />} />
      <div data-tour="ai-assistant" className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section
          aria-labelledby="insights-heading"
          className="rounded-2xl border border-stone-200 bg-white p-4 lg:row-span-2 dark:border-stone-800 dark:bg-stone-900"
        >
          <h2 id="insights-heading" className="flex items-center gap-2 text-lg font-semibold">
            <Lightbulb aria-hidden="true" className="h-5 w-5 text-amber-600 dark:text-amber-400" /> Smart Insights
          </h2>
          <p className="mb-3 mt-1 text-sm text-stone-600 dark:text-stone-400">What needs you now, from your contacts and deals, most urgent first.</p>
          <InsightList
            insights={insights}
            empty="Nothing needs you right now: no hot lead has gone quiet, no deal is slipping and nothing closes in the next 15 days."
          />
        </section>
        <div className="flex min-w-0 flex-col gap-4">
          <CoachCard
            running={state.status === "running"}
            initialContact={linked}
            initialLocation={params.get("location") ?? agent.market ?? ""}
            autoRun={isQuickTask(quick) ? quick : null}
            onRun={(request) => start(request)}
          />
          <DraftResult
            state={state}
            today={today}
            nowTime={nowTime}
            timezone={timezone}
            onRegenerate={() => state.request && start(state.request, variant + 1)}
          />
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Written by {ENGINE_LABELS[engine]}
            {engine === "offline"
              ? " from your own data (no AI model is configured on this server)"
              : ", falling back to the offline drafter if it does not answer"}
            . {Math.max(0, quota.limit - used)} of {quota.limit} drafts left today.
            {!agent.name || !agent.brokerage ? (
              <>
                {" "}
                <Link to="/settings#agent-profile" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
                  Add your name and brokerage
                </Link>{" "}
                so drafts are signed properly.
              </>
            ) : null}
          </p>
        </div>
      </div>
      <CommandPaletteButton floating />
      <ScrollToTop className="bottom-24 left-4 md:bottom-8 md:left-60" />
    </>
  );
}
