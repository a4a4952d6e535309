import type { ContactSource, ContactStatus, PropertyType } from "~/db/enums";

/**
 * What the AI features write, and the facts they write from. The server assembles a DraftEnvelope from the
 * user's own rows (owner-scoped; ids sent by the browser are only looked up, never trusted), and every
 * engine (Workers AI, an OpenAI-style endpoint, the offline drafter) receives the same envelope.
 * Kept free of zod and server imports: the browser uses these types and labels too.
 */
export const DRAFT_TASKS = ["follow_up", "listing", "market", "deal_review", "week_plan", "advice"] as const;
export type DraftTask = (typeof DRAFT_TASKS)[number];

/** The coach's quick actions; /ai-assistant?quick=<task> runs one (links from insights and the command palette). */
const QUICK_TASKS = ["follow_up", "listing", "market", "deal_review", "week_plan"] as const satisfies readonly DraftTask[];
export type QuickTask = (typeof QUICK_TASKS)[number];
export const isQuickTask = (value: string | null): value is QuickTask => QUICK_TASKS.includes(value as QuickTask);

export const DRAFT_TASK_LABELS: Record<DraftTask, string> = {
  follow_up: "Follow-up e-mail",
  listing: "Listing description",
  market: "Market insight",
  deal_review: "At-risk deals review",
  week_plan: "This week's plan",
  advice: "Advice",
};

export const DRAFT_TONES = ["friendly", "professional", "concise", "enthusiastic"] as const;
export type DraftTone = (typeof DRAFT_TONES)[number];

export const DRAFT_TONE_LABELS: Record<DraftTone, string> = {
  friendly: "Friendly",
  professional: "Professional",
  concise: "Concise",
  enthusiastic: "Enthusiastic",
};

/** Common MLS remarks limits, in characters; null means no limit. */
export const MLS_LIMITS = [250, 500, 1000, 2000] as const;

export interface DraftContact {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  status: ContactStatus;
  budgetMin: number | null;
  budgetMax: number | null;
  propertyType: PropertyType;
  bedrooms: number | null;
  bathrooms: number | null;
  location: string | null;
  source: ContactSource;
  tags: string[];
  notes: string | null;
  /** The agent's calendar day of the latest activity (YYYY-MM-DD), null when there is none. */
  lastActivityDay: string | null;
  /** The latest activity, e.g. "Showing — loved the yard", null when there is none. */
  lastActivitySummary: string | null;
}

export interface DraftDeal {
  id: string;
  title: string;
  /** The stage key (lead, qualified, …, under_contract, closed_won, closed_lost, or a custom key). */
  stage: string;
  /** The stage's name in the user's pipeline, e.g. "Under Contract". */
  stageName: string;
  dealValue: number | null;
  /** Percent, e.g. 3 for 3%. */
  commissionRate: number | null;
  /** Percent, 0–100. */
  probability: number | null;
  /** YYYY-MM-DD, or null when not set. */
  expectedCloseDate: string | null;
  /** Whole days the deal has been in its current stage. */
  daysInStage: number;
  /** The deal's contact's name, when it has one. */
  contactName: string | null;
  /** The agent's calendar day of the deal's latest activity, null when none. */
  lastActivityDay: string | null;
}

export interface DraftAgent {
  name: string | null;
  brokerage: string | null;
  market: string | null;
}

/** An open task, for the week's plan. */
export interface DraftTaskItem {
  title: string;
  /** YYYY-MM-DD */
  dueDate: string;
  contactName: string | null;
}

export interface DraftEnvelope {
  task: DraftTask;
  /** What the agent typed; may be empty for quick actions. Never contains instructions for the server. */
  userInput: string;
  tone: DraftTone;
  contact: DraftContact | null;
  deals: DraftDeal[];
  agent: DraftAgent;
  /** Open tasks due in the next 7 days (week_plan), otherwise empty. */
  tasks: DraftTaskItem[];
  /** The agent's calendar day, YYYY-MM-DD. */
  today: string;
  /** Display currency (ISO code), e.g. "USD". */
  currency: string;
  /** Listing descriptions: the MLS remarks limit in characters, or null for none. */
  mlsLimit: number | null;
  /** Listing descriptions: the facts the agent typed about the property (each overrides the contact's record), else null. */
  listing: ListingFacts | null;
  /** Picks among phrasings; "Regenerate" increments it so the offline drafter writes a different version. */
  variant: number;
}

/** What the agent can type about the property in the listing quick action. null: not given. */
export interface ListingFacts {
  /** 0 is a studio. */
  bedrooms: number | null;
  /** Half baths count as .5: 2.5. */
  bathrooms: number | null;
  squareFeet: number | null;
  /** The list price in whole units of the display currency. */
  price: number | null;
}

/** The bounds the listing facts are held to, in the browser's inputs and the server's schema alike. */
export const LISTING_FACT_LIMITS = { bedrooms: 50, bathrooms: 50, squareFeet: 1_000_000, price: 1_000_000_000 } as const;

export type EngineId = "workers-ai" | "gateway" | "offline" | "fallback";

export const ENGINE_LABELS: Record<EngineId, string> = {
  "workers-ai": "Workers AI",
  gateway: "AI Gateway",
  offline: "Porchlight's offline drafter",
  fallback: "a standard template (generation failed)",
};

export interface FairHousingFlag {
  /** The phrase as found in the text. */
  phrase: string;
  /** Where it starts in the text. */
  index: number;
  category: "familial_status" | "religion" | "race_color_national_origin" | "disability" | "sex" | "age" | "steering";
  /** Why it is a problem, one sentence. */
  reason: string;
  /** A neutral rewording to use instead (may be an empty string when the phrase should simply be removed). */
  suggestion: string;
}
