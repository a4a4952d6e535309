import { sql, type SQL } from "drizzle-orm";

/**
 * Which of a run of buckets (weeks, months) an instant column falls in, as SQL: the index of the last of `starts` (the
 * buckets' first instants, epoch ms, ascending) at or before it, 0 when before them all. The starts are the agent's own
 * midnights worked out in JS (DST included), so no offset arithmetic happens in SQL. Written as nested CASEs of literal
 * integers (no bound parameter each) that halve the run: six comparisons a row for a year of weeks. `column` is the
 * column's bare SQL name in a one-table query.
 */
export function bucketOf(column: string, starts: readonly number[]): SQL<number> {
  if (!/^[a-z_]+$/.test(column)) throw new Error(`bucketOf takes a bare column name, not ${column}`);
  return sql.raw(search(column, starts.map(Math.trunc), 0, starts.length - 1)) as SQL<number>;
}

function search(column: string, starts: readonly number[], lo: number, hi: number): string {
  if (lo >= hi) return String(lo);
  const mid = Math.ceil((lo + hi) / 2);
  return `(case when ${column} < ${starts[mid]} then ${search(column, starts, lo, mid - 1)} else ${search(column, starts, mid, hi)} end)`;
}
