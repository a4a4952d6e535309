import type { DraftTaskItem } from "../../draft-types";
import { pick, type Ctx } from "../context";
import { dealName, stageLabel } from "../deal-risk";
import { addDays, daysBetween, formatDay, weekday, whenPhrase } from "../days";
import { DAILY_HABITS, PLAN_INTROS } from "../phrases/week-plan";
import { clean, plural } from "../text";

// This week's plan: the tasks due by day (overdue first), who to follow up with, the deals closing, and a focus.

function dayHeading(day: string, today: string, short = false): string {
  const diff = daysBetween(today, day) ?? 0;
  const label = short ? `${weekday(day).slice(0, 3)} ${formatDay(day, today)}` : `${weekday(day)}, ${formatDay(day, today)}`;
  if (short && diff <= 1) return diff === 0 ? "Today" : "Tomorrow";
  return diff === 0 ? `Today (${label})` : diff === 1 ? `Tomorrow (${label})` : label;
}

function taskLine(task: DraftTaskItem): string {
  const title = clean(task.title, 120) || "Untitled task";
  const who = task.contactName ? clean(task.contactName, 60) : "";
  return `- ${title}${who && !title.toLowerCase().includes(who.toLowerCase()) ? ` (${who})` : ""}`;
}

export function writeWeekPlan(ctx: Ctx): string {
  const today = ctx.env.today;
  const end = addDays(today, 6);
  const concise = ctx.tone === "concise";
  const lines = [pick(PLAN_INTROS[ctx.tone], ctx.v)(`${formatDay(today, today)} to ${formatDay(end, today)}`)];
  const tasks = ctx.env.tasks.filter((t) => (daysBetween(t.dueDate, end) ?? -1) >= 0).sort((a, b) => a.dueDate.localeCompare(b.dueDate));
  const overdue = tasks.filter((t) => (daysBetween(today, t.dueDate) ?? 0) < 0);
  const byDay = new Map<string, DraftTaskItem[]>();
  for (const t of tasks) if (!overdue.includes(t)) byDay.set(t.dueDate, [...(byDay.get(t.dueDate) ?? []), t]);
  lines.push("", "Tasks");
  if (!tasks.length) lines.push("- No tasks due this week. Block two hours for prospecting calls and add follow-up tasks for your hot contacts.");
  if (concise) {
    // One line a day: "Today: a; b".
    const oneLine = (label: string, items: DraftTaskItem[]) => `- ${label}: ${items.map((t) => taskLine(t).slice(2)).join("; ")}`;
    if (overdue.length) lines.push(oneLine("Overdue", overdue));
    for (const [day, items] of byDay) lines.push(oneLine(dayHeading(day, today, true), items));
  } else {
    if (overdue.length) lines.push(`Overdue (${overdue.length})`, ...overdue.map(taskLine));
    for (const [day, items] of byDay) lines.push(dayHeading(day, today), ...items.map(taskLine));
  }
  const follow = followUps(ctx);
  if (follow.length) lines.push("", "Follow up", ...follow);
  const closing = ctx.openDeals
    .filter((d) => {
      const diff = daysBetween(today, d.expectedCloseDate);
      return diff !== null && diff <= 7;
    })
    .sort((a, b) => (a.expectedCloseDate ?? "").localeCompare(b.expectedCloseDate ?? ""));
  if (closing.length) {
    lines.push("", "Deals closing");
    for (const d of closing) {
      const diff = daysBetween(today, d.expectedCloseDate) ?? 0;
      const when =
        diff < 0 ? `was due ${formatDay(d.expectedCloseDate, today)}: agree a new date` : `expected ${whenPhrase(d.expectedCloseDate, today)}`;
      lines.push(`- ${dealName(d)} (${stageLabel(d)}${d.dealValue != null ? `, ${ctx.money(d.dealValue)}` : ""}): ${when}`);
    }
  }
  if (!concise) {
    const busiest = [...byDay].sort((a, b) => b[1].length - a[1].length)[0];
    const focus: string[] = [];
    if (overdue.length) focus.push(`Clear ${overdue.length === 1 ? "the overdue task" : `the ${overdue.length} overdue tasks`} first thing today.`);
    if (busiest && busiest[1].length >= 4)
      focus.push(`${weekday(busiest[0])} is your busiest day (${plural(busiest[1].length, "task")}): move anything you can earlier.`);
    if (closing.length) focus.push("Confirm every closing's remaining steps with the lender and the other agent early in the week.");
    focus.push(pick(DAILY_HABITS, ctx.v));
    lines.push("", "Focus", ...focus.map((f) => `- ${f}`));
  }
  return lines.join("\n");
}

function followUps(ctx: Ctx): string[] {
  const out: string[] = [];
  const c = ctx.contact;
  if (c && ctx.fullName) {
    const when = whenPhrase(c.lastActivityDay, ctx.env.today);
    const last = when ? `last contact ${when}` : "no activity logged yet";
    out.push(`- ${ctx.fullName} (${c.status}): ${last}${c.status === "hot" ? "; reach out early in the week" : ""}`);
  }
  for (const d of ctx.openDeals) {
    const quiet = daysBetween(d.lastActivityDay, ctx.env.today);
    if (quiet !== null && quiet < 7) continue;
    const who = d.contactName ? clean(d.contactName, 60) : "";
    if (c && ctx.fullName && who === ctx.fullName) continue;
    out.push(
      `- ${who ? `${who} (${dealName(d)})` : dealName(d)}: ${quiet === null ? "no activity logged yet" : `quiet for ${plural(quiet, "day")}`}`,
    );
  }
  return out;
}
