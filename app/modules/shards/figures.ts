// The figures of the account databases (ADR 0060), as the Operations Center shows them. Browser-safe; computed in
// figures.server.ts.

/** D1's largest database on the Workers Paid plan: 10 GB (developers.cloudflare.com/d1/platform/limits). */
export const D1_DATABASE_LIMIT_BYTES = 10_000_000_000;

export interface DatabaseFigures {
  /** 0 for DB (the home database), n for DB_SHARD_n. */
  shard: number;
  binding: string;
  /** Accounts: a team counts once however many members it has; an agent in no team is an account of one. */
  accounts: number;
  /** Agents (users rows) in the database. */
  agents: number;
  /** Agents the directory places here (those made before the directory are at home without a row). */
  listed: number;
  /** The database's size as D1 reports it (what its 10 GB limit counts). */
  bytes: number;
  acceptsNewAccounts: boolean;
  /** The size as shown ("2.4 MB", decimal units as D1 states its limit) and its share of the 10 GB limit ("0.02%"). */
  sizeLabel: string;
  limitShare: string;
}

/** The same figures summed over every database. */
export type DatabaseTotals = Omit<DatabaseFigures, "shard" | "binding" | "acceptsNewAccounts" | "limitShare">;
