import { DAY_MS } from "~/lib/dates";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import {
  appliedChanges,
  dealShares,
  deals,
  teamHandovers,
  teamLeads,
  leadAlerts,
  pushOutbox,
  pushSubscriptions,
  teamInvitations,
  teamMembers,
  teams,
  teamRouting,
  teamRoutingRules,
  authTokens,
  backupRestores,
  backups,
  checkoutSessions,
  contacts,
  crmConfig,
  emailOutbox,
  gdprRequests,
  qaResults,
  qaRuns,
  statusIncidents,
  subscribers,
  trialClaims,
  users,
  aiDraftDays,
  durableJobs,
} from "~/db/schema";
import { ACCOUNT_DELETION_REQUEST, ACCOUNT_PURGE_DAYS, dueAccountPurges } from "~/modules/data/account.server";
import { KEPT_UNSIGNED } from "~/modules/data/tables";
import { moveToTrash } from "~/modules/trash/trash.server";
import { JOBS } from "../../workers/cron";
import { agentWithData, tablesWithAnAgentsId } from "../factories/agent-data";
import { runAccountPurges } from "../factories/queues";
import { signInAs, TestBrowser } from "../factories/browser";
import { latestEmail, linkFromLatestEmail } from "../factories/mail";
import { stripeEnv } from "../factories/stripe";
import { createUser, DEFAULT_PASSWORD } from "../factories/users";

// "Delete my account": the subscription ends, every session ends, sign-in is refused, and 30 days
// later the cron leaves no row of the user in any table; until then the e-mailed link keeps the account.

const db = createDb(env.DB);
const close = (browser: TestBrowser, password: string) => browser.post("/account/delete", { password });
const signIn = (browser: TestBrowser, email: string, password = DEFAULT_PASSWORD) =>
  browser.post("/auth", { mode: "signin", email, password, website_url: "" });
const purgeAt = async (userId: string) => (await db.select({ at: users.purgeAfter }).from(users).where(eq(users.id, userId)).get())?.at ?? null;
/** Every account the purge would take at `at`, not only the first few a run takes (other tests' included). */
const dueAt = (at: number) => dueAccountPurges(db, new Date(at), Number.MAX_SAFE_INTEGER);

/** Every row, in every table, that names the user by id or holds their e-mail address anywhere in its text. */
async function rowsOf(userId: string, email: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  const { results: tables } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%'",
  ).all<{ name: string }>();
  for (const { name } of tables) {
    const { results: columns } = await env.DB.prepare("select name, type from pragma_table_info(?)").bind(name).all<{ name: string; type: string }>();
    const text = columns.filter((c) => c.type.toLowerCase() === "text" || c.type === "");
    if (text.length === 0) continue;
    const binds = text.flatMap(() => [userId, email.toLowerCase()]);
    const clauses = text.map((c) => `(instr(coalesce("${c.name}", ''), ?) > 0 or instr(lower(coalesce("${c.name}", '')), ?) > 0)`).join(" or ");
    const row = await env.DB.prepare(`select count(*) as n from "${name}" where ${clauses}`)
      .bind(...binds)
      .first<{ n: number }>();
    if (row && row.n > 0) found[name] = row.n;
  }
  return found;
}

