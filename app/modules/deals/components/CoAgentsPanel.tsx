import { useFetcher } from "@remix-run/react";
import { Users } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";

export interface CoAgentsData {
  coAgents: { agentId: string; name: string; sharePct: number }[];
  candidates: { userId: string; name: string }[];
}

type Reply = { ok: boolean; fieldErrors?: Record<string, string> };

/** The deal's agent shares the deal with teammates: each co-agent's share of the side. */
export function CoAgentsPanel({ dealId, sharing, className }: { dealId: string; sharing: CoAgentsData; className: string }) {
  const adder = useFetcher<Reply>();
  const remover = useFetcher<Reply>();
  const form = useRef<HTMLFormElement>(null);
  const errors = adder.data && !adder.data.ok ? (adder.data.fieldErrors ?? {}) : {};
  useEffect(() => {
    if (adder.state === "idle" && adder.data?.ok) form.current?.reset();
  }, [adder.state, adder.data]);
  const kept = 100 - sharing.coAgents.reduce((sum, c) => sum + c.sharePct, 0);
  return (
    <section aria-labelledby="deal-co-agents" className={className}>
      <h2 id="deal-co-agents" className="flex items-center gap-2 font-semibold">
        <Users aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" /> Co-agents
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Share this deal with teammates. Each gets their share of the side before their own split and cap, and sees the deal on their Pipeline. You
        keep {Number(kept.toFixed(3))}%.
      </p>
      {sharing.coAgents.length > 0 ? (
        <ul className="mt-3 flex flex-col gap-2 text-sm">
          {sharing.coAgents.map((c) => (
            <li key={c.agentId} className="flex items-center justify-between gap-2">
              <span>
                <span className="font-medium">{c.name}</span> · {c.sharePct}% of the side
              </span>
              <remover.Form method="post" action={`/deals/${dealId}`}>
                <input type="hidden" name="intent" value="unshare" />
                <input type="hidden" name="agent" value={c.agentId} />
                <Button type="submit" variant="ghost" disabled={remover.state !== "idle"} aria-label={`Remove ${c.name} from this deal`}>
                  Remove
                </Button>
              </remover.Form>
            </li>
          ))}
        </ul>
      ) : null}
      {sharing.candidates.length > 0 ? (
        <adder.Form
          ref={form}
          method="post"
          action={`/deals/${dealId}`}
          className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-[minmax(0,1fr)_10rem_auto] sm:items-end"
        >
          <input type="hidden" name="intent" value="share" />
          <SelectField
            label="Teammate"
            name="agent"
            options={sharing.candidates.map((c) => [c.userId, c.name] as const)}
            placeholder={{ label: "Choose a teammate" }}
            error={errors.agent}
          />
          <Field label="Share of the side (%)" name="sharePct" inputMode="decimal" error={errors.sharePct} />
          <Button type="submit" disabled={adder.state !== "idle"}>
            Add co-agent
          </Button>
        </adder.Form>
      ) : (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">Every teammate shares this deal already.</p>
      )}
    </section>
  );
}
