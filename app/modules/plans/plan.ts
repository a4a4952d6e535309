import * as z from "zod";
import { CONTACT_SOURCES, PLAN_STEP_KINDS, type ContactSource, type PlanStepKind } from "~/db/enums";
import type { PlanStep } from "~/db/schema";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";

// Action plans (ADR 0072): the form's schema, the step kinds, the starters and the words. Browser-safe: the editor
// checks with the schema the server saves with.

export const PLAN_LIMITS = { name: 80, steps: 30, waitDays: 365, title: 120 } as const;

export const PLAN_MESSAGES = {
  name: "Give the plan a name.",
  nameLong: `Keep the name to ${PLAN_LIMITS.name} characters.`,
  steps: "Add at least one step.",
  tooManySteps: `A plan has at most ${PLAN_LIMITS.steps} steps.`,
  waitDays: `Wait a whole number of days, from 0 to ${PLAN_LIMITS.waitDays}.`,
  template: (n: number) => `Step ${n}: choose an e-mail template.`,
  textTemplate: (n: number) => `Step ${n}: choose a text template, or write what the task says.`,
  title: (n: number) => `Step ${n}: say what the task is.`,
  unknownTemplate: (n: number) => `Step ${n}: that template is gone or is not yours.`,
  saved: "Plan saved",
  created: "Plan created",
  deleted: (name: string) => `“${name}” deleted: contacts on it stop where they are`,
  notFound: "That plan is gone or is not yours.",
  started: (plan: string, name: string) => `${name} is on “${plan}”`,
  alreadyOn: (plan: string, name: string) => `${name} is already on “${plan}”.`,
  noContact: "That contact is gone or is not yours.",
  paused: "Plan paused: nothing is sent until you resume it",
  resumed: "Plan resumed: the next step keeps the wait it had left",
  stopped: "Plan stopped",
  runGone: "That plan is no longer running for this contact.",
  starters: (count: number) => (count === 0 ? "You already have every starter plan" : `${count} starter plans added, with the templates they use`),
} as const;

const optionalId = z
  .string()
  .max(64)
  .nullish()
  .transform((v) => v || null);

const PlanStepSchema = z.object({
  kind: z.enum(PLAN_STEP_KINDS),
  waitDays: z.coerce
    .number(PLAN_MESSAGES.waitDays)
    .int(PLAN_MESSAGES.waitDays)
    .min(0, PLAN_MESSAGES.waitDays)
    .max(PLAN_LIMITS.waitDays, PLAN_MESSAGES.waitDays),
  templateId: optionalId,
  title: z
    .string()
    .trim()
    .max(PLAN_LIMITS.title)
    .nullish()
    .transform((v) => v || null),
});

export const PlanSchema = z
  .object({
    name: z.string().trim().min(1, PLAN_MESSAGES.name).max(PLAN_LIMITS.name, PLAN_MESSAGES.nameLong),
    steps: z.array(PlanStepSchema).min(1, PLAN_MESSAGES.steps).max(PLAN_LIMITS.steps, PLAN_MESSAGES.tooManySteps),
    startSource: z
      .enum(CONTACT_SOURCES)
      .nullish()
      .transform((v) => v ?? null),
    startStage: z
      .string()
      .regex(/^[a-z0-9_]{1,40}$/)
      .nullish()
      .transform((v) => v || null),
    stopStages: z
      .array(z.string().regex(/^[a-z0-9_]{1,40}$/))
      .max(20)
      .default([]),
  })
  .superRefine((plan, ctx) => {
    plan.steps.forEach((step, i) => {
      const n = i + 1;
      if ((step.kind === "email" || step.kind === "review_email") && !step.templateId)
        ctx.addIssue({ code: "custom", path: ["steps", i], message: PLAN_MESSAGES.template(n) });
      if (step.kind === "text_task" && !step.templateId && !step.title)
        ctx.addIssue({ code: "custom", path: ["steps", i], message: PLAN_MESSAGES.textTemplate(n) });
      if (step.kind === "call_task" && !step.title) ctx.addIssue({ code: "custom", path: ["steps", i], message: PLAN_MESSAGES.title(n) });
    });
  });
export type PlanInput = z.infer<typeof PlanSchema>;

const STEP_FIELDS = ["kind", "waitDays", "templateId", "title"] as const;
const STEP_FIELD = /^steps\[(\d{1,3})\]\[(kind|waitDays|templateId|title)\]$/;

/**
 * The plan form's fields as PlanSchema reads them: `steps[0][kind]`, `steps[0][waitDays]`… in index order (gaps
 * closed), the start selects (blank: none) and the checked stop stages. The editor checks with it before posting.
 */