describe("Delete my account", () => {
  it("cancels the subscription, signs out every device, refuses sign-in with a fresh keep link, and records the request", async () => {
    const { user } = await agentWithData("Olga");
    const phone = await signInAs(user);
    const laptop = await signInAs(user);
    const page = await phone.get("/account/delete");
    expect(page.status).toBe(200);
    expect((await page.text()).replace(/<!-- -->/g, "")).toContain(`${ACCOUNT_PURGE_DAYS} days later every contact, deal, task, activity`);

    const response = await close(phone, user.password);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const at = await purgeAt(user.id);
    expect(at!.getTime() - Date.now()).toBeGreaterThan(ACCOUNT_PURGE_DAYS * DAY_MS - 60_000);
    expect(at!.getTime() - Date.now()).toBeLessThanOrEqual(ACCOUNT_PURGE_DAYS * DAY_MS);
    // Test mode: the subscription ends at once, as Stripe's deletion would end it.
    expect((await db.select().from(subscribers).where(eq(subscribers.userId, user.id)).get())!.subscriptionStatus).toBe("canceled");
    // Both devices are out; the data is still there until the purge.
    for (const browser of [phone, laptop]) {
      const dashboard = await browser.get("/dashboard");
      expect(dashboard.status).toBe(302);
      expect(dashboard.headers.get("Location")).toMatch(/^\/auth/);
    }
    expect((await env.DB.prepare("select count(*) as n from contacts where user_id = ?").bind(user.id).first<{ n: number }>())!.n).toBe(2);
    const [request] = await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id));
    expect(request).toMatchObject({ type: "erasure", status: "pending", description: ACCOUNT_DELETION_REQUEST });
    const mail = await latestEmail(env.DB, user.email);
    expect(mail).toMatchObject({ kind: "account_deletion", subject: "Your Porchlight account will be deleted" });
    expect(mail!.textBody).toContain("/account/keep?token=");

    // The right password says the account is closed and sends a new link; a wrong one says nothing more.
    const wrong = await signIn(new TestBrowser(), user.email, "not the password at all");
    expect(wrong.status).toBe(401);
    const right = await signIn(new TestBrowser(), user.email);
    expect(right.status).toBe(403);
    expect(await right.text()).toContain("This account was deleted and is waiting to be erased.");
    const mails = await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, user.id), eq(emailOutbox.kind, "account_deletion")));
    expect(mails).toHaveLength(2);
  });

  it("keeps the account through the e-mailed link, once: nothing is purged, sign-in works, the request is cancelled", async () => {
    const { user } = await agentWithData("Pavel");
    expect((await close(await signInAs(user), user.password)).status).toBe(302);
    const link = await linkFromLatestEmail(env.DB, user.email);
    expect(link).toMatch(/^\/account\/keep\?token=/);
    // Signing in sends another link; the first one still works.
    expect((await signIn(new TestBrowser(), user.email)).status).toBe(403);
    const second = await linkFromLatestEmail(env.DB, user.email);
    expect(second).not.toBe(link);

    // Opening the link changes nothing (mail scanners open links); the button does.
    const opened = await new TestBrowser().get(link);
    expect(opened.status).toBe(200);
    expect(await purgeAt(user.id)).not.toBeNull();
    const pastItsDate = Date.now() + (ACCOUNT_PURGE_DAYS + 1) * DAY_MS;
    expect(await dueAt(pastItsDate)).toContain(user.id);
    const token = new URL(link, "http://localhost").searchParams.get("token")!;
    const kept = await new TestBrowser().post("/account/keep", { token });
    expect(kept.status).toBe(302);
    expect(kept.headers.get("Location")).toBe("/auth");
    expect(await purgeAt(user.id)).toBeNull();
    const [request] = await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id));
    expect(request).toMatchObject({ status: "cancelled" });

    const again = await new TestBrowser().post("/account/keep", { token });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This link was already used.");
    // The other link finds nothing left to keep.
    const other = await new TestBrowser().post("/account/keep", { token: new URL(second, "http://localhost").searchParams.get("token")! });
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("This account is no longer scheduled for deletion");
    expect((await signIn(new TestBrowser(), user.email)).status).toBe(302);
    // Kept: the purge no longer counts the account due, even past the date it had.
    expect(await dueAt(pastItsDate)).not.toContain(user.id);
  });

  it("changes nothing without the right password, stops guessing after five tries, and turns strangers away", async () => {
    const { user } = await agentWithData("Quinn");
    const browser = await signInAs(user);
    for (const password of ["", "wrong password"]) {
      const response = await close(browser, password);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("That password is not correct. Your account was not deleted.");
    }
    for (let i = 0; i < 3; i++) expect((await close(browser, "still wrong")).status).toBe(400);
    const limited = await close(browser, user.password);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/Too many tries\. Please wait \d+ minutes\. Your account was not deleted\./);
    expect(await purgeAt(user.id)).toBeNull();
    expect((await db.select().from(subscribers).where(eq(subscribers.userId, user.id)).get())!.subscriptionStatus).toBe("active");
    expect((await browser.get("/dashboard")).status).toBe(200);

    const stranger = await new TestBrowser().post("/account/delete", { password: user.password });
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toMatch(/^\/auth/);
    const json = await browser.fetch("/account/delete", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
  });

  it("is open to an agent whose subscription has ended", async () => {
    const lapsed = await createUser(env.DB, { status: "canceled" });
    const browser = await signInAs(lapsed);
    expect((await browser.get("/account/delete")).status).toBe(200);
    expect((await close(browser, lapsed.password)).status).toBe(302);
    expect(await purgeAt(lapsed.id)).not.toBeNull();
  });

  it("cancels the subscription at Stripe, and changes nothing when Stripe cannot", async () => {
    for (const [subscription, expected] of [
      ["sub_live_" + crypto.randomUUID().slice(0, 8), 302],
      ["sub_gone_" + crypto.randomUUID().slice(0, 8), 302],
      ["sub_down_" + crypto.randomUUID().slice(0, 8), 502],
    ] as const) {
      const user = await createUser(env.DB);
      await db
        .update(subscribers)
        .set({ stripeCustomerId: `cus_${subscription}`, stripeSubscriptionId: subscription })
        .where(eq(subscribers.userId, user.id));
      const browser = (await signInAs(user)).using(stripeEnv());
      const response = await close(browser, user.password);
      expect(response.status, subscription).toBe(expected);
      const row = (await db.select().from(subscribers).where(eq(subscribers.userId, user.id)).get())!;
      if (expected === 302) {
        expect(row.subscriptionStatus).toBe("canceled");
        expect(await purgeAt(user.id)).not.toBeNull();
      } else {
        expect(await response.text()).toContain("Your subscription could not be cancelled at Stripe right now, so nothing was changed.");
        expect(row.subscriptionStatus).toBe("active");
        expect(await purgeAt(user.id)).toBeNull();
        expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id))).toEqual([]);
      }
    }
  });
});

