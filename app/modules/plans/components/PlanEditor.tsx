import { Form, Link, useNavigation } from "@remix-run/react";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField, choices } from "~/components/ui/SelectField";
import { CONTACT_SOURCES, PLAN_STEP_KINDS, type ContactSource, type PlanStepKind, type TemplateKind } from "~/db/enums";
import type { PlanStep } from "~/db/schema";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { PLAN_LIMITS, planErrors, planFromForm, PlanSchema, STEP_KIND_LABELS, stepDays } from "../plan";

export interface PlanDraft {
  name: string;
  steps: PlanStep[];
  startSource: ContactSource | null;
  startStage: string | null;
  stopStages: string[];
}

type StepRow = { key: string; kind: PlanStepKind; waitDays: string; templateId: string; title: string };

const templateKindOf = (kind: PlanStepKind): TemplateKind | null => (kind === "call_task" ? null : kind === "text_task" ? "text" : "email");

// Keys count up from the plan's steps (the same on the server and in the browser, so ids hydrate).
const row = (step: Partial<PlanStep>, key: number): StepRow => ({
  key: `step-${key}`,
  kind: step.kind ?? "email",
  waitDays: String(step.waitDays ?? 0),
  templateId: step.templateId ?? "",
  title: step.title ?? "",
});

const iconButton =
  "inline-flex h-11 w-11 items-center justify-center rounded-lg border border-stone-300 bg-white text-stone-800 hover:bg-stone-100 disabled:opacity-40 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100 dark:hover:bg-stone-800";

/**
 * A plan's form: its name, its steps in order (each a kind, a wait, a template or what the task says; added, removed and
 * moved with buttons that keep the keyboard's place), and what starts and stops it on its own. Checked with the schema
 * the server saves with before it is sent.
 */
export function PlanEditor({
  plan,
  templates,
  stages,
  errors: serverErrors,
  className,
}: {
  plan: PlanDraft | null;
  templates: { id: string; kind: TemplateKind; name: string }[];
  stages: { key: string; name: string }[];
  errors: Record<string, string>;
  className: string;
}) {
  const id = useId();
  const [steps, setSteps] = useState<StepRow[]>(() => (plan?.steps.length ? plan.steps : [{}]).map((step, i) => row(step, i)));
  const keys = useRef(steps.length);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const errors = clientErrors ?? serverErrors;
  const focusNext = useRef<string[] | null>(null);
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const days = stepDays(steps.map((s) => ({ waitDays: Math.max(0, Math.trunc(Number(s.waitDays)) || 0) })));

  // After a step is added or moved, the keyboard stays where the agent was (the first of the ids that can take focus).
  useEffect(() => {
    const ids = focusNext.current;
    focusNext.current = null;
    for (const target of ids ?? []) {
      const element = document.getElementById(target) as HTMLButtonElement | HTMLSelectElement | null;
      if (element && !element.disabled) return element.focus();
    }
  }, [steps]);

  const update = (key: string, change: Partial<StepRow>) => setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...change } : s)));
  const move = (index: number, by: -1 | 1) => {
    const key = steps[index]!.key;
    focusNext.current = [`${id}-${key}-${by < 0 ? "up" : "down"}`, `${id}-${key}-${by < 0 ? "down" : "up"}`];
    setSteps((all) => {
      const next = [...all];
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });
  };
  const remove = (index: number) => {
    focusNext.current = [`${id}-add`];
    setSteps((all) => all.filter((_, i) => i !== index));
  };
  const add = () => {
    const added = row({ kind: "call_task", waitDays: 1 }, keys.current++);
    focusNext.current = [`${id}-${added.key}-kind`];
    setSteps((all) => [...all, added]);
  };

  return (
    <Form
      method="post"
      className={`${className} flex flex-col gap-5`}
      aria-label="Action plan"
      noValidate
      onSubmit={(event) => {
        const parsed = PlanSchema.safeParse(planFromForm(new FormData(event.currentTarget)));
        setClientErrors(parsed.success ? null : planErrors(parsed.error));
        if (!parsed.success) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="save" />
      <Field label="Name" name="name" defaultValue={plan?.name ?? ""} maxLength={PLAN_LIMITS.name} required error={errors.name} />

      <section aria-labelledby={`${id}-steps`} className="flex flex-col gap-3">
        <h2 id={`${id}-steps`} className="text-lg font-semibold">
          Steps
        </h2>
        {errors.steps ? <p className="text-sm font-medium text-red-700 dark:text-red-400">{errors.steps}</p> : null}
        <ol className="flex flex-col gap-3">
          {steps.map((step, i) => (
            <StepFields
              key={step.key}
              idPrefix={`${id}-${step.key}`}
              step={step}
              index={i}
              count={steps.length}
              day={days[i]!}
              templates={templates}
              error={errors[`steps.${i}`]}
              onChange={(change) => update(step.key, change)}
              onMove={(by) => move(i, by)}
              onRemove={() => remove(i)}
            />
          ))}
        </ol>
        <div>
          <Button type="button" id={`${id}-add`} variant="secondary" onClick={add} disabled={steps.length >= PLAN_LIMITS.steps}>
            <Plus aria-hidden="true" className="h-5 w-5" /> Add a step
          </Button>
        </div>
      </section>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-lg font-semibold">Start on its own</legend>
        <p className="text-sm text-stone-600 dark:text-stone-400">You can always start a plan by hand from a contact's page.</p>
        <div className="grid gap-3 md:grid-cols-2">
          <SelectField
            label="For each new lead from"
            name="startSource"
            defaultValue={plan?.startSource ?? ""}
            placeholder={{ label: "No source" }}
            options={choices(CONTACT_SOURCES, SOURCE_LABELS)}
          />
          <SelectField
            label="When a deal enters"
            name="startStage"
            defaultValue={plan?.startStage ?? ""}
            placeholder={{ label: "No stage" }}
            options={stages.map((s) => [s.key, s.name] as const)}
          />
        </div>
      </fieldset>

      <fieldset>
        <legend className="mb-1 text-lg font-semibold">Stop when a deal enters</legend>
        <p className="mb-2 text-sm text-stone-600 dark:text-stone-400">
          A plan also stops when the contact replies, unsubscribes or their e-mail bounces.
        </p>
        <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
          {stages.map((s) => (
            <label key={s.key} className="flex min-h-11 items-center gap-2">
              <input type="checkbox" name="stopStages" value={s.key} defaultChecked={plan?.stopStages.includes(s.key)} className="h-5 w-5" />
              {s.name}
            </label>
          ))}
        </div>
      </fieldset>

      {/* The form's own refusal, or (checked here before sending) the first field's sentence, read out. */}
      {errors.form || clientErrors ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {errors.form ?? Object.values(errors)[0]}
        </p>
      ) : null}
      <div>
        <Button type="submit" busy={saving}>
          {plan ? "Save plan" : "Create plan"}
        </Button>
      </div>
    </Form>
  );
}

