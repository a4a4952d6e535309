import { desc, eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";

export async function latestEmail(d1: D1Database, to: string) {
  return createDb(d1).select().from(emailOutbox).where(eq(emailOutbox.toAddress, to.toLowerCase())).orderBy(desc(emailOutbox.createdAt)).get();
}

/** The path and query of the first link to this app in the newest e-mail to `to`. */
export async function linkFromLatestEmail(d1: D1Database, to: string): Promise<string> {
  const email = await latestEmail(d1, to);
  const match = email?.textBody.match(/https?:\/\/[^\s]+/);
  if (!match) throw new Error(`no link in the latest e-mail to ${to}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}
