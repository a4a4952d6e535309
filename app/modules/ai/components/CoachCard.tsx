import { BarChart3, CalendarRange, FileText, MailPlus, ShieldAlert, Sparkles } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { ContactPicker } from "~/modules/deals/components/ContactPicker";
import { DRAFT_TONE_LABELS, DRAFT_TONES, LISTING_FACT_LIMITS, MLS_LIMITS, type DraftTone, type ListingFacts, type QuickTask } from "../draft-types";
import type { GenerationRequest } from "../use-generation";

const QUICK_ACTIONS = [
  { task: "follow_up", label: "Follow-up for a hot lead", icon: MailPlus },
  { task: "listing", label: "Listing description", icon: FileText },
  { task: "market", label: "Market insight", icon: BarChart3 },
  { task: "deal_review", label: "At-risk deals review", icon: ShieldAlert },
  { task: "week_plan", label: "This week's plan", icon: CalendarRange },
] as const satisfies readonly { task: QuickTask; label: string; icon: unknown }[];

/** The listing quick action's fact fields: label, bounds and step (the server's schema holds the same bounds). */
const FACT_FIELDS = [
  { key: "bedrooms", label: "Bedrooms", min: 0, step: 1, inputMode: "numeric", hint: "0 for a studio" },
  { key: "bathrooms", label: "Bathrooms", min: 0, step: 0.5, inputMode: "decimal", hint: "2.5 for two and a half" },
  { key: "squareFeet", label: "Square feet", min: 1, step: 1, inputMode: "numeric", hint: null },
  { key: "price", label: "List price", min: 1, step: 1, inputMode: "numeric", hint: "Whole amount, no symbols" },
] as const satisfies readonly { key: keyof ListingFacts; label: string; min: number; step: number; inputMode: string; hint: string | null }[];
type FactInputs = Record<keyof ListingFacts, string>;
const NO_FACTS: FactInputs = { bedrooms: "", bathrooms: "", squareFeet: "", price: "" };
/** An empty field is "not given"; the browser's number input hands over "" for anything it cannot read. */
const toFacts = (inputs: FactInputs): ListingFacts => {
  const read = (value: string) => (value.trim() === "" ? null : Number(value));
  return { bedrooms: read(inputs.bedrooms), bathrooms: read(inputs.bathrooms), squareFeet: read(inputs.squareFeet), price: read(inputs.price) };
};

const INPUT =
  "w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-base text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100";

/**
 * The AI Coach card (spec section 2): quick actions, the options they use (contact, tone, listing features,
 * MLS limit, location) and the free text box with Get AI Advice. Runs nothing itself: `onRun` does.
 */
