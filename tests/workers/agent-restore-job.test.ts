import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { backups } from "~/db/schema";
import { D1_LIMIT_EXEMPTIONS } from "~/lib/d1-limits";
import { createBackup } from "~/modules/backups/backup.server";
import { RESTORE_ROWS_PER_STEP } from "~/modules/backups/restore.server";
import { eraseCrmData } from "~/modules/data/erase.server";
import { runAgentRestore } from "../factories/durable-jobs";
import { createUser } from "../factories/users";

// An agent's restore as a durable job (ADR 0058): every step one invocation held to D1's limits by the harness (the
// worker tests run it enforcing), no exemption, a failed step retried alone, and the agent's rows swapped in one batch.

const db = createDb(env.DB);
/**
 * The agent's contacts. The inline restore staged 25 rows a statement in one invocation: 26,000 rows were 1,040
 * statements before its safety copy (52 pages) and its swap, past D1's 1,000 queries.
 */
const CONTACTS = 26_000;

describe("an agent's restore as a durable job", () => {
  let agent: string;
  let backupId: string;
  let before: unknown[];
  const rows = async () =>
    (await env.DB.prepare("select id, name, tags, created_at from contacts where user_id = ? order by id").bind(agent).all()).results;

  beforeAll(async () => {
    agent = (await createUser(env.DB)).id;
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into contacts (id, user_id, name, tags) select ? || '-' || i, ?, 'Lead ' || i, '[\"restore\"]' from n",
    )
      .bind(CONTACTS, `restore-${agent}`, agent)
      .run();
    before = await rows();
    backupId = (await createBackup(env, db, "manual")).id;
  }, 300_000);

  it("restores an account the inline restore could not (past 1,000 queries), every step inside D1's limits", async () => {
    expect(D1_LIMIT_EXEMPTIONS.size).toBe(0);
    await eraseCrmData(env.DB, agent);
    expect(await rows()).toEqual([]);
    const done = await runAgentRestore({ backupId, userId: agent, requestedBy: null });
    // The contacts and the two settings rows every account has.
    expect(done).toMatchObject({ status: "completed", errorMessage: null, rowCount: CONTACTS + 2 });
    expect(done.job).toMatchObject({ kind: "agent-restore", status: "succeeded", error: null, result: "26,002 rows restored." });
    expect(await rows()).toEqual(before);
    // The safety copy holds what the agent had just before (the two settings rows erasing leaves), and the staging is gone.
    const safety = await db.select().from(backups).where(eq(backups.id, done.safetyBackupId!)).get();
    expect(safety).toMatchObject({ type: "safety", status: "completed", userId: agent, rowCount: 2 });
    const staged = await env.DB.prepare("select count(*) as n from restore_rows where restore_id = ?").bind(done.id).first<{ n: number }>();
    expect(staged!.n).toBe(0);
  }, 300_000);

  it("retries a staging step that failed once and a safety copy step that failed once, to the same rows", async () => {
    await eraseCrmData(env.DB, agent);
    const done = await runAgentRestore({ backupId, userId: agent, requestedBy: null }, {}, async (m) => {
      await m.mockStepError({ name: `stage contacts from row ${RESTORE_ROWS_PER_STEP}` }, new Error("the Worker stopped"), 1);
      await m.mockStepError({ name: "safety copy: read contacts part 1" }, new Error("the Worker stopped"), 1);
    });
    expect(done).toMatchObject({ status: "completed", errorMessage: null, rowCount: CONTACTS + 2 });
    expect(done.job).toMatchObject({ status: "succeeded", error: null, result: "26,002 rows restored." });
    expect(await rows()).toEqual(before);
  }, 300_000);
});
