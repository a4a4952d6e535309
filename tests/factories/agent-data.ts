import { env } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import {
  agentProfiles,
  calendarFeeds,
  commissionPlans,
  contacts,
  crmActivities,
  crmTasks,
  deals,
  leadSourceCosts,
  type NewContact,
} from "~/db/schema";
import { createUser, type UserOptions } from "./users";

// An agent with a row in every kind of data they own (export, deletion and purge tests).

const db = createDb(env.DB);
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

/** An agent with a row in every category, and (by the same name) nothing in common with any other agent. */
export async function agentWithData(tag: string, options: UserOptions = {}) {
  const user = await createUser(env.DB, options);
  const contact: NewContact = {
    id: id("c"),
    userId: user.id,
    name: `${tag} Buyer`,
    email: `${tag.toLowerCase()}@example.com`,
    tags: ["vip", tag],
    status: "hot",
    source: "website",
  };
  await db.insert(contacts).values([contact, { id: id("c"), userId: user.id, name: `${tag} Seller`, status: "warm" }]);
  const now = new Date();
  const deal = {
    id: id("d"),
    userId: user.id,
    contactId: contact.id,
    title: `${tag} 12 Oak St`,
    stage: "offer",
    position: "a0",
    dealValueCents: 50_000_000,
    commissionRate: 3,
    probability: 60,
    createdAt: now,
    stageChangedAt: now,
  };
  await db.insert(deals).values(deal);
  await db.insert(crmTasks).values({ id: id("t"), userId: user.id, contactId: contact.id, title: `${tag} call back`, dueDate: "2026-06-05" });
  await db
    .insert(crmActivities)
    .values({ id: id("a"), userId: user.id, contactId: contact.id, type: "call", occurredAt: now, notes: `${tag} talked`, meta: { minutes: 5 } });
  await db.insert(agentProfiles).values({ userId: user.id, agentName: `${tag} Agent`, brokerage: `${tag} Realty` });
  await db.insert(commissionPlans).values({ userId: user.id, brokerageSplitPct: 30 });
  await db.insert(leadSourceCosts).values({ userId: user.id, source: "website", month: "2026-06", costCents: 12_300 });
  await db.insert(calendarFeeds).values({ userId: user.id, tokenHash: `hash-${tag}-${crypto.randomUUID()}` });
  return { user, contact, deal };
}

/** Every table with an agent's id: a user_id column, or a key to users. */
export async function tablesWithAnAgentsId(): Promise<Map<string, string[]>> {
  const { results: tables } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%'",
  ).all<{ name: string }>();
  const found = new Map<string, string[]>();
  for (const { name } of tables) {
    const { results: columns } = await env.DB.prepare(`select name from pragma_table_info(?)`).bind(name).all<{ name: string }>();
    const { results: keys } = await env.DB.prepare(`select "from" as col, "table" as target from pragma_foreign_key_list(?)`)
      .bind(name)
      .all<{ col: string; target: string }>();
    const owners = new Set([
      ...columns.filter((c) => c.name === "user_id").map((c) => c.name),
      ...keys.filter((k) => k.target === "users").map((k) => k.col),
    ]);
    if (owners.size > 0) found.set(name, [...owners]);
  }
  return found;
}