export function CoachCard({
  running,
  initialContact,
  initialLocation,
  autoRun,
  onRun,
}: {
  running: boolean;
  initialContact: { id: string; name: string } | null;
  initialLocation: string;
  /** A quick action to run as the page opens (from ?quick= in links and the command palette). */
  autoRun: QuickTask | null;
  onRun: (request: Omit<GenerationRequest, "variant">) => void;
}) {
  const id = useId();
  const [contact, setContact] = useState(initialContact);
  const [tone, setTone] = useState<DraftTone>("friendly");
  const [features, setFeatures] = useState("");
  const [facts, setFacts] = useState<FactInputs>(NO_FACTS);
  const [mlsLimit, setMlsLimit] = useState<string>("1000");
  const [location, setLocation] = useState(initialLocation);
  const [question, setQuestion] = useState("");
  const [missing, setMissing] = useState<string | null>(null);
  const featuresRef = useRef<HTMLTextAreaElement>(null);
  const optionsRef = useRef<HTMLDetailsElement>(null);

  function runQuick(task: QuickTask) {
    setMissing(null);
    if (task === "listing" && !features.trim() && !contact && Object.values(facts).every((v) => !v.trim())) {
      if (optionsRef.current) optionsRef.current.open = true;
      setMissing(
        "Describe the property first (its bedrooms, size, price or features, one per line or separated by commas), or pick the seller's contact.",
      );
      featuresRef.current?.focus();
      return;
    }
    onRun({
      task,
      tone,
      userInput: task === "listing" ? features : "",
      contactId: task === "follow_up" || task === "listing" ? contact?.id : undefined,
      location: task === "market" ? location.trim() || undefined : undefined,
      mlsLimit: task === "listing" ? (mlsLimit ? Number(mlsLimit) : null) : undefined,
      listing: task === "listing" ? toFacts(facts) : undefined,
    });
  }

  const ran = useRef(false);
  useEffect(() => {
    if (autoRun && !ran.current) {
      ran.current = true;
      runQuick(autoRun);
    }
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const blank = !question.trim();
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <h2 id={`${id}-heading`} className="flex items-center gap-2 text-lg font-semibold">
        <Sparkles aria-hidden="true" className="h-5 w-5 text-brand-700 dark:text-brand-400" /> AI Coach
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Drafts and advice written from your contacts, deals and tasks. Nothing is sent to anyone until you send it.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div>
          <ContactPicker name="contactId" initial={initialContact} onPick={setContact} />
        </div>
        <SelectField
          label="Tone"
          name="tone"
          value={tone}
          onChange={(event) => setTone(event.target.value as DraftTone)}
          options={DRAFT_TONES.map((t) => [t, DRAFT_TONE_LABELS[t]] as const)}
        />
      </div>
      <details ref={optionsRef} className="mt-3 rounded-lg border border-stone-200 p-3 dark:border-stone-800">
        <summary className="min-h-10 cursor-pointer py-2 text-sm font-semibold">Listing and market options</summary>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          <fieldset className="sm:col-span-2">
            <legend className="mb-1 text-sm font-medium">The listing&rsquo;s facts</legend>
            <p id={`${id}-facts-hint`} className="mb-2 text-sm text-stone-600 dark:text-stone-400">
              Used exactly as typed. Left blank, the rooms come from the seller&rsquo;s contact and the rest is left out.
            </p>
            <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              {FACT_FIELDS.map((field) => (
                <div key={field.key}>
                  <label htmlFor={`${id}-${field.key}`} className="mb-1 block text-sm font-medium">
                    {field.label}
                  </label>
                  <input
                    id={`${id}-${field.key}`}
                    name={field.key}
                    type="number"
                    inputMode={field.inputMode}
                    min={field.min}
                    max={LISTING_FACT_LIMITS[field.key]}
                    step={field.step}
                    value={facts[field.key]}
                    onChange={(event) => setFacts((current) => ({ ...current, [field.key]: event.target.value }))}
                    aria-describedby={field.hint ? `${id}-${field.key}-hint` : `${id}-facts-hint`}
                    className={`${INPUT} min-h-12`}
                  />
                  {field.hint ? (
                    <p id={`${id}-${field.key}-hint`} className="mt-1 text-xs text-stone-600 dark:text-stone-400">
                      {field.hint}
                    </p>
                  ) : null}
                </div>
              ))}
            </div>
          </fieldset>
          <div className="sm:col-span-2">
            <label htmlFor={`${id}-features`} className="mb-1 block text-sm font-medium">
              Property features for the listing
            </label>
            <textarea
              id={`${id}-features`}
              ref={featuresRef}
              rows={3}
              value={features}
              maxLength={2000}
              onChange={(event) => setFeatures(event.target.value)}
              placeholder="Renovated kitchen, south-facing garden, two-car garage"
              className={INPUT}
            />
          </div>
          <SelectField
            label="MLS remarks limit"
            name="mlsLimit"
            value={mlsLimit}
            onChange={(event) => setMlsLimit(event.target.value)}
            options={[...MLS_LIMITS.map((n) => [String(n), `${n.toLocaleString("en-US")} characters`] as const), ["", "No limit"] as const]}
          />
          <div>
            <label htmlFor={`${id}-location`} className="mb-1 block text-sm font-medium">
              Location for market insight
            </label>
            <input
              id={`${id}-location`}
              value={location}
              maxLength={100}
              onChange={(event) => setLocation(event.target.value)}
              className={`${INPUT} min-h-12`}
              placeholder="e.g. East Austin"
            />
          </div>
        </div>
      </details>
      {missing ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800 dark:text-red-300">
          {missing}
        </p>
      ) : null}
      <h3 className="mt-4 text-sm font-semibold">Quick actions</h3>
      <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {QUICK_ACTIONS.map(({ task, label, icon: Icon }) => (
          <Button key={task} type="button" variant="secondary" className="justify-start text-left" disabled={running} onClick={() => runQuick(task)}>
            <Icon aria-hidden="true" className="h-5 w-5 shrink-0" /> {label}
          </Button>
        ))}
      </div>
      <form
        className="mt-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (blank || running) return;
          onRun({ task: "advice", tone, userInput: question, contactId: contact?.id });
        }}
      >
        <label htmlFor={`${id}-question`} className="block text-sm font-semibold">
          Ask the coach
        </label>
        <textarea
          id={`${id}-question`}
          rows={3}
          value={question}
          maxLength={2000}
          onChange={(event) => setQuestion(event.target.value)}
          placeholder="How should I handle a buyer who wants to wait for rates to drop?"
          className={`${INPUT} mt-1`}
        />
        <Button type="submit" className="mt-2 w-full sm:w-auto" disabled={blank || running} busy={running} busyLabel="Getting advice…">
          Get AI Advice
        </Button>
      </form>
    </section>
  );
}
