import { env } from "cloudflare:workers";
import { createUser } from "./users";

// Accounts on shard 1 (ADR 0060): the Worker tests bind two databases, DB (shard 0, home, with the directory) and
// DB_SHARD_1.

/** Lists an agent whose rows live on shard 1 in the directory, as sign-up lists one. */
export async function listOnShard1(user: { id: string; email: string }) {
  await env.DB.prepare("insert into account_directory (user_id, email, shard) values (?, ?, 1)").bind(user.id, user.email).run();
}

/** An agent whose rows live on shard 1, listed there in the directory. */
export async function agentOnShard1() {
  const user = await createUser(env.DB_SHARD_1);
  await listOnShard1(user);
  return user;
}
