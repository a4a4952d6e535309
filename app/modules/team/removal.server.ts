import { and, count, eq, inArray } from "drizzle-orm";
import { contacts, crmActivities, crmTasks, deals, teamLeads, teamMembers } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { NO_WORK, type MemberWork } from "./removal";

/**
 * Each member's own work, for the removal dialog: one grouped count per table over the team's members (the owner
 * indexes), so a team of any size costs five statements with one bound id each (a list of ids would pass D1's 100
 * parameters at 100 members). Only the owner and admins ask (they are the ones who remove); the answer keeps the
 * members asked about.
 */
export async function workOfMembers(context: RequestContext, teamId: string, memberIds: readonly string[]): Promise<Record<string, MemberWork>> {
  const ids = [...memberIds];
  const work: Record<string, MemberWork> = Object.fromEntries(ids.map((id) => [id, { ...NO_WORK }]));
  if (ids.length === 0) return work;
  const members = context.db.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  const [byContacts, byDeals, byTasks, byActivities, byLeads] = await context.db.batch([
    context.db.select({ id: contacts.userId, n: count() }).from(contacts).where(inArray(contacts.userId, members)).groupBy(contacts.userId),
    context.db.select({ id: deals.userId, n: count() }).from(deals).where(inArray(deals.userId, members)).groupBy(deals.userId),
    context.db.select({ id: crmTasks.userId, n: count() }).from(crmTasks).where(inArray(crmTasks.userId, members)).groupBy(crmTasks.userId),
    context.db
      .select({ id: crmActivities.userId, n: count() })
      .from(crmActivities)
      .where(inArray(crmActivities.userId, members))
      .groupBy(crmActivities.userId),
    context.db
      .select({ id: teamLeads.heldBy, n: count() })
      .from(teamLeads)
      .where(and(eq(teamLeads.teamId, teamId), inArray(teamLeads.heldBy, members)))
      .groupBy(teamLeads.heldBy),
  ]);
  const put = (rows: { id: string | null; n: number }[], key: keyof MemberWork) => {
    for (const row of rows) if (row.id && work[row.id]) work[row.id]![key] = row.n;
  };
  put(byContacts, "contacts");
  put(byDeals, "deals");
  put(byTasks, "tasks");
  put(byActivities, "activities");
  put(byLeads, "leads");
  return work;
}
