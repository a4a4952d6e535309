import * as z from "zod";
import { CONTACT_SOURCES, PLAN_STEP_KINDS } from "~/db/enums";
import type { PlanStep } from "~/db/schema";

// Action plans (ADR 0072): the form's schema, the step kinds, the starters and the words. Browser-safe: the editor
// checks with the schema the server saves with.

const PLAN_LIMITS = { name: 80, steps: 30, waitDays: 365, title: 120 } as const;

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
