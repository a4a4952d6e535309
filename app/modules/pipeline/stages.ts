import * as z from "zod";
import type { DealStage } from "~/db/schema";

// The pipeline's stages (decisions.md "Pipeline"): pure rules shared by the browser and the server.

export const DEFAULT_STAGES: readonly DealStage[] = [
  { key: "lead", name: "Lead", color: "#64748b", probability: 10, kind: "open" },
  { key: "qualified", name: "Qualified", color: "#0ea5e9", probability: 25, kind: "open" },
  { key: "showing", name: "Showing", color: "#8b5cf6", probability: 40, kind: "open" },
  { key: "offer", name: "Offer", color: "#f59e0b", probability: 60, kind: "open" },
  { key: "under_contract", name: "Under Contract", color: "#10b981", probability: 90, kind: "open" },
  { key: "closed_won", name: "Closed Won", color: "#15803d", probability: 100, kind: "won" },
  { key: "closed_lost", name: "Closed Lost", color: "#b91c1c", probability: 0, kind: "lost" },
];

export const MAX_STAGES = 20;

export const STAGE_MESSAGES = {
  nameRequired: "Give the stage a name.",
  nameTaken: "Another stage already has that name.",
  color: "Pick a colour.",
  probability: "Probability is a whole number from 0 to 100.",
  tooMany: `A pipeline has at most ${MAX_STAGES} stages.`,
  oneWonOneLost: "Keep one Closed Won stage and one Closed Lost stage.",
  openNeeded: "Keep at least one open stage.",
  notEmpty: (n: number) => `Move this stage's ${n === 1 ? "deal" : `${n} deals`} to another stage first.`,
} as const;

const StageSchema = z.object({
  key: z.string().regex(/^[a-z0-9_]{1,40}$/),
  name: z.string().trim().min(1, STAGE_MESSAGES.nameRequired).max(40),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, STAGE_MESSAGES.color)
    .transform((c) => c.toLowerCase()),
  probability: z.coerce
    .number({ error: STAGE_MESSAGES.probability })
    .int(STAGE_MESSAGES.probability)
    .min(0, STAGE_MESSAGES.probability)
    .max(100, STAGE_MESSAGES.probability),
  kind: z.enum(["open", "won", "lost"]),
});

/** A whole pipeline: names unique (ignoring case), exactly one won and one lost stage, at least one open. */
export const StagesSchema = z
  .array(StageSchema)
  .max(MAX_STAGES, STAGE_MESSAGES.tooMany)
  .superRefine((stages, ctx) => {
    const names = new Set<string>();
    stages.forEach((stage, index) => {
      const name = stage.name.toLowerCase();
      if (names.has(name)) ctx.addIssue({ code: "custom", message: STAGE_MESSAGES.nameTaken, path: [index, "name"] });
      names.add(name);
    });
    if (new Set(stages.map((s) => s.key)).size !== stages.length) ctx.addIssue({ code: "custom", message: "Stage keys must be unique." });
    if (stages.filter((s) => s.kind === "won").length !== 1 || stages.filter((s) => s.kind === "lost").length !== 1) {
      ctx.addIssue({ code: "custom", message: STAGE_MESSAGES.oneWonOneLost });
    }
    if (!stages.some((s) => s.kind === "open")) ctx.addIssue({ code: "custom", message: STAGE_MESSAGES.openNeeded });
  });

/** The stored stages if they are a valid pipeline, else the defaults (a damaged row never breaks the page). */
export function readStages(stored: unknown): DealStage[] {
  const parsed = StagesSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_STAGES.map((s) => ({ ...s }));
}

export function stageByKey(stages: readonly DealStage[], key: string): DealStage | undefined {
  return stages.find((s) => s.key === key);
}

/** A key for a new stage, from its name, unique among `taken`. */
export function newStageKey(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 30) || "stage";
  let key = base;
  for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
  return key;
}
