import type { LoggableActivityType } from "~/db/enums";

// "How did it go?" (ADR 0067): tapping Call or Text on a contact leaves the app for the phone's dialer or messages.
// The tap is remembered on the device; when the agent comes back, Porchlight asks how it went and logs the answer as
// the activity (through the field copy's queue, so it works offline), which also stops a new lead's timer.
// Browser-safe; nothing here touches the server.

const STORE_KEY = "porchlight:reach-out";
/** A tap older than this is not asked about: the agent has moved on, and a stale question would mislead. */
export const REACH_OUT_ASK_WITHIN_MS = 2 * 60 * 60 * 1000;
/** A page opened this long after the tap (the app was closed during the call) asks at once. */
const REOPENED_AFTER_MS = 5_000;

export type ReachKind = "call" | "text";

export interface ReachOut {
  userId: string;
  contactId: string;
  name: string;
  kind: ReachKind;
  /** When the agent tapped (ms): the activity is logged at this moment, not when they answered. */
  at: number;
  /** Set once the page was left (hidden or blurred) after the tap: coming back then asks. */
  left?: boolean;
}

/** The answers, one tap each, and the activity each logs. */
const REACH_OUT_OUTCOMES = [
  { id: "talked", label: "Talked", type: "call", outcome: "Talked" },
  { id: "voicemail", label: "Left a voicemail", type: "call", outcome: "Left voicemail" },
  { id: "no_answer", label: "No answer", type: "call", outcome: "No answer" },
  { id: "texted", label: "Texted", type: "text", outcome: "Texted" },
] as const satisfies readonly { id: string; label: string; type: LoggableActivityType; outcome: string }[];

export type ReachOutcome = (typeof REACH_OUT_OUTCOMES)[number];

/** The answers in the order that fits the tap: after Text, "Texted" comes first. */
export function outcomesFor(kind: ReachKind): ReachOutcome[] {
  const texted = REACH_OUT_OUTCOMES.filter((o) => o.type === "text");
  const calls = REACH_OUT_OUTCOMES.filter((o) => o.type === "call");
  return kind === "text" ? [...texted, ...calls] : [...calls, ...texted];
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused (private browsing): the prompt simply does not appear
  }
}

export function rememberReachOut(reach: Omit<ReachOut, "at" | "left">, at = Date.now()): void {
  storage()?.setItem(STORE_KEY, JSON.stringify({ ...reach, at } satisfies ReachOut));
}

export function forgetReachOut(): void {
  storage()?.removeItem(STORE_KEY);
}

/** The agent left the page after a tap (the dialer or messages opened). */
export function markLeft(): void {
  const reach = readReachOut();
  if (reach && !reach.left) storage()?.setItem(STORE_KEY, JSON.stringify({ ...reach, left: true }));
}

export function readReachOut(): ReachOut | null {
  const raw = storage()?.getItem(STORE_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ReachOut>;
    if (typeof value.userId !== "string" || typeof value.contactId !== "string" || typeof value.name !== "string" || typeof value.at !== "number")
      return null;
    return {
      userId: value.userId,
      contactId: value.contactId,
      name: value.name,
      kind: value.kind === "text" ? "text" : "call",
      at: value.at,
      left: value.left === true,
    };
  } catch {
    return null;
  }
}

/**
 * The tap to ask about now, if any: the signed-in agent's own, recent, and either left and come back to, or found
 * by a page opened well after it (the app was closed during the call). Another agent's tap on a shared phone is dropped.
 */
export function dueReachOut(userId: string, now = Date.now()): ReachOut | null {
  const reach = readReachOut();
  if (!reach) return null;
  if (reach.userId !== userId || now - reach.at > REACH_OUT_ASK_WITHIN_MS || now < reach.at) {
    forgetReachOut();
    return null;
  }
  return reach.left || now - reach.at >= REOPENED_AFTER_MS ? reach : null;
}
