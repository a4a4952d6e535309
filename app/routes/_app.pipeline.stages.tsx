import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { ArrowDown, ArrowLeft, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import type { DealStage } from "~/db/schema";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { MAX_STAGES, newStageKey, STAGE_MESSAGES } from "~/modules/pipeline/stages";
import { dealCountsByStage, getStages, saveStages } from "~/modules/pipeline/stages.server";
import type { ActionResult } from "~/lib/action-result";
import { readJson } from "~/lib/body.server";

export const meta: MetaFunction = () => [{ title: "Stage settings — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const [stages, counts] = await Promise.all([getStages(context, user.id), dealCountsByStage(context, user.id)]);
  return { stages, counts };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const body = (await readJson(request)) as { stages?: unknown } | null;
  const result = await saveStages(context, user.id, body?.stages);
  if (!result.ok) return data<ActionResult>({ ok: false, intent: "stages", error: result.error, fieldErrors: {} }, { status: 400 });
  return data<ActionResult<{ stages: DealStage[] }>>({ ok: true, intent: "stages", stages: result.stages });
}

const KIND_NOTE: Record<DealStage["kind"], string> = {
  open: "Open: forecast by probability.",
  won: "Won: counts as closed business and toward your cap.",
  lost: "Lost: leaves the forecast; moving here asks why.",
};

export default function StageSettings() {
  const { stages: saved, counts } = useLoaderData<typeof loader>();
  const [stages, setStages] = useState<DealStage[]>(saved);
  const save = useFetcher<typeof action>();
  const headings = useRef<(HTMLInputElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => setStages(saved), [saved]);
  useEffect(() => {
    if (focusIndex !== null) headings.current[focusIndex]?.focus();
    setFocusIndex(null);
  }, [focusIndex]);

  useFetcherResult(save, (result) => {
    if (result.ok) toast({ title: "Stages saved", variant: "success" });
    else toast({ title: "Stages not saved", description: result.error, variant: "destructive" });
  });

  const update = (index: number, patch: Partial<DealStage>) => setStages((list) => list.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  const swap = (index: number, by: -1 | 1) =>
    setStages((list) => {
      const next = [...list];
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });
  const dirty = JSON.stringify(stages) !== JSON.stringify(saved);

  return (
    <>
      <Link to="/pipeline" className="mb-3 inline-flex min-h-11 items-center gap-2 font-medium underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-5 w-5" /> Back to pipeline
      </Link>
      <PageHeader title="Stage settings" description="Name, colour, default probability and order of your pipeline's stages." />
      <ol className="flex flex-col gap-3">
        {stages.map((stage, index) => {
          const deals = counts[stage.key] ?? 0;
          const fixed = stage.kind !== "open";
          return (
            <li key={stage.key} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
              <fieldset className="grid grid-cols-[1fr_auto] gap-3 sm:grid-cols-[1fr_7rem_7rem_auto]">
                <legend className="sr-only">Stage {index + 1}</legend>
                <label className="flex flex-col gap-1 text-sm font-medium">
                  Name
                  <input
                    ref={(el) => {
                      headings.current[index] = el;
                    }}
                    value={stage.name}
                    maxLength={40}
                    onChange={(event) => update(index, { name: event.target.value })}
                    className="min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base font-normal dark:border-stone-700 dark:bg-stone-950"
                  />
                </label>
                <label className="flex flex-col gap-1 text-sm font-medium">
                  Colour
                  <input
                    type="color"
                    value={stage.color}
                    onChange={(event) => update(index, { color: event.target.value })}
                    className="h-12 w-full rounded-lg border border-stone-300 bg-white p-1 dark:border-stone-700 dark:bg-stone-950"
                  />
                </label>
                <label className="flex flex-col gap-1 text-sm font-medium">
                  Probability (%)
                  <input
                    inputMode="numeric"
                    value={String(stage.probability)}
                    onChange={(event) =>
                      update(index, { probability: event.target.value === "" ? 0 : Number(event.target.value.replace(/\D/g, "")) })
                    }
                    className="min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base font-normal dark:border-stone-700 dark:bg-stone-950"
                  />
                </label>
                <div className="col-span-2 flex items-end gap-1 sm:col-span-1">
                  <button
                    type="button"
                    aria-label={`Move ${stage.name} up`}
                    disabled={index === 0}
                    onClick={() => (swap(index, -1), setFocusIndex(index - 1))}
                    className="inline-flex h-12 w-12 items-center justify-center rounded-lg border border-stone-300 disabled:opacity-40 dark:border-stone-700"
                  >
                    <ArrowUp aria-hidden="true" className="h-5 w-5" />
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${stage.name} down`}
                    disabled={index === stages.length - 1}
                    onClick={() => (swap(index, 1), setFocusIndex(index + 1))}
                    className="inline-flex h-12 w-12 items-center justify-center rounded-lg border border-stone-300 disabled:opacity-40 dark:border-stone-700"
                  >
                    <ArrowDown aria-hidden="true" className="h-5 w-5" />
                  </button>
                  {!fixed ? (
                    <button
                      type="button"
                      aria-label={`Delete ${stage.name}`}
                      aria-disabled={deals > 0 || undefined}
                      onClick={() => {
                        if (deals > 0)
                          return toast({ title: `${stage.name} has deals`, description: STAGE_MESSAGES.notEmpty(deals), variant: "destructive" });
                        setStages((list) => list.filter((_, i) => i !== index));
                      }}
                      className="inline-flex h-12 w-12 items-center justify-center rounded-lg border border-stone-300 text-red-700 aria-disabled:opacity-40 dark:border-stone-700 dark:text-red-400"
                    >
                      <Trash2 aria-hidden="true" className="h-5 w-5" />
                    </button>
                  ) : null}
                </div>
              </fieldset>
              <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
                {KIND_NOTE[stage.kind]} {deals === 0 ? "No deals." : `${deals} ${deals === 1 ? "deal" : "deals"}.`}
                {deals > 0 && !fixed ? " Move them to another stage before deleting it." : ""}
              </p>
            </li>
          );
        })}
      </ol>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          type="button"
          variant="secondary"
          disabled={stages.length >= MAX_STAGES}
          onClick={() => {
            // New stages go before the closed ones, where open work lives.
            const at = stages.findIndex((s) => s.kind !== "open");
            const name = "New stage";
            const stage: DealStage = {
              key: newStageKey(
                name,
                stages.map((s) => s.key),
              ),
              name: stages.some((s) => s.name === name) ? `${name} ${stages.length + 1}` : name,
              color: "#6366f1",
              probability: 50,
              kind: "open",
            };
            setStages((list) => [...list.slice(0, at), stage, ...list.slice(at)]);
            setFocusIndex(at);
          }}
        >
          <Plus aria-hidden="true" className="h-5 w-5" /> Add stage
        </Button>
        <Button
          type="button"
          busy={save.state !== "idle"}
          busyLabel="Saving…"
          disabled={!dirty}
          onClick={() => save.submit({ stages } as never, { method: "post", encType: "application/json" })}
        >
          Save stages
        </Button>
        {dirty ? (
          <Button type="button" variant="ghost" onClick={() => setStages(saved)}>
            Discard changes
          </Button>
        ) : null}
      </div>
    </>
  );
}
