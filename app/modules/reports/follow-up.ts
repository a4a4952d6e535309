import { ascending, formatMinutes, nearestRank, percentOf } from "./definitions";
import { cell, countCell, empty, type ReportCell, type ReportTable } from "./table";

// Reports' follow-up e-mail: the figures of the e-mails the agent sent in the period, per template and per action plan,
// from the rows of follow-up.server.ts. The page's tables and their CSV files are these two tables. Browser-safe.

/** The template key of e-mails whose template was deleted. */
export const DELETED_TEMPLATE = "~deleted";

interface EmailGroup {
  templateKey: string | null;
  templateName: string | null;
  planKey: string | null;
  planName: string | null;
  sent: number;
  bounced: number;
  replied: number;
  /** Milliseconds from each replied e-mail to its first reply, ascending. */
  times: number[];
}

export interface FollowUpInput {
  emails: EmailGroup[];
  runs: { planKey: string; planName: string; runs: number; stopped: number }[];
}

interface FollowUpFigures {
  /** E-mails sent (not failed): delivered, bounced or marked as spam. */
  sent: number;
  bounced: number;
  /** Those with at least one reply a person wrote. */
  replied: number;
  /** replied ÷ (sent − bounced), in whole percent; null when none was delivered. */
  replyRatePct: number | null;
  /** The median minutes from an e-mail to its first reply, over the replied ones (of an even number, the lower middle). */
  medianMinutes: number | null;
}

/** The figures of some groups of e-mails, added up. */
function followUpFigures(groups: readonly EmailGroup[]): FollowUpFigures {
  const add = (pick: (g: EmailGroup) => number) => groups.reduce((total, g) => total + pick(g), 0);
  const sent = add((g) => g.sent);
  const bounced = add((g) => g.bounced);
  const replied = add((g) => g.replied);
  const median = nearestRank(ascending(groups.flatMap((g) => g.times)), 50);
  return { sent, bounced, replied, replyRatePct: percentOf(replied, sent - bounced), medianMinutes: median === null ? null : median / 60_000 };
}

const figureCells = (f: FollowUpFigures): ReportCell[] => [
  countCell(f.sent),
  countCell(f.bounced),
  countCell(f.replied),
  f.replyRatePct === null ? empty() : cell(`${f.replyRatePct}%`, f.replyRatePct),
  f.medianMinutes === null ? empty() : cell(formatMinutes(f.medianMinutes), Math.round(f.medianMinutes * 10) / 10),
];
const figureColumns = [
  { label: "Sent", numeric: true },
  { label: "Bounced", numeric: true },
  { label: "Replied", numeric: true },
  { label: "Reply rate", unit: "%", numeric: true },
  { label: "Median time to reply", unit: "minutes", numeric: true },
];
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en-US");

/** The per-template and per-plan tables of the period's follow-up e-mail. */
export function followUpTables(input: FollowUpInput): { templates: ReportTable; plans: ReportTable; empty: boolean } {
  const { emails } = input;
  const templateKeys = [...new Set(emails.flatMap((g) => (g.templateKey && g.templateKey !== DELETED_TEMPLATE ? [g.templateKey] : [])))];
  const templateRow = (key: string, name: string, groups: EmailGroup[]) => ({ key, cells: [cell(name), ...figureCells(followUpFigures(groups))] });
  const deleted = emails.filter((g) => g.templateKey === DELETED_TEMPLATE);
  const byHand = emails.filter((g) => g.templateKey === null);
  const templates: ReportTable = {
    id: "follow-up-templates",
    caption: "E-mails sent in the period by template: bounced, replied to, reply rate and median time to the first reply",
    columns: [{ label: "Template" }, ...figureColumns],
    rows: [
      ...templateKeys
        .map((key) => ({ key, name: emails.find((g) => g.templateKey === key)?.templateName ?? "" }))
        .sort(byName)
        .map(({ key, name }) =>
          templateRow(
            key,
            name,
            emails.filter((g) => g.templateKey === key),
          ),
        ),
      ...(deleted.length > 0 ? [templateRow("deleted", "A deleted template", deleted)] : []),
      ...(byHand.length > 0 ? [templateRow("by-hand", "Written by hand", byHand)] : []),
    ],
    total: [cell("All e-mails"), ...figureCells(followUpFigures(emails))],
  };

  // Every plan that sent an e-mail or started a run in the period.
  const planNames = new Map<string, string>();
  for (const g of emails) if (g.planKey) planNames.set(g.planKey, g.planName ?? "");
  for (const r of input.runs) planNames.set(r.planKey, r.planName);
  const planEmails = emails.filter((g) => g.planKey !== null);
  const runCells = (runs: readonly FollowUpInput["runs"][number][]) => [
    countCell(runs.reduce((n, r) => n + r.runs, 0)),
    countCell(runs.reduce((n, r) => n + r.stopped, 0)),
  ];
  const plans: ReportTable = {
    id: "follow-up-plans",
    caption: "Action plans: runs started in the period, stopped by a reply, and their e-mails sent in the period",
    columns: [{ label: "Plan" }, { label: "Runs started", numeric: true }, { label: "Stopped by a reply", numeric: true }, ...figureColumns],
    rows: [...planNames]
      .map(([key, name]) => ({ key, name }))
      .sort(byName)
      .map(({ key, name }) => ({
        key,
        cells: [
          cell(name),
          ...runCells(input.runs.filter((r) => r.planKey === key)),
          ...figureCells(followUpFigures(planEmails.filter((g) => g.planKey === key))),
        ],
      })),
    total: [cell("All plans"), ...runCells(input.runs), ...figureCells(followUpFigures(planEmails))],
  };
  return { templates, plans, empty: emails.length === 0 && input.runs.length === 0 };
}
