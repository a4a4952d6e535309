import { DAY_MS } from "~/lib/dates";
import { desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { gdprRequests, users } from "~/db/schema";
import { GDPR_REQUEST_STATUSES, GDPR_REQUEST_TYPES } from "~/db/enums";
import { newestAcross } from "~/modules/shards/databases.server";

export interface ComplianceView {
  /** Requests per type and status over the last 30 days. */
  counts: { type: (typeof GDPR_REQUEST_TYPES)[number]; status: (typeof GDPR_REQUEST_STATUSES)[number]; n: number }[];
  total30d: number;
  /** The newest requests of every agent, with the agent's e-mail (null once the account is gone). */
  recent: {
    id: string;
    email: string | null;
    type: (typeof GDPR_REQUEST_TYPES)[number];
    status: (typeof GDPR_REQUEST_STATUSES)[number];
    description: string;
    createdAt: string;
    completedAt: string | null;
  }[];
}

/**
 * Operations Center → Compliance: what agents asked for (exports, deletions), for admins, from every account database
 * (a request is recorded in its agent's: ADR 0060).
 */
export async function loadCompliance(databases: readonly Db[], now: number): Promise<ComplianceView> {
  const since = new Date(now - 30 * DAY_MS);
  const [countsEach, recent] = await Promise.all([
    Promise.all(
      databases.map((db) =>
        db
          .select({ type: gdprRequests.type, status: gdprRequests.status, n: sql<number>`count(*)` })
          .from(gdprRequests)
          .where(gte(gdprRequests.createdAt, since))
          .groupBy(gdprRequests.type, gdprRequests.status),
      ),
    ),
    newestAcross(
      databases,
      (db) =>
        db
          .select({
            id: gdprRequests.id,
            email: users.email,
            type: gdprRequests.type,
            status: gdprRequests.status,
            description: gdprRequests.description,
            createdAt: gdprRequests.createdAt,
            completedAt: gdprRequests.completedAt,
          })
          .from(gdprRequests)
          .leftJoin(users, eq(users.id, gdprRequests.userId))
          .orderBy(desc(gdprRequests.createdAt))
          .limit(50),
      (r) => r.createdAt.getTime(),
      50,
    ),
  ]);
  // The same type and status in several databases is one row of the sum.
  const summed = new Map<string, ComplianceView["counts"][number]>();
  for (const c of countsEach.flat()) {
    const key = `${c.type}/${c.status}`;
    const seen = summed.get(key);
    summed.set(key, seen ? { ...seen, n: seen.n + c.n } : { ...c });
  }
  const counts = [...summed.values()];
  return {
    counts,
    total30d: counts.reduce((sum, c) => sum + c.n, 0),
    recent: recent.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), completedAt: r.completedAt?.toISOString() ?? null })),
  };
}
