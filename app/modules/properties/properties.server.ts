import { desc, eq } from "drizzle-orm";
import { properties } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedByKeys } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

// The properties a contact asked about (lead intake writes them, ADR 0065), for the contact's page.

/** The contact's properties, newest first (at most 10), through the contact's index. */
export async function propertiesFor(context: RequestContext, userId: UserId, contactId: string) {
  return context.db
    .select({
      id: properties.id,
      address: properties.address,
      mlsNumber: properties.mlsNumber,
      priceCents: properties.priceCents,
      url: properties.url,
      source: properties.source,
    })
    .from(properties)
    .where(ownedByKeys(properties, userId, eq(properties.contactId, contactId)))
    .orderBy(desc(properties.createdAt))
    .limit(10);
}
