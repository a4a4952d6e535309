// Many rows bound as one parameter: a JSON array that an insert reads with json_each (the drill's scratch load, a
// restore's staging). One parameter per statement keeps far inside D1's 100 bound parameters whatever the table's width.

/** Rows per array, and characters per array: well under D1's 2 MB per bound value. */
const ROWS_PER_ARRAY = 500;
const CHARS_PER_ARRAY = 500_000;

/** JSON-encoded rows, in order, grouped into JSON arrays of at most 500 rows and about 500,000 characters each. */
export function jsonArrays(encodedRows: Iterable<string>): string[] {
  const arrays: string[] = [];
  let group: string[] = [];
  let size = 0;
  for (const row of encodedRows) {
    if (group.length >= ROWS_PER_ARRAY || (group.length > 0 && size + row.length > CHARS_PER_ARRAY)) {
      arrays.push(`[${group.join(",")}]`);
      group = [];
      size = 0;
    }
    group.push(row);
    size += row.length + 1;
  }
  if (group.length > 0) arrays.push(`[${group.join(",")}]`);
  return arrays;
}
