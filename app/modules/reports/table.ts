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
}

export const cell = (text: string, value: string | number | null = text): ReportCell => ({ text, value });
export const DASH = "—";
export const empty = (): ReportCell => ({ text: DASH, value: null });

/** The table as rows of strings for the CSV writer: a header row, the rows, then the totals. */
export function csvRows(table: ReportTable): string[][] {
  const header = table.columns.map((c) => (c.unit ? `${c.label} (${c.unit})` : c.label));
  const line = (cells: ReportCell[]) => cells.map((c) => (c.value === null ? "" : String(c.value)));
  return [header, ...table.rows.map((r) => line(r.cells)), ...(table.total ? [line(table.total)] : [])];
}
