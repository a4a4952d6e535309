import type { EngineId } from "~/modules/ai/draft-types";
import type { AiQaCategory } from "~/modules/ai/eval/rubric";

// What the AI QA suite streams to its page, and how the page sums it up (shared by the server and the browser).

/** The spec's answer-time targets: 2.5 s at the median, 5 s at the 90th percentile. */
export const AI_TARGETS = { p50Ms: 2_500, p90Ms: 5_000 } as const;

export interface AiResultEvent {
  type: "result";
  category: AiQaCategory;
  id: string;
  about: string;
  status: "passed" | "failed";
  details: string;
  engine: EngineId | null;
  ms: number;
}
export type AiQaEvent =
  | { type: "start"; runId: string; total: number }
  | AiResultEvent
  | { type: "done"; runId: string; passed: number; total: number };

/** The p-th percentile (nearest rank) of some durations; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
