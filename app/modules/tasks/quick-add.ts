import * as chrono from "chrono-node/en";
import type { TaskType } from "~/db/enums";
import type { LocalNow } from "./due";

// Quick add: "Call Jane tomorrow 3pm" → a call titled "Call Jane", due tomorrow at 15:00 in the user's
// timezone. chrono-node finds the date words; the rest is the title. Shared by the server (which decides)
// and the quick-add box (which previews while typing, loading this module only once the box is used).

export interface QuickAddResult {
  title: string;
  dueDate: string;
  dueTime: string | null;
  type: TaskType;
  /** The words read as the due date, if any ("tomorrow 3pm"). */
  dateText: string | null;
}

const TYPE_WORDS: [RegExp, TaskType][] = [
  [/^(call|phone|ring)\b/i, "call"],
  [/^(e-?mail|send an? e-?mail)\b/i, "email"],
  [/^(show|showing|tour|open house)\b/i, "showing"],
  [/^(follow[ -]?up|check in|touch base)\b/i, "follow_up"],
  [/^(paperwork|sign|send docs|docs|file|contract|disclosures?)\b/i, "paperwork"],
];

const pad = (n: number) => String(n).padStart(2, "0");

function inferTaskType(title: string): TaskType {
  return TYPE_WORDS.find(([pattern]) => pattern.test(title))?.[1] ?? "follow_up";
}

/**
 * Reads `text` relative to `now` (the user's own day and time). chrono works in the runtime's local time, so
 * the reference is a Date whose local fields are the user's wall clock; the answer is read back the same way.
 */
export function parseQuickAdd(text: string, now: LocalNow): QuickAddResult | null {
  const input = text.replace(/\s+/g, " ").trim().slice(0, 300);
  if (!input) return null;
  const [y, m, d] = now.date.split("-").map(Number);
  const [hh, mm] = now.time.split(":").map(Number);
  const reference = new Date(y!, m! - 1, d!, hh!, mm!);
  // Prefer words that name a day over a bare time: in "showing at 12 Oak St friday at 10:30" the day is Friday.
  const results = chrono.parse(input, reference, { forwardDate: true });
  const found = results.find((r) => r.start.isCertain("day") || r.start.isCertain("weekday")) ?? results[0];
  let title = input;
  let dueDate = now.date;
  let dueTime: string | null = null;
  if (found) {
    const start = found.start;
    dueDate = `${start.get("year")}-${pad(start.get("month") ?? 1)}-${pad(start.get("day") ?? 1)}`;
    if (start.isCertain("hour")) dueTime = `${pad(start.get("hour") ?? 0)}:${pad(start.get("minute") ?? 0)}`;
    title = (input.slice(0, found.index) + " " + input.slice(found.index + found.text.length))
      .replace(/\s+/g, " ")
      .replace(/\b(on|at|by|due|for)\s*$/i, "")
      .replace(/^\s*(on|at|by|due)\b/i, "")
      .replace(/[\s,;:–-]+$/, "")
      .trim();
  }
  if (!title) title = input;
  return { title: title.charAt(0).toUpperCase() + title.slice(1), dueDate, dueTime, type: inferTaskType(title), dateText: found?.text ?? null };
}
