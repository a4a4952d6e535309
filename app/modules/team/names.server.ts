import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { agentProfiles, profiles, users } from "~/db/schema";

/** The name a user goes by (their agent name, their full name, else their e-mail), or `fallback` for no such user. */
export async function userName(db: Db, userId: string, fallback: string): Promise<string> {
  const row = await db
    .select({ agentName: agentProfiles.agentName, fullName: profiles.fullName, email: users.email })
    .from(users)
    .leftJoin(agentProfiles, eq(agentProfiles.userId, users.id))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  return row?.agentName?.trim() || row?.fullName?.trim() || row?.email || fallback;
}
