import { eq } from "drizzle-orm";
import { users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { verifyPassword } from "./password";
import type { UserId } from "./session.server";

/**
 * Whether `password` is the signed-in agent's own: asked again before anything destructive (Settings, closing the
 * account). Apart from sign-in and sign-up (accounts.server.ts), which the account lifecycle sits on top of.
 */
export async function isOwnPassword(context: RequestContext, userId: UserId, password: string): Promise<boolean> {
  const user = await context.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  return user !== undefined && (await verifyPassword(password, user.passwordHash));
}
