/** The rows a statement answers on `d1`, for a test to compare whole. */
export async function rowsOf<T = Record<string, unknown>>(d1: D1Database, sql: string, ...params: unknown[]): Promise<T[]> {
  return (
    await d1
      .prepare(sql)
      .bind(...params)
      .all<T>()
  ).results;
}