describe("the 30-day purge", () => {
  it("runs from the five-minute cron", () => {
    expect(JOBS["*/5 * * * *"]?.map((job) => job.name)).toContain("accountPurgeJob");
  });

  it("leaves no row of the user in any table, only after 30 days, and another agent's rows untouched", async () => {
    const gone = await agentWithData("Rosa");
    const stays = await agentWithData("Sven");
    // Signed in before the seeding below turns two-factor sign-in on for them (a passkey row).
    const goneBrowser = await signInAs(gone.user);
    const now = Date.now();
    for (const { user } of [gone, stays]) {
      // A row in every other table that can hold an agent's id.
      await db.insert(crmConfig).values({ userId: user.id, dealStages: [] });
      await db.insert(checkoutSessions).values({
        id: `cs_${user.id}`,
        userId: user.id,
        provider: "test",
        billingPeriod: "monthly",
        withTrial: true,
        expiresAt: new Date(now + DAY_MS),
      });
      await db.insert(trialClaims).values({ emailKey: user.email, userId: user.id, claimedAt: new Date() });
      await db
        .insert(authTokens)
        .values({ id: `tok_${user.id}`, userId: user.id, purpose: "verify_email", secretHash: "x", expiresAt: new Date(now + DAY_MS) });
      await db.insert(statusIncidents).values({ component: "app", title: "Slow sign-in", openedAt: now, createdBy: user.id });
      await db.insert(emailOutbox).values({
        id: `mail_${user.id}`,
        userId: user.id,
        kind: "verify_email",
        toAddress: user.email,
        subject: "Confirm",
        textBody: "Hello",
        htmlBody: "<p>Hello</p>",
      });
      // A safety copy an admin's restore of the account took, and the restore's log (kept, unsigned).
      const safety = `safety-${crypto.randomUUID()}`;
      await db.insert(backups).values({ id: safety, type: "safety", status: "completed", startedAt: now, userId: user.id });
      await db
        .insert(backupRestores)
        .values({ id: crypto.randomUUID(), backupId: safety, userId: user.id, requestedBy: user.id, status: "completed", startedAt: now });
      // A long job (a restore drill) they started as an admin (kept, unsigned).
      await db
        .insert(durableJobs)
        .values({ id: crypto.randomUUID(), kind: "restore-drill", startedBy: user.id, status: "succeeded", createdAt: now, finishedAt: now });
      // A QA Dashboard run they started as an admin, and its result (kept, unsigned).
      const qaRun = crypto.randomUUID();
      await db.insert(qaRuns).values({ id: qaRun, userId: user.id, startedAt: now });
      await db.insert(qaResults).values({
        runId: qaRun,
        userId: user.id,
        category: "Storage",
        testName: "D1",
        status: "passed",
        details: "ok",
        durationMs: 1,
        createdAt: now,
      });
      // A change the phone sent from offline (its key; the contacts' triggers fill sync_log).
      await db.insert(appliedChanges).values({ userId: user.id, key: crypto.randomUUID(), result: { status: "applied" }, appliedAt: now });
      await db.insert(aiDraftDays).values({ userId: user.id, day: "2026-11-20", drafts: 3 });
      // A device with new-lead alerts on, and a new lead waiting.
      await db
        .insert(pushSubscriptions)
        .values({ id: crypto.randomUUID(), userId: user.id, endpoint: `https://push.fake.test/${user.id}`, p256dh: "k", auth: "a", createdAt: now });
      await db.insert(contacts).values({ id: `lead_${user.id}`, userId: user.id, name: "New Lead", leadAt: new Date(now) });
      // A lead they answered (who answered is kept with the contact: speed to lead is theirs).
      await db
        .insert(contacts)
        .values({ id: `answered_${user.id}`, userId: user.id, name: "Answered Lead", firstResponseAt: new Date(now), answeredBy: user.id });
      await db.insert(leadAlerts).values({ contactId: `lead_${user.id}`, userId: user.id, arrivedAt: now });
      await db.insert(pushOutbox).values({ id: `push_${user.id}`, userId: user.id, kind: "lead_alert", title: "t", body: "b", url: "/", tag: "x" });
      // A team they own, with an invitation they sent and accepted themselves.
      await db.insert(teams).values({ id: `team_${user.id}`, ownerId: user.id, name: "Purge Team" });
      await db.insert(teamMembers).values({ teamId: `team_${user.id}`, userId: user.id, role: "owner", joinedAt: new Date(now) });
      await db.insert(teamInvitations).values({
        id: `inv_${user.id}`,
        teamId: `team_${user.id}`,
        email: `invited-${user.id}@example.com`,
        role: "agent",
        secretHash: "x",
        invitedBy: user.id,
        acceptedBy: user.id,
        expiresAt: new Date(now + DAY_MS),
      });
      // The team's rotation pointer, an ownership offer to them, and a lead they added and were given.
      await db
        .update(teams)
        .set({ lastAssignedTo: user.id, pendingOwnerId: user.id, pendingOwnerAt: new Date() })
        .where(eq(teams.id, `team_${user.id}`));
      await db.insert(teamLeads).values({
        id: `tl_${user.id}`,
        teamId: `team_${user.id}`,
        name: "Pond Lead",
        source: "website",
        state: "assigned",
        addedBy: user.id,
        assignedTo: user.id,
        heldBy: user.id,
        assignedAt: new Date(now),
      });
      // The routing's turn-taking pointers (ADR 0078): a rule's group and the after-hours group.
      await db.insert(teamRoutingRules).values({
        id: `rule_${user.id}`,
        teamId: `team_${user.id}`,
        position: 1,
        target: { kind: "group", agents: [user.id] },
        lastAssignedTo: user.id,
      });
      await db.insert(teamRouting).values({ teamId: `team_${user.id}`, afterHoursLast: user.id });
      // A handover of their work to themselves (both of its member columns), with its job (kept, unsigned).
      const handover = crypto.randomUUID();
      await db.insert(durableJobs).values({
        id: handover,
        kind: "handover",
        startedBy: user.id,
        subject: null,
        status: "succeeded",
        createdAt: now,
        finishedAt: now,
      });
      await db
        .insert(teamHandovers)
        .values({ id: handover, teamId: `team_${user.id}`, fromUserId: user.id, toUserId: user.id, bounds: {}, createdAt: now });
      // A deal of theirs shared with themselves as co-agent (both of deal_shares' agent columns).
      await db
        .insert(deals)
        .values({ id: `shared_${user.id}`, userId: user.id, title: "Shared", stage: "lead", position: "a0", commissionRate: 3, probability: 10 });
      await db.insert(dealShares).values({ dealId: `shared_${user.id}`, ownerId: user.id, agentId: user.id, sharePct: 10 });
      await signInAs(user).then((browser) => browser.post("/settings/export.json", { category: "contacts" }));
      // Something in the trash (a contact with its links): trash_items and trash_rows.
      await db.insert(contacts).values({ id: `trashed_${user.id}`, userId: user.id, name: "Trashed" });
      await moveToTrash(env.DB, user.id, "contact", [`trashed_${user.id}`]);
      // A lead e-mail to their intake address, and the property it asked about (lead intake, ADR 0065).
      const intake = `intake_${user.id}`;
      await env.DB.prepare("insert into lead_intake_addresses (id, user_id, key, created_at) values (?, ?, ?, ?)")
        .bind(intake, user.id, `key${user.id.replace(/-/g, "")}`, now)
        .run();
      await env.DB.prepare(
        `insert into lead_intake_messages (id, user_id, address_id, received_at, from_address, format, status, lead, body, auth, size)
         values (?, ?, ?, ?, 'lead@example.com', 'unknown', 'review', '{}', 'Hello', '{}', 5)`,
      )
        .bind(`intake_msg_${user.id}`, user.id, intake, now)
        .run();
      await env.DB.prepare("insert into properties (id, user_id, address) values (?, ?, '12 Oak St')").bind(`property_${user.id}`, user.id).run();
      await env.DB.prepare("insert into api_keys (id, user_id, name, key_hash, hint) values (?, ?, 'Zapier', ?, 'abcd')")
        .bind(`api_key_${user.id}`, user.id, `hash_${user.id}`)
        .run();
      // An instant first reply turned on for Zillow, and one sent to a contact of theirs (ADR 0068).
      await env.DB.prepare("insert into lead_reply_templates (id, user_id, source, enabled, subject, body) values (?, ?, 'zillow', 1, 'Hi', 'Hello')")
        .bind(`reply_template_${user.id}`, user.id)
        .run();
      await db.insert(contacts).values({ id: `replied_${user.id}`, userId: user.id, name: "Replied", email: "replied@example.com" });
      await env.DB.prepare("insert into lead_first_replies (id, user_id, contact_id, source, due_at, status) values (?, ?, ?, 'zillow', ?, 'sent')")
        .bind(`first_reply_${user.id}`, user.id, `replied_${user.id}`, now)
        .run();
      // A template of their own (ADR 0070).
      await env.DB.prepare(
        "insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', 'Hi', 'Hi', 'Hello {first name}')",
      )
        .bind(`template_${user.id}`, user.id)
        .run();
      // An e-mail they sent a contact of theirs (ADR 0071).
      await env.DB.prepare(
        `insert into contact_emails (id, user_id, contact_id, direction, via, from_address, to_address, subject, body, status, occurred_at)
         values (?, ?, ?, 'out', 'porchlight', 'agent@example.com', 'replied@example.com', 'Hi', 'Hello', 'sent', ?)`,
      )
        .bind(`contact_email_${user.id}`, user.id, `replied_${user.id}`, now)
        .run();
      // An action plan, a contact's run of it and its history (ADR 0072).
      await env.DB.prepare("insert into action_plans (id, user_id, name, steps) values (?, ?, 'Plan', '[]')").bind(`plan_${user.id}`, user.id).run();
      await env.DB.prepare(
        "insert into plan_runs (id, user_id, plan_id, plan_name, contact_id, steps, status, started_at) values (?, ?, ?, 'Plan', ?, '[]', 'running', ?)",
      )
        .bind(`run_${user.id}`, user.id, `plan_${user.id}`, `replied_${user.id}`, now)
        .run();
      await env.DB.prepare("insert into plan_run_events (id, run_id, user_id, kind, at) values (?, ?, ?, 'started', ?)")
        .bind(`event_${user.id}`, `run_${user.id}`, user.id, now)
        .run();
      // Their Gmail connection (ADR 0069): the tokens as stored, encrypted (the purge never reads them).
      await env.DB.prepare(
        "insert into gmail_connections (id, user_id, email, access_token, refresh_token, access_expires_at, scope) values (?, ?, ?, 'v1.a.b', 'v1.c.d', ?, 'gmail.send')",
      )
        .bind(`gmail_${user.id}`, user.id, `mailbox-${user.id}@gmail.test`, now)
        .run();
      // The audit log (ADR 0073): a security event of their own (no team, the e-mail as their name) and a row of their
      // team's log naming them as actor and subject.
      await env.DB.prepare(
        "insert into audit_events (id, team_id, actor_id, actor_label, subject_user_id, subject_label, action, ip, user_agent, created_at) values (?, null, ?, ?, ?, ?, 'account.signed_in', '203.0.113.9', 'Firefox', ?)",
      )
        .bind(`audit_own_${user.id}`, user.id, user.email, user.id, user.email, now)
        .run();
      await env.DB.prepare(
        'insert into audit_events (id, team_id, actor_id, actor_label, subject_user_id, subject_label, action, details, created_at) values (?, ?, ?, \'Purge Owner\', ?, ?, \'team.role_changed\', \'{"from":"agent","to":"admin"}\', ?)',
      ).bind(`audit_team_${user.id}`, `team_${user.id}`, user.id, user.id, user.email, now);
      // Their second factors and signed-in devices (ADR 0074).
      await env.DB.prepare("insert into totp_authenticators (user_id, secret, confirmed_at, last_step) values (?, 'v1.e.f', ?, 1)")
        .bind(user.id, now)
        .run();
      await env.DB.prepare("insert into recovery_codes (id, user_id, code_hash) values (?, ?, ?)")
        .bind(`recovery_${user.id}`, user.id, `hash_${user.id}`)
        .run();
      await env.DB.prepare("insert into passkeys (id, user_id, name, public_key, device_type) values (?, ?, 'Phone', 'pk', 'singleDevice')")
        .bind(`passkey_${user.id}`, user.id)
        .run();
      await env.DB.prepare("insert into session_devices (key, user_id, device, created_at, last_seen_at) values (?, ?, 'Chrome on Mac', ?, ?)")
        .bind(`session:${user.id}`, user.id, now, now)
        .run();
      // Their listing in the directory of accounts (sign-up writes it; the factory does not).
      await env.DB.prepare("insert into account_directory (user_id, email, shard) values (?, ?, 0)").bind(user.id, user.email).run();
      // The record of the account's move into this database (a team joined across databases).
      await env.DB.prepare(
        "insert into account_moves (id, user_id, from_shard, to_shard, invitation_id, team_id, role, state) values (?, ?, 1, 0, ?, ?, 'agent', 'done')",
      )
        .bind(crypto.randomUUID(), user.id, crypto.randomUUID(), crypto.randomUUID())
        .run();
    }
    const tables = await tablesWithAnAgentsId();
    const counted = async (userId: string) => {
      const left: Record<string, number> = {};
      for (const [table, owners] of tables) {
        for (const owner of owners) {
          const row = await env.DB.prepare(`select count(*) as n from "${table}" where "${owner}" = ?`).bind(userId).first<{ n: number }>();
          if (row!.n > 0) left[`${table}.${owner}`] = row!.n;
        }
      }
      return left;
    };
    // Every table holding an agent's id has a row of each of them before.
    const before = await counted(gone.user.id);
    const everyOwnerColumn = [...tables].flatMap(([table, owners]) => owners.map((owner) => `${table}.${owner}`)).sort();
    expect(Object.keys(before).sort(), "tables seeded for the purge").toEqual(everyOwnerColumn);
    const othersBefore = await counted(stays.user.id);

    expect((await close(goneBrowser, gone.user.password)).status).toBe(302);
    const due = (await purgeAt(gone.user.id))!.getTime();
    // A day early, it is not due and a run leaves it alone.
    expect(await dueAt(due - DAY_MS)).not.toContain(gone.user.id);
    expect((await runAccountPurges(new Date(due - DAY_MS))).queued).not.toContain(gone.user.id);
    expect(await counted(gone.user.id)).toEqual(expect.objectContaining({ "contacts.user_id": 5 }));

    // Due: the cron queues a hundred a run, the longest due first, and accounts other tests closed may be due before
    // this one. Runs go on as the cron's would until it is gone, the purge queue's consumer purging each it took.
    expect(await dueAt(due + 1000)).toContain(gone.user.id);
    const [deletionRequest] = await db
      .select({ id: gdprRequests.id })
      .from(gdprRequests)
      .where(and(eq(gdprRequests.userId, gone.user.id), eq(gdprRequests.type, "erasure")));
    const exists = async () => (await db.select({ id: users.id }).from(users).where(eq(users.id, gone.user.id)).get()) !== undefined;
    for (let runs = 1; await exists(); runs++) {
      const run = await runAccountPurges(new Date(due + 1000));
      expect(run.queued.length).toBeGreaterThanOrEqual(1);
      expect(run.queued.length).toBeLessThanOrEqual(100);
      expect(runs, "runs before the account was purged").toBeLessThan(100);
    }
    expect(await counted(gone.user.id), "rows left with the purged user's id").toEqual({});
    expect(await rowsOf(gone.user.id, gone.user.email), "rows naming the purged user anywhere").toEqual({});
    // The other agent keeps everything.
    expect(await counted(stays.user.id)).toEqual(othersBefore);

    // What is kept has no one's id: the deletion's record (now complete) and the status note.
    expect(Object.keys(KEPT_UNSIGNED).sort()).toEqual([
      "audit_events",
      "backup_restores",
      "backups",
      "durable_jobs",
      "gdpr_requests",
      "qa_results",
      "qa_runs",
      "status_incidents",
      "team_invitations",
    ]);
    const record = await db
      .select({ userId: gdprRequests.userId, type: gdprRequests.type, status: gdprRequests.status, description: gdprRequests.description })
      .from(gdprRequests)
      .where(eq(gdprRequests.id, deletionRequest!.id))
      .get();
    expect(record).toEqual({
      userId: null,
      type: "erasure",
      status: "completed",
      description: `${ACCOUNT_DELETION_REQUEST}: every row of the account deleted`,
    });
    // Nothing of it is left to do: the purge no longer lists it.
    expect(await dueAt(due + 1000)).not.toContain(gone.user.id);
  });
});

