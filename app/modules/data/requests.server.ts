import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { gdprRequests, type GdprRequest } from "~/db/schema";
import type { GDPR_REQUEST_STATUSES, GDPR_REQUEST_TYPES } from "~/db/enums";

type RequestType = (typeof GDPR_REQUEST_TYPES)[number];
type RequestStatus = (typeof GDPR_REQUEST_STATUSES)[number];

/** Records a data request as it starts (spec section 3 "GDPR request"); returns its id. */
export async function openDataRequest(db: Db, userId: string, type: RequestType, description: string, now: Date): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(gdprRequests).values({ id, userId, type, description, status: "pending", createdAt: now });
  return id;
}

/** Marks the request done (or failed, or cancelled); only the owner's own request is touched. */
export async function finishDataRequest(
  db: Db,
  userId: string,
  id: string,
  status: Exclude<RequestStatus, "pending">,
  now: Date,
  description?: string,
): Promise<void> {
  await db
    .update(gdprRequests)
    .set({ status, completedAt: now, ...(description ? { description } : {}) })
    .where(and(eq(gdprRequests.id, id), eq(gdprRequests.userId, userId)));
}

/** The agent's own requests, newest first. */
export function listDataRequests(db: Db, userId: string, limit = 20): Promise<GdprRequest[]> {
  return db.select().from(gdprRequests).where(eq(gdprRequests.userId, userId)).orderBy(desc(gdprRequests.createdAt)).limit(limit);
}
