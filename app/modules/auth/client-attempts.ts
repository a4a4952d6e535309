import { CLIENT_ATTEMPT_LIMIT } from "./auth.messages";

/** Browser-side attempt log (spec section 5). The server enforces its own limit regardless. */
export function registerClientAttempt(storage: Storage, now = Date.now()): boolean {
  let attempts: number[] = [];
  try {
    const parsed: unknown = JSON.parse(storage.getItem(CLIENT_ATTEMPT_LIMIT.key) ?? "[]");
    if (Array.isArray(parsed)) attempts = parsed.filter((t): t is number => typeof t === "number");
  } catch {
    attempts = [];
  }
  const recent = attempts.filter((t) => now - t < CLIENT_ATTEMPT_LIMIT.windowMs);
  if (recent.length >= CLIENT_ATTEMPT_LIMIT.max) {
    storage.setItem(CLIENT_ATTEMPT_LIMIT.key, JSON.stringify(recent));
    return false;
  }
  storage.setItem(CLIENT_ATTEMPT_LIMIT.key, JSON.stringify([...recent, now]));
  return true;
}
