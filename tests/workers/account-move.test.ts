import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import {
  agentProfiles,
  commissionPlans,
  contacts,
  crmActivities,
  crmTasks,
  deals,
  leadSourceCosts,
  teamInvitations,
  type DurableJob,
} from "~/db/schema";
import { D1_LIMIT_EXEMPTIONS } from "~/lib/d1-limits";
import { latestJobs } from "~/modules/jobs/durable-jobs.server";
import type { Env } from "~/lib/env.server";
import { copyMovePart, deleteMovedPart, latestMove, planMove, startAccountMove, switchMove } from "~/modules/shards/account-move.server";
import { INVITE_LINK_MESSAGES } from "~/modules/team/team.messages";
import { signInAs, TestBrowser } from "../factories/browser";
import { runDurableJob } from "../factories/durable-jobs";
import { linkFromLatestEmail } from "../factories/mail";
import { createUser, uniqueEmail } from "../factories/users";

// A team joined across databases (ADR 0060): an invitee whose account is in another database than the team's accepts,
// and a durable job copies their rows to the team's database (parents first, a chunk a statement, the cursor committed
// with each chunk), points the directory there and adds the membership, then deletes the old rows. Every step is
// metered by the limits harness (the worker tests enforce it).

const INVITES_ON = { ...(env as Env), FEATURE_FLAGS: "TEAM_INVITES=on" } as Env;
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
/** Contacts beyond the handful with deals and activities: copying them a row a query would pass 1,000 queries. */
const BULK_CONTACTS = 1_200;

/** A team whose owner lives in `d1` (shard `shard`), made through Settings as an owner makes one. */
async function ownerWithTeam(d1: D1Database, shard: number, name: string) {
  const owner = await createUser(d1);
  if (shard !== 0) await listOn(owner, shard);
  const browser = (await signInAs(owner)).using(INVITES_ON);
  const response = await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: name });
  expect(response.headers.get("Location")).toBe("/team");
  return { owner, browser };
}

async function listOn(user: { id: string; email: string }, shard: number) {
  await env.DB.prepare("insert into account_directory (user_id, email, shard) values (?, ?, ?)").bind(user.id, user.email, shard).run();
}

async function invite(browser: TestBrowser, d1: D1Database, email: string) {
  const response = await browser.post("/team", { intent: "invite", email, role: "agent" });
  expect(response.status, await response.clone().text()).toBe(302);
  return linkFromLatestEmail(d1, email);
}

