import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof createDb>;

// A drizzle handle is a thin wrapper over the D1 binding; make one per request, never a module global.
export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
