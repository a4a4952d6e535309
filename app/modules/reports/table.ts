import { formatCents, formatCount, type DisplayPreferences } from "~/lib/format";
import { formatMinutes } from "./definitions";
// A report's numbers as one table: the page renders it, its chart's screen-reader text reads it, and the CSV
// download writes it, so the file holds exactly what the page shows. Browser-safe.

export interface ReportCell {
  /** As the page shows it ("$12,400.00", "41%", "2 h 5 min", "—"). */
  text: string;
  /** As the CSV holds it: a plain number (money in currency units, shares in percent, times in minutes) or text; null is an empty cell. */
  value: string | number | null;
}

export interface ReportTable {
  /** Its CSV's name: /reports/<id>.csv */
  id: string;
  caption: string;
  /** Column headings; the CSV's header row adds the unit in brackets where a column has one. */
  columns: { label: string; unit?: string; numeric?: boolean }[];
  rows: { key: string; cells: ReportCell[]; href?: string }[];
  /** A last row of totals, if the table has one. */
  total?: ReportCell[];
  /** The same totals over the comparison period (its first cell names the days); the change row follows from it. */
  previous?: ReportCell[];
  /** Rows under the footer that the totals do not count (lead e-mails still to review under the leads). */
  after?: { key: string; cells: ReportCell[] }[];
}

export const cell = (text: string, value: string | number | null = text): ReportCell => ({ text, value });
export const DASH = "—";
export const empty = (): ReportCell => ({ text: DASH, value: null });
export const pctCell = (pct: number | null) => (pct === null ? empty() : cell(`${pct}%`, pct));
/** Money as the page shows it, in `prefs`' currency; the CSV holds currency units. */
export const moneyCell = (cents: number | null, prefs: Pick<DisplayPreferences, "currency">) =>
  cents === null ? empty() : cell(formatCents(cents, prefs), cents / 100);
export const countCell = (n: number) => cell(formatCount(n), n);
export const minutesCell = (minutes: number | null) => (minutes === null ? empty() : cell(formatMinutes(minutes), Math.round(minutes * 10) / 10));

/**
 * The totals' change against the comparison period, column by column: in percent of the earlier figure, or
 * in percentage points for a column of shares (20% to 25% is "+5 pts", not "+25%"). Empty where either
 * figure is missing or there is nothing to take a percent of.
 */
export function changeRow(table: ReportTable): ReportCell[] | null {
  if (!table.total || !table.previous) return null;
  return table.columns.map((column, i) => {
    if (i === 0) return cell("Change", "Change");
    const now = table.total![i]?.value;
    const before = table.previous![i]?.value;
    if (!column.numeric || typeof now !== "number" || typeof before !== "number") return empty();
    if (column.unit === "%") {
      const points = Math.round(now - before);
      return cell(`${points > 0 ? "+" : points < 0 ? "−" : "±"}${Math.abs(points)} pts`, points);
    }
    if (before === 0) return empty();
    const pct = Math.round(((now - before) / Math.abs(before)) * 100);
    return cell(`${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct)}%`, pct);
  });
}

/** The table's footer rows: the totals, the comparison period's, the change, and the rows the totals leave out. */
export function footerRows(table: ReportTable): { key: string; cells: ReportCell[] }[] {
  const change = changeRow(table);
  return [
    ...(table.total ? [{ key: "total", cells: table.total }] : []),
    ...(table.previous ? [{ key: "previous", cells: table.previous }] : []),
    ...(change ? [{ key: "change", cells: change }] : []),
    ...(table.after ?? []),
  ];
}

/** The table as rows of strings for the CSV writer: a header row, the rows, then the footer rows. */
export function csvRows(table: ReportTable): string[][] {
  const header = table.columns.map((c) => (c.unit ? `${c.label} (${c.unit})` : c.label));
  const line = (cells: ReportCell[]) => cells.map((c) => (c.value === null ? "" : String(c.value)));
  return [header, ...table.rows.map((r) => line(r.cells)), ...footerRows(table).map((r) => line(r.cells))];
}