/** An agent of their own (a Solo subscription) in `d1` with contacts, deals, tasks, activities and settings. */
async function agentWithData(d1: D1Database, shard: number, email: string) {
  const user = await createUser(d1, { email });
  if (shard !== 0) await listOn(user, shard);
  const db = createDb(d1);
  const id = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;
  const now = Date.now();
  const buyers = Array.from({ length: 6 }, (_, i) => ({
    id: id("c"),
    userId: user.id,
    name: `Buyer ${i}`,
    tags: ["move", i % 2 ? "vip" : "new"],
    status: (["hot", "warm", "cold"] as const)[i % 3],
    source: (["website", "referral"] as const)[i % 2],
    leadScore: 40 + i,
    leadScoredAt: new Date(now - 60_000),
    createdAt: new Date(now - (i + 1) * 86_400_000),
  }));
  await db.insert(contacts).values(buyers);
  await d1
    .prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into contacts (id, user_id, name, tags, status, source) select ? || i, ?, 'Lead ' || i, '["bulk"]', 'cold', 'zillow' from n`,
    )
    .bind(BULK_CONTACTS, `bulk-${user.id}-`, user.id)
    .run();
  for (const [i, buyer] of buyers.entries()) {
    await db.insert(deals).values({
      id: id("d"),
      userId: user.id,
      contactId: buyer.id,
      title: `${i} Oak St`,
      stage: i % 2 ? "offer" : "showing",
      position: `a${i}`,
      dealValueCents: 40_000_000 + i * 1_000_000,
      commissionRate: 3,
      probability: 50,
      stageChangedAt: new Date(now - i * 3_600_000),
    });
    await db.insert(crmTasks).values({ id: id("t"), userId: user.id, contactId: buyer.id, title: `Call ${i} back`, dueDate: "2026-06-05" });
    await db
      .insert(crmActivities)
      .values({ id: id("a"), userId: user.id, contactId: buyer.id, type: "call", occurredAt: new Date(now - i * 60_000), notes: `Talked ${i}` });
  }
  // A deal that moved on: two stays in its stage history.
  const moved = (await db.select().from(deals).where(eq(deals.userId, user.id)).limit(1))[0]!;
  await db
    .update(deals)
    .set({ stage: "under_contract", stageChangedAt: new Date(now) })
    .where(eq(deals.id, moved.id));
  // The lead scorer has scored every contact since (the deals' and activities' inserts had marked them stale).
  await d1
    .prepare("update contacts set lead_scored_at = ? where user_id = ?")
    .bind(now - 30_000, user.id)
    .run();
  await db.insert(agentProfiles).values({ userId: user.id, agentName: "Mover Agent", brokerage: "Mover Realty" });
  await db.insert(commissionPlans).values({ userId: user.id, brokerageSplitPct: 30 });
  await db.insert(leadSourceCosts).values({ userId: user.id, source: "website", month: "2026-06", costCents: 12_300 });
  return user;
}

const ROW_QUERIES: Record<string, string> = {
  users: "select id, email, password_hash, created_at from users where id = ?1",
  subscribers: "select * from subscribers where user_id = ?1",
  profiles: "select * from profiles where user_id = ?1",
  agent_profiles: "select * from agent_profiles where user_id = ?1",
  user_preferences: "select * from user_preferences where user_id = ?1",
  commission_plans: "select * from commission_plans where user_id = ?1",
  lead_source_costs: "select * from lead_source_costs where user_id = ?1 order by source, month",
  contacts:
    "select id, name, tags, status, source, lead_score, lead_scored_at, last_activity, first_response_at, answered_by, created_at, updated_at from contacts where user_id = ?1 order by id",
  deals: "select * from deals where user_id = ?1 order by id",
  deal_stage_history: "select deal_id, stage, entered_at, left_at from deal_stage_history where user_id = ?1 order by deal_id, entered_at",
  crm_tasks: "select * from crm_tasks where user_id = ?1 order by id",
  crm_activities: "select * from crm_activities where user_id = ?1 order by id",
  // The figures the triggers keep, and the pipeline's totals.
  contact_status_counts: "select status, n from contact_status_counts where user_id = ?1 and n > 0 order by status",
  contact_tag_counts: "select tag, n from contact_tag_counts where user_id = ?1 and n > 0 order by tag",
  contact_source_days: "select source, day, n from contact_source_days where user_id = ?1 and n > 0 order by source, day",
  lead_source_days: "select source, day, n from lead_source_days where user_id = ?1 and n > 0 order by source, day",
  contact_tags: "select contact_id, tag from contact_tags where user_id = ?1 order by contact_id, tag",
  pipeline: "select stage, count(*) as deals, sum(deal_value_cents) as value from deals where user_id = ?1 group by stage order by stage",
  search: "select count(*) as n from contacts_fts where contacts_fts match 'Buyer' and rowid in (select seq from contacts where user_id = ?1)",
};

/** The agent's rows and figures in one database, table by table. */
async function snapshot(d1: D1Database, userId: string) {
  const out: Record<string, unknown[]> = {};
  for (const [name, query] of Object.entries(ROW_QUERIES)) out[name] = (await d1.prepare(query).bind(userId).all()).results;
  return out;
}

/** Rows naming the agent in any table of a database (a user_id column, or users.id). */
async function rowsLeft(d1: D1Database, userId: string): Promise<Record<string, number>> {
  const { results: tables } = await d1
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%'")
    .all<{ name: string }>();
  const left: Record<string, number> = {};
  for (const { name } of tables) {
    const { results: columns } = await d1.prepare("select name from pragma_table_info(?)").bind(name).all<{ name: string }>();
    const owner = name === "users" ? "id" : columns.some((c) => c.name === "user_id") ? "user_id" : null;
    // The move's record, and the directory (the home database's, global).
    if (!owner || name === "account_moves" || name === "account_directory") continue;
    const row = await d1.prepare(`select count(*) as n from "${name}" where "${owner}" = ?`).bind(userId).first<{ n: number }>();
    if (row!.n > 0) left[name] = row!.n;
  }
  return left;
}

const directoryOf = (userId: string) =>
  env.DB.prepare("select shard, moving_to as movingTo from account_directory where user_id = ?")
    .bind(userId)
    .first<{ shard: number; movingTo: number | null }>();

const membersOf = (d1: D1Database, teamOwner: string) =>
  d1
    .prepare("select m.user_id as userId, m.role from team_members m join teams t on t.id = m.team_id where t.owner_id = ? order by m.joined_at")
    .bind(teamOwner)
    .all<{ userId: string; role: string }>()
    .then((r) => r.results);

type Modifier = Parameters<typeof runDurableJob>[3];

/** Accepts through the join page and runs the move the page started to its end. */
function joinAndMove(browser: TestBrowser, link: string, userId: string, modify?: Modifier): Promise<DurableJob> {
  return runDurableJob(
    env.ACCOUNT_MOVE_WORKFLOW,
    "account-move",
    async () => {
      const response = await browser.post(link, {});
      expect(response.status, await response.clone().text()).toBe(302);
      expect(response.headers.get("Location")).toBe(link);
      return latestMove(env as Env, userId);
    },
    modify,
  );
}

describe("a team joined across databases", () => {
  it("moves an invitee on shard 1 into the team's database (shard 0): same rows, same figures, none left behind", async () => {
    expect(D1_LIMIT_EXEMPTIONS.size).toBe(0);
    const { owner, browser: ownerBrowser } = await ownerWithTeam(env.DB, 0, "Harbor Homes");
    const email = uniqueEmail("mover");
    const link = await invite(ownerBrowser, env.DB, email);
    // The team is in the home database: its link's row id carries no shard.
    expect(new URL(link, "http://x").searchParams.get("token")).not.toMatch(/^s\d+_/);
    const member = await agentWithData(env.DB_SHARD_1, 1, email);
    const before = await snapshot(env.DB_SHARD_1, member.id);
    expect(before.contacts).toHaveLength(BULK_CONTACTS + 6);
    expect(before.deal_stage_history).toHaveLength(7);

    const browser = await signInAs(member);
    expect(await browser.page(link)).toContain("Join Harbor Homes");
    const job = await joinAndMove(browser, link, member.id);
    expect(job).toMatchObject({ kind: "account-move", status: "succeeded", error: null, subject: member.id });
    // The 1,206 contacts, 6 deals, 7 stays in their stages, 6 tasks, 6 activities and the account's own rows, with the
    // signed-in device of the session that accepted (ADR 0074), so the device list reads the same after the move.
    expect(job.result).toBe("1,239 rows moved.");

    // The agents' moves stay out of the Operations Center's jobs, which a busy week of them would crowd out.
    expect(await latestJobs(createDb(env.DB))).not.toHaveProperty("account-move");
    expect(await directoryOf(member.id)).toEqual({ shard: 0, movingTo: null });
    expect(await snapshot(env.DB, member.id)).toEqual(before);
    expect(await rowsLeft(env.DB_SHARD_1, member.id)).toEqual({});
    expect(await membersOf(env.DB, owner.id)).toEqual([
      { userId: owner.id, role: "owner" },
      { userId: member.id, role: "agent" },
    ]);
    const invitation = await createDb(env.DB).select().from(teamInvitations).where(eq(teamInvitations.email, email)).get();
    expect(invitation?.acceptedBy).toBe(member.id);

    // The member reads the team's database from the next request; the team sees them.
    const done = await browser.page(link);
    expect(done).toContain("Your account has moved and you are on the team now.");
    const buyer = await env.DB.prepare("select id from contacts where user_id = ? and name = 'Buyer 3'").bind(member.id).first<{ id: string }>();
    expect(await browser.page(`/contacts/${buyer!.id}`)).toContain("Buyer 3");
    expect(await ownerBrowser.page("/team")).toContain(email);
    // The link is used up.
    const again = await browser.post(link, {});
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.used));
  }, 120_000);

  it("an invitation of a team on shard 1 names its database; an invitee at home moves there", async () => {
    const { owner, browser: ownerBrowser } = await ownerWithTeam(env.DB_SHARD_1, 1, "Far Realty");
    const email = uniqueEmail("far-mover");
    const link = await invite(ownerBrowser, env.DB_SHARD_1, email);
    expect(new URL(link, "http://x").searchParams.get("token")).toMatch(/^s1_/);
    // An account made before the directory: no listing, it lives at home.
    const member = await agentWithData(env.DB, 0, email);
    const before = await snapshot(env.DB, member.id);
    const browser = await signInAs(member);
    expect(await browser.page(link)).toContain("Join Far Realty");

    const job = await joinAndMove(browser, link, member.id);
    expect(job.status).toBe("succeeded");
    expect(await directoryOf(member.id)).toEqual({ shard: 1, movingTo: null });
    expect(await snapshot(env.DB_SHARD_1, member.id)).toEqual(before);
    expect(await rowsLeft(env.DB, member.id)).toEqual({});
    expect((await membersOf(env.DB_SHARD_1, owner.id)).map((m) => m.userId)).toEqual([owner.id, member.id]);
  }, 120_000);

  it("a move stopped part-way (a copy step and a delete step each fail once) resumes and ends the same", async () => {
    const { owner } = await ownerWithTeam(env.DB, 0, "Retry Realty");
    const email = uniqueEmail("retry-mover");
    const member = await agentWithData(env.DB_SHARD_1, 1, email);
    const before = await snapshot(env.DB_SHARD_1, member.id);
    const invitation = { id: crypto.randomUUID(), secretHash: "retry-secret", role: "agent" };
    const teamId = (await env.DB.prepare("select id from teams where owner_id = ?").bind(owner.id).first<{ id: string }>())!.id;
    await env.DB.prepare(
      "insert into team_invitations (id, team_id, email, role, secret_hash, invited_by, expires_at) values (?, ?, ?, 'agent', ?, ?, ?)",
    )
      .bind(invitation.id, teamId, email, invitation.secretHash, owner.id, Date.now() + 86_400_000)
      .run();
    // Small chunks and steps, so the copy takes many parts; a failing part is retried by the workflow.
    const job = await runDurableJob(
      env.ACCOUNT_MOVE_WORKFLOW,
      "account-move",
      async () => {
        const started = await startAccountMove(
          env as Env,
          { userId: member.id, email, from: 1, to: 0, invitation: { ...invitation, teamId } },
          { rowsPerChunk: 50, chunksPerStep: 4 },
        );
        return started.ok ? started.job : null;
      },
      async (m) => {
        await m.mockStepError({ name: "copy part 2" }, new Error("the Worker stopped"), 1);
        await m.mockStepError({ name: "copy part 7" }, new Error("the Worker stopped"), 1);
        await m.mockStepError({ name: "delete part 0" }, new Error("the Worker stopped"), 1);
      },
    );
    expect(job).toMatchObject({ status: "succeeded", error: null });
    expect(await directoryOf(member.id)).toEqual({ shard: 0, movingTo: null });
    expect(await snapshot(env.DB, member.id)).toEqual(before);
    expect(await rowsLeft(env.DB_SHARD_1, member.id)).toEqual({});
  }, 120_000);

  it("a copy step stopped between two of its chunks resumes after the last chunk that committed, with no duplicate", async () => {
    const { owner } = await ownerWithTeam(env.DB, 0, "Cut Realty");
    const email = uniqueEmail("cut-mover");
    const member = await agentWithData(env.DB_SHARD_1, 1, email);
    const before = await snapshot(env.DB_SHARD_1, member.id);
    const teamId = (await env.DB.prepare("select id from teams where owner_id = ?").bind(owner.id).first<{ id: string }>())!.id;
    const invitationId = crypto.randomUUID();
    await env.DB.prepare(
      "insert into team_invitations (id, team_id, email, role, secret_hash, invited_by, expires_at, accepted_at) values (?, ?, ?, 'agent', 'cut', ?, ?, ?)",
    )
      .bind(invitationId, teamId, email, owner.id, Date.now() + 86_400_000, Date.now())
      .run();
    const params = { jobId: crypto.randomUUID(), userId: member.id, from: 1, to: 0, rowsPerChunk: 7, chunksPerStep: 20 };
    await env.DB.prepare(
      "insert into account_moves (id, user_id, from_shard, to_shard, invitation_id, team_id, role) values (?, ?, 1, 0, ?, ?, 'agent')",
    )
      .bind(params.jobId, member.id, invitationId, teamId)
      .run();
    await env.DB.prepare(
      "insert into account_directory (user_id, email, shard, moving_to) values (?, ?, 1, 0) on conflict (user_id) do update set moving_to = 0",
    )
      .bind(member.id, email)
      .run();
    const plan = await planMove(env as Env, params);
    // The Worker stops after the seventh chunk's batch of a step committed, before the eighth.
    let batches = 0;
    const cut = new Proxy(env.DB, {
      get(target, key) {
        if (key === "batch")
          return (statements: D1PreparedStatement[]) => {
            if (++batches === 8) throw new Error("the Worker stopped");
            return target.batch(statements);
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(copyMovePart({ ...(env as Env), DB: cut }, params, plan)).rejects.toThrow("the Worker stopped");
    const cursor = await env.DB.prepare("select pass, after_rowid as after from account_moves where id = ?")
      .bind(params.jobId)
      .first<{ pass: number; after: number }>();
    expect(cursor!.pass + cursor!.after).toBeGreaterThan(0);
    for (let part = 0; !(await copyMovePart(env as Env, params, plan)).done; part++) expect(part).toBeLessThan(1_000);
    await switchMove(env as Env, params);
    while (!(await deleteMovedPart(env as Env, params)));
    expect(await directoryOf(member.id)).toEqual({ shard: 0, movingTo: null });
    expect(await snapshot(env.DB, member.id)).toEqual(before);
    expect(await rowsLeft(env.DB_SHARD_1, member.id)).toEqual({});
  }, 120_000);

  it("a copy that fails for good is undone: the account stays where it was, and the invitation works again", async () => {
    const { owner, browser: ownerBrowser } = await ownerWithTeam(env.DB, 0, "Undo Realty");
    const email = uniqueEmail("undo-mover");
    const link = await invite(ownerBrowser, env.DB, email);
    const member = await agentWithData(env.DB_SHARD_1, 1, email);
    const before = await snapshot(env.DB_SHARD_1, member.id);
    const browser = await signInAs(member);
    const job = await joinAndMove(browser, link, member.id, async (m) => {
      await m.mockStepError({ name: "copy part 0" }, new Error("the database is full"));
    });
    expect(job).toMatchObject({ status: "failed", error: "the database is full" });
    expect(await directoryOf(member.id)).toEqual({ shard: 1, movingTo: null });
    expect(await snapshot(env.DB_SHARD_1, member.id)).toEqual(before);
    expect(await rowsLeft(env.DB, member.id)).toEqual({});
    expect((await membersOf(env.DB, owner.id)).map((m) => m.userId)).toEqual([owner.id]);
    const page = await browser.page(link);
    expect(page).toContain("did not finish (the database is full)");
    expect(page).toContain("Join Undo Realty");
  }, 120_000);

  it("while the account moves it is read-only: a write is refused and changes nothing, pages still read", async () => {
    const member = await createUser(env.DB_SHARD_1);
    await env.DB.prepare("insert into account_directory (user_id, email, shard, moving_to) values (?, ?, 1, 0)").bind(member.id, member.email).run();
    const browser = await signInAs(member);
    const refused = await browser.post("/contacts", { intent: "create", name: "During the move", status: "warm", source: "other" });
    expect(refused.status).toBe(423);
    expect(await refused.text()).toContain("Your account is moving to your team's database");
    const row = await env.DB_SHARD_1.prepare("select count(*) as n from contacts where user_id = ?").bind(member.id).first<{ n: number }>();
    expect(row!.n).toBe(0);
    expect((await browser.get("/contacts")).status).toBe(200);
  });

  it("refuses a revoked or used invitation and another user's link across databases, starting nothing", async () => {
    const { browser: ownerBrowser } = await ownerWithTeam(env.DB, 0, "Guarded Realty");
    const email = uniqueEmail("guarded");
    const link = await invite(ownerBrowser, env.DB, email);
    const member = await agentWithData(env.DB_SHARD_1, 1, email);
    const browser = await signInAs(member);

    // Another user's link: someone on shard 1 with another address.
    const stranger = await createUser(env.DB_SHARD_1);
    await listOn(stranger, 1);
    const strangerBrowser = await signInAs(stranger);
    const wrong = await strangerBrowser.post(link, {});
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.wrongEmail(email)));
    expect(await latestMove(env as Env, stranger.id)).toBeNull();
    expect(await directoryOf(stranger.id)).toEqual({ shard: 1, movingTo: null });

    // Revoked.
    const invitation = (await createDb(env.DB).select().from(teamInvitations).where(eq(teamInvitations.email, email)).get())!;
    expect((await ownerBrowser.post("/team", { intent: "revoke", invitationId: invitation.id })).status).toBe(302);
    const revoked = await browser.post(link, {});
    expect(revoked.status).toBe(400);
    expect(await revoked.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.revoked));
    expect(await latestMove(env as Env, member.id)).toBeNull();
    expect(await directoryOf(member.id)).toEqual({ shard: 1, movingTo: null });
    expect(await rowsLeft(env.DB, member.id)).toEqual({});

    // Used: taken by another try at the same moment (the link checks out, the conditional take finds it accepted).
    const fresh = await invite(ownerBrowser, env.DB, email);
    const pending = (await createDb(env.DB).select().from(teamInvitations).where(eq(teamInvitations.email, email)).all()).find((i) => !i.revokedAt)!;
    const taken = await startAccountMove(env as Env, {
      userId: member.id,
      email,
      from: 1,
      to: 0,
      invitation: { id: pending.id, secretHash: "not the secret", teamId: pending.teamId, role: "agent" },
    });
    expect(taken).toEqual({ ok: false, reason: "used" });
    expect(await directoryOf(member.id)).toEqual({ shard: 1, movingTo: null });
    expect(fresh).toContain("/team/join?token=");
  });
});