/** One step's fields, named `steps[i][…]` in the order shown, with its day from the start and buttons to move it. */
function StepFields({
  idPrefix,
  step,
  index,
  count,
  day,
  templates,
  error,
  onChange,
  onMove,
  onRemove,
}: {
  idPrefix: string;
  step: StepRow;
  index: number;
  count: number;
  day: number;
  templates: { id: string; kind: TemplateKind; name: string }[];
  error: string | undefined;
  onChange: (change: Partial<StepRow>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const name = (field: string) => `steps[${index}][${field}]`;
  const templateKind = templateKindOf(step.kind);
  const usable = templateKind ? templates.filter((t) => t.kind === templateKind) : [];
  return (
    <li
      className={`rounded-xl border p-3 ${error ? "border-red-600 dark:border-red-400" : "border-stone-200 dark:border-stone-700"}`}
      aria-labelledby={`${idPrefix}-heading`}
      aria-describedby={error ? `${idPrefix}-error` : undefined}
    >
      <div className="mb-2 flex items-center gap-2">
        <h3 id={`${idPrefix}-heading`} className="flex-1 font-semibold">
          {`Step ${n} `}
          <span className="whitespace-nowrap font-normal text-stone-600 dark:text-stone-400">{`· Day ${day}`}</span>
        </h3>
        <button
          type="button"
          id={`${idPrefix}-up`}
          className={iconButton}
          onClick={() => onMove(-1)}
          disabled={index === 0}
          aria-label={`Move step ${n} up`}
        >
          <ArrowUp aria-hidden="true" className="h-5 w-5" />
        </button>
        <button
          type="button"
          id={`${idPrefix}-down`}
          className={iconButton}
          onClick={() => onMove(1)}
          disabled={index === count - 1}
          aria-label={`Move step ${n} down`}
        >
          <ArrowDown aria-hidden="true" className="h-5 w-5" />
        </button>
        <button type="button" className={iconButton} onClick={onRemove} disabled={count === 1} aria-label={`Remove step ${n}`}>
          <Trash2 aria-hidden="true" className="h-5 w-5" />
        </button>
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <SelectField
          id={`${idPrefix}-kind`}
          label="What happens"
          name={name("kind")}
          value={step.kind}
          onChange={(e) => {
            const kind = e.target.value as PlanStepKind;
            const keep = templates.some((t) => t.id === step.templateId && t.kind === templateKindOf(kind));
            onChange({ kind, templateId: keep ? step.templateId : "" });
          }}
          options={choices(PLAN_STEP_KINDS, STEP_KIND_LABELS)}
        />
        <Field
          label={index === 0 ? "Days after the start" : "Days after the previous step"}
          name={name("waitDays")}
          type="number"
          inputMode="numeric"
          min={0}
          max={PLAN_LIMITS.waitDays}
          value={step.waitDays}
          onChange={(e) => onChange({ waitDays: e.target.value })}
        />
        {templateKind ? (
          usable.length > 0 ? (
            <SelectField
              label={templateKind === "email" ? "E-mail template" : "Text template"}
              name={name("templateId")}
              value={step.templateId}
              onChange={(e) => onChange({ templateId: e.target.value })}
              placeholder={{ label: templateKind === "email" ? "Choose a template" : "None: the task says what to text" }}
              options={usable.map((t) => [t.id, t.name] as const)}
            />
          ) : (
            <p className="self-end text-sm text-stone-700 dark:text-stone-300">
              You have no {templateKind === "email" ? "e-mail" : "text"} templates yet.{" "}
              <Link
                to={templateKind === "email" ? "/templates/new" : "/templates/new?kind=text"}
                className="font-medium text-brand-800 underline underline-offset-2 dark:text-brand-300"
              >
                Write one
              </Link>
            </p>
          )
        ) : null}
        {step.kind === "call_task" || step.kind === "text_task" ? (
          <Field
            label="What the task says"
            name={name("title")}
            value={step.title}
            onChange={(e) => onChange({ title: e.target.value })}
            maxLength={PLAN_LIMITS.title}
            placeholder={step.kind === "call_task" ? "Call about their home search" : "Text to check in"}
          />
        ) : null}
      </div>
      {error ? (
        <p id={`${idPrefix}-error`} className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