export function planFromForm(form: FormData): unknown {
  const steps = new Map<number, Record<string, string>>();
  for (const [key, value] of form) {
    const match = STEP_FIELD.exec(key);
    if (!match || typeof value !== "string") continue;
    const index = Number(match[1]);
    steps.set(index, { ...steps.get(index), [match[2]!]: value });
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value !== "" ? value : null;
  };
  return {
    name: text("name") ?? "",
    steps: [...steps.keys()].sort((a, b) => a - b).map((i) => Object.fromEntries(STEP_FIELDS.map((f) => [f, steps.get(i)![f] ?? null]))),
    startSource: text("startSource"),
    startStage: text("startStage"),
    stopStages: form.getAll("stopStages").filter((v): v is string => typeof v === "string"),
  };
}

/** Each refusal's sentence for the form: `name`, `steps` (the list), `steps.2` (the third step), or `form`. */
export function planErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const [field, index] = issue.path;
    const key = field === "steps" && typeof index === "number" ? `steps.${index}` : field === "name" || field === "steps" ? field : "form";
    errors[key] ??= key.startsWith("steps.") && issue.path.length > 2 ? `Step ${Number(index) + 1}: ${issue.message}` : issue.message;
  }
  return errors;
}

export const STEP_KIND_LABELS: Record<PlanStepKind, string> = {
  email: "Send an e-mail",
  review_email: "E-mail to review and send (a task)",
  call_task: "Call (a task)",
  text_task: "Text (a task, from your phone)",
};

/** A step in a sentence ("next: Call"). */
export const STEP_SHORT_LABELS: Record<PlanStepKind, string> = {
  email: "E-mail",
  review_email: "E-mail to review",
  call_task: "Call",
  text_task: "Text",
};

/** A step's day from the start: the waits before it and its own, added up. */
export function stepDays(steps: readonly Pick<PlanStep, "waitDays">[]): number[] {
  let day = 0;
  return steps.map((s) => (day += s.waitDays));
}

/** What starts a plan on its own, in words: "New Zillow leads", "Deal enters Closed Won", both, or "By hand". */
export function planStartLabel(plan: { startSource: ContactSource | null; startStage: string | null }, stageName: (key: string) => string): string {
  const parts = [
    plan.startSource ? `New ${SOURCE_LABELS[plan.startSource]} leads` : null,
    plan.startStage ? `${plan.startSource ? "deal" : "Deal"} enters ${stageName(plan.startStage)}` : null,
  ].filter(Boolean);
  return parts.length === 0 ? "By hand" : parts.join("; ");
}

/** A starter's step names its template by the starter template's key. */
type StarterStep = Omit<PlanStep, "templateId"> & { template?: string };
export interface StarterPlan {
  key: string;
  name: string;
  steps: StarterStep[];
  startStage?: string;
  stopStages: string[];
}

const LEAD_STOPS = ["under_contract", "closed_won", "closed_lost"];

/** Plans a new agent can start from (their e-mails are the starter templates, added with them). */
export const STARTER_PLANS: readonly StarterPlan[] = [
  {
    key: "new-buyer-lead",
    name: "New buyer lead (14 days)",
    stopStages: LEAD_STOPS,
    steps: [
      { kind: "email", waitDays: 0, template: "new-buyer-lead" },
      { kind: "call_task", waitDays: 1, title: "Call about their home search" },
      { kind: "text_task", waitDays: 2, template: "new-lead-text" },
      { kind: "call_task", waitDays: 4, title: "Second call: still looking? What's changed?" },
      { kind: "email", waitDays: 7, template: "checking-in" },
    ],
  },
  {
    key: "new-seller-lead",
    name: "New seller lead (10 days)",
    stopStages: LEAD_STOPS,
    steps: [
      { kind: "email", waitDays: 0, template: "new-seller-lead" },
      { kind: "call_task", waitDays: 1, title: "Call to set up the walk-through" },
      { kind: "call_task", waitDays: 3, title: "Follow up: walk-through and pricing" },
      { kind: "email", waitDays: 6, template: "checking-in" },
    ],
  },
  {
    key: "nurture",
    name: "Nurture (monthly for a year)",
    stopStages: LEAD_STOPS,
    steps: Array.from({ length: 12 }, () => ({ kind: "email" as const, waitDays: 30, template: "checking-in" })),
  },
  {
    key: "after-closing",
    name: "After closing",
    startStage: "closed_won",
    stopStages: [],
    steps: [
      { kind: "call_task", waitDays: 3, title: "Call: how is the move going?" },
      { kind: "email", waitDays: 87, template: "checking-in" },
      { kind: "review_email", waitDays: 275, template: "closing-anniversary" },
    ],
  },
];
