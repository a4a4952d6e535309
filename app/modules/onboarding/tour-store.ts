import { useRouteLoaderData } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import { TOUR_LENGTH } from "./tour";

// Where the running tour keeps its step: sessionStorage, not a URL search parameter. The tour has to
// outlive every client navigation, and the app has many links and GET forms (the contact filters rebuild
// the query string) that would each have to carry a parameter; sessionStorage also survives a reload,
// belongs to this tab only, ends with it, and never lands in a URL that gets bookmarked or shared. The
// server needs none of it: only the outcome (skipped, completed) is stored, in user_preferences.
// The step is stored with the signed-in e-mail, so a tab handed to another account shows no stale tour.

const KEY = "porchlight-onboarding-tour";
const EVENT = "porchlight:onboarding-tour";

type Stored = { step: number; owner: string };

// Without storage (blocked by the browser) the tour still runs, until the next full page load.
let memory: string | null = null;

function readRaw(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return memory;
  }
}

function writeRaw(value: string | null) {
  memory = value;
  try {
    if (value === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, value);
  } catch {
    // Kept in memory only.
  }
  window.dispatchEvent(new Event(EVENT));
}

function parse(raw: string | null, owner: string): number | null {
  if (!raw || !owner) return null;
  try {
    const stored = JSON.parse(raw) as Partial<Stored>;
    const step = stored.step;
    if (stored.owner !== owner || typeof step !== "number" || !Number.isInteger(step) || step < 1 || step > TOUR_LENGTH) return null;
    return step;
  } catch {
    return null;
  }
}

// Set when a step change should take keyboard and screen-reader focus to the tour (a start, Next,
// Previous), and not when the tour merely reappears after a reload.
let focusRequested = false;

export function takeTourFocusRequest(): boolean {
  const requested = focusRequested;
  focusRequested = false;
  return requested;
}

export function setTourStep(owner: string, step: number) {
  focusRequested = true;
  writeRaw(JSON.stringify({ step, owner } satisfies Stored));
}

export function startTour(owner: string) {
  setTourStep(owner, 1);
}

export function endTour() {
  writeRaw(null);
}

export function readTourStep(owner: string): number | null {
  return parse(readRaw(), owner);
}

function subscribe(onChange: () => void) {
  window.addEventListener(EVENT, onChange);
  return () => window.removeEventListener(EVENT, onChange);
}

/** The running tour's step (1-based) for this user, or null. Always null on the server. */
export function useTourStep(owner: string): number | null {
  const raw = useSyncExternalStore(subscribe, readRaw, () => null);
  return parse(raw, owner);
}

/** The signed-in user's e-mail from the app layout's loader (every page that shows the tour is under it). */
export function useTourOwner(): string {
  return (useRouteLoaderData("routes/_app") as { email?: string } | undefined)?.email ?? "";
}