describe("the purge queue", () => {
  const exists = async (userId: string) => (await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get()) !== undefined;

  /**
   * A closed account whose 30 days ended at `due`, with a contact, its deletion request, and `rows` entries of the
   * phone's sync log: 500 rows a delete statement, so every 500 of them is one more query for the purge.
   */
  async function closedAccount(rows: number, due: Date) {
    const user = await createUser(env.DB);
    await db.insert(contacts).values({ id: `pq_${user.id}`, userId: user.id, name: "Purge Me" });
    for (let from = 0; from < rows; from += 100_000) {
      await env.DB.prepare(
        "with recursive n(i) as (select ? union all select i + 1 from n where i < ?) insert into sync_log (user_id, kind, row_id) select ?, 'contact', 'r' || i from n",
      )
        .bind(from + 1, Math.min(from + 100_000, rows), user.id)
        .run();
    }
    await db.update(users).set({ purgeAfter: due }).where(eq(users.id, user.id));
    const [request] = await db
      .insert(gdprRequests)
      .values({ id: crypto.randomUUID(), userId: user.id, type: "erasure", description: ACCOUNT_DELETION_REQUEST, status: "pending" })
      .returning({ id: gdprRequests.id });
    return { ...user, requestId: request!.id };
  }

  /** What a finished purge leaves: no row naming the user anywhere, and the deletion's record completed, unsigned. */
  async function expectPurged(user: Awaited<ReturnType<typeof closedAccount>>) {
    expect(await exists(user.id)).toBe(false);
    expect(await rowsOf(user.id, user.email), "rows naming the purged user anywhere").toEqual({});
    expect(
      await db
        .select({ userId: gdprRequests.userId, status: gdprRequests.status })
        .from(gdprRequests)
        .where(eq(gdprRequests.id, user.requestId))
        .get(),
    ).toEqual({ userId: null, status: "completed" });
  }

  it("purges an account too big for one invocation a slice at a time, each slice inside D1's limits with no exemption", async () => {
    const now = new Date();
    // 1,020 delete statements' worth of rows: past 1,000 queries in one invocation.
    const user = await closedAccount(510_000, new Date(now.getTime() - DAY_MS));
    let slices = 0;
    let mostQueries = 0;
    for (let runs = 1; await exists(user.id); runs++) {
      const run = await runAccountPurges(now);
      slices += run.delivered;
      mostQueries = Math.max(mostQueries, run.mostQueries);
      expect(runs, "cron runs before the account was purged").toBeLessThan(5);
    }
    expect(slices).toBeGreaterThanOrEqual(3);
    expect(mostQueries).toBeGreaterThan(0);
    expect(mostQueries).toBeLessThanOrEqual(1_000);
    await expectPurged(user);
  }, 120_000);

  it("finishes a purge stopped part-way with the same end state, once its lease is over, and the account can no longer be kept", async () => {
    const now = Date.now();
    // Due before anything other tests close, so it is the first message the cron queues.
    const user = await closedAccount(250_000, new Date("2000-01-01T00:00:00Z"));
    const first = await runAccountPurges(new Date(now), 1);
    expect(first.queued[0]).toBe(user.id);
    expect(first.delivered).toBe(1);
    // The consumer stopped after its first slice: the account is half gone, and what it queued next was lost.
    expect(await exists(user.id)).toBe(true);
    const left = await env.DB.prepare("select count(*) as n from sync_log where user_id = ?").bind(user.id).first<{ n: number }>();
    expect(left!.n).toBeGreaterThan(0);
    expect(left!.n).toBeLessThan(250_000);
    // Under way, it cannot be kept any more (the keep link's statement finds nothing to keep).
    expect((await db.select({ queuedAt: users.purgeQueuedAt }).from(users).where(eq(users.id, user.id)).get())?.queuedAt).not.toBeNull();

    // Half an hour on, the purge is still taken to be under way; an hour after its last slice the cron queues it again.
    expect((await runAccountPurges(new Date(now + 30 * 60_000), 0)).queued).not.toContain(user.id);
    const resumed = await runAccountPurges(new Date(now + 61 * 60_000));
    expect(resumed.queued).toContain(user.id);
    await expectPurged(user);
  }, 120_000);
});
