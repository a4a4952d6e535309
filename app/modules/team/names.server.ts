import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { agentProfiles, profiles, users } from "~/db/schema";

/**
 * How a user is shown to others: the name they go by (their agent name, their full name, else their e-mail), their
 * phone and e-mail; null for no such user.
 */
export async function userCard(db: Db, userId: string): Promise<{ name: string; phone: string | null; email: string } | null> {
  const row = await db
    .select({ agentName: agentProfiles.agentName, fullName: profiles.fullName, phone: profiles.phone, email: users.email })
    .from(users)
    .leftJoin(agentProfiles, eq(agentProfiles.userId, users.id))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  if (!row) return null;
  return { name: row.agentName?.trim() || row.fullName?.trim() || row.email, phone: row.phone?.trim() || null, email: row.email };
}

/** The name a user goes by, or `fallback` for no such user. */
export async function userName(db: Db, userId: string, fallback: string): Promise<string> {
  return (await userCard(db, userId))?.name ?? fallback;
}
