import { DAY_MS } from "~/lib/dates";
import { env } from "cloudflare:workers";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { d1MeterOf, limitD1 } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { contacts } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { deleteActivity, logActivity } from "~/modules/activities/activities.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact, getContact, listContacts, updateContact } from "~/modules/contacts/contacts.server";
import { importContacts } from "~/modules/contacts/import.server";
import { scoreLead } from "~/modules/contacts/lead-score";
import { refreshLeadScores, refreshStaleScores, rescoreAging, withCurrentScore } from "~/modules/contacts/lead-score.server";
import { createDeal, moveDeal } from "~/modules/deals/deals.server";
import { JOBS } from "../../workers/cron";
import { updateLeadScores } from "../../workers/cron/lead-score.job";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { dealInput } from "../factories/deals";
import { activityInput } from "../factories/tasks";
import { createUser } from "../factories/users";

const db = () => createDb(env.DB);
const owner = async () => (await createUser(env.DB)).id as UserId;
const input = (fields: Record<string, unknown>) => ContactInputSchema.parse({ email: `lead-${crypto.randomUUID()}@example.com`, ...fields });
const decode = (html: string) => html.replace(/<!-- -->/g, "");
const ok = <T extends { ok: boolean }>(result: T) => {
  if (!result.ok) throw new Error(`expected success: ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
};
/** A calendar day `days` before the agent's today (in their timezone), as the log-activity form sends it. */
const dayBefore = (days: number) => dayFromToday(-days);
const row = (id: string) => db().select().from(contacts).where(eq(contacts.id, id)).get();

/** A D1 binding that records every statement's SQL and bound values, passing them to the real D1. */
function recordingD1(real: D1Database) {
  const seen: { sql: string; params: unknown[] }[] = [];
  const d1 = new Proxy(real, {
    get(target, property) {
      if (property === "prepare") {
        return (text: string) => {
          const entry = { sql: text, params: [] as unknown[] };
          seen.push(entry);
          const statement = target.prepare(text);
          return new Proxy(statement, {
            get(s, p) {
              if (p === "bind") return (...params: unknown[]) => ((entry.params = params), s.bind(...params));
              const value = Reflect.get(s, p);
              return typeof value === "function" ? value.bind(s) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1, seen };
}

describe("lead scores in storage", () => {
  it("scores a new contact at once, created or imported", async () => {
    const userId = await owner();
    const before = Date.now();
    const dana = await createContact(
      requestContext(),
      userId,
      input({ name: "Dana", status: "hot", source: "referral", budgetMin: 400000, budgetMax: 500000, phone: "555 0100" }),
    );
    expect(dana.leadScore).toBe(30 + 20 + 0 + 10 + 10 + 0 + 5);
    expect(dana.leadScoredAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(dana.leadScoreFactors.map((f) => f.reason)).toContain("Added today, no activity yet");

    await importContacts(requestContext(), userId, {
      rows: [
        ["Imported Hot", "hot@example.com", "hot", "Referral", "300000", "555 0101"],
        ["Imported Cold", "cold@example.com", "cold", "", "", ""],
      ],
      mapping: ["name", "email", "status", "source", "budget_max", "phone"],
      mode: "create",
    });
    const imported = (await listContacts(requestContext(), userId, { sort: "score" })).contacts.filter((c) => c.name.startsWith("Imported"));
    expect(imported.map((c) => [c.name, c.leadScore])).toEqual([
      ["Imported Hot", 30 + 20 + 8 + 10 + 5],
      ["Imported Cold", 5 + 20 + 2 + 3],
    ]);
    for (const c of imported) {
      expect(c.leadScoredAt!.getTime()).toBeGreaterThanOrEqual(before);
      expect(c.leadScoreFactors).toHaveLength(7);
      expect(c.leadScore).toBe(c.leadScoreFactors.reduce((sum, f) => sum + f.points, 0));
    }
    // Nothing is left for a refresh to do.
    expect(await refreshLeadScores(db(), userId)).toBe(0);
  });

  it("marks a contact stale when an activity, its status or a deal changes, and the next refresh rescores it", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const contact = await createContact(ctx, userId, input({ name: "Quinn", status: "cold", source: "website" }));
    const first = contact.leadScore;

    const logged = ok(await logActivity(ctx, userId, activityInput({ contactId: contact.id, date: dayBefore(2) })));
    expect((await row(contact.id))?.leadScoredAt).toBeNull();
    expect(await refreshLeadScores(db(), userId)).toBe(1);
    const afterActivity = (await row(contact.id))!;
    expect(afterActivity.leadScoredAt).not.toBeNull();
    expect(afterActivity.leadScoreFactors.find((f) => f.key === "engagement")).toMatchObject({ points: 4, reason: "1 activity in the last 90 days" });
    expect(afterActivity.leadScore).toBe(first + 4);

    await updateContact(ctx, userId, contact.id, { status: "hot" });
    expect((await row(contact.id))?.leadScoredAt).toBeNull();
    await refreshLeadScores(db(), userId);
    expect((await row(contact.id))?.leadScore).toBe(first + 4 + 25);

    const deal = ok(await createDeal(ctx, userId, dealInput({ contactId: contact.id, stage: "showing" }))).deal;
    expect((await row(contact.id))?.leadScoredAt).toBeNull();
    await refreshLeadScores(db(), userId);
    expect((await row(contact.id))?.leadScoreFactors.find((f) => f.key === "deals")).toMatchObject({ points: 10, reason: "1 open deal" });

    // Winning the deal closes it; the stage change it records is the deal's bookkeeping, not engagement.
    ok(await moveDeal(ctx, userId, deal.id, { stage: "closed_won", afterId: null, beforeId: null, lostReason: null }));
    await refreshLeadScores(db(), userId);
    const won = (await row(contact.id))!;
    expect(won.leadScoreFactors.find((f) => f.key === "deals")?.points).toBe(0);
    expect(won.leadScoreFactors.find((f) => f.key === "engagement")?.points).toBe(4);

    expect(await deleteActivity(ctx, userId, logged.activity.id)).toEqual({ ok: true });
    await refreshLeadScores(db(), userId);
    expect((await row(contact.id))?.leadScoreFactors.find((f) => f.key === "engagement")?.points).toBe(0);
  });

  it("never covers up a change that lands while a score is being computed", async () => {
    const userId = await owner();
    const contact = await createContact(requestContext(), userId, input({ name: "Raced" }));
    await updateContact(requestContext(), userId, contact.id, { status: "warm" });
    // The first batch claims and reads the stale rows; before the second (the write) lands, someone sets the
    // status to hot.
    let batches = 0;
    const racing = new Proxy(env.DB, {
      get(target, property) {
        if (property === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            batches += 1;
            if (batches === 2) await target.prepare("update contacts set status = 'hot' where id = ?").bind(contact.id).run();
            return target.batch(statements);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    expect(await refreshLeadScores(createDb(racing), userId)).toBe(0);
    expect(batches).toBe(2);
    const after = (await row(contact.id))!;
    expect(after.status).toBe("hot");
    // Still stale, so the next view scores the hot status.
    expect(after.leadScoredAt).toBeNull();
    await refreshLeadScores(db(), userId);
    expect((await row(contact.id))?.leadScoreFactors.find((f) => f.key === "status")?.reason).toBe("Hot status");
  });

  it("sorts by score, highest first, and pages through every contact once with cursors", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const statuses = ["hot", "warm", "cold"] as const;
    const sources = ["referral", "website", "other"] as const;
    // Two contacts of each kind: equal scores, so the id has to break ties for the cursor to be exact.
    for (let i = 0; i < 14; i++) {
      const kind = Math.floor(i / 2);
      await createContact(
        ctx,
        userId,
        input({ name: `Lead ${i}`, status: statuses[kind % 3], source: sources[Math.floor(kind / 3) % 3], budgetMax: kind % 2 ? 500000 : null }),
      );
    }
    const all = await db().select().from(contacts).where(eq(contacts.userId, userId));
    const expected = all.sort((a, b) => b.leadScore - a.leadScore || (a.id < b.id ? 1 : -1)).map((c) => c.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listContacts(ctx, userId, { sort: "score", cursor, limit: 4 });
      seen.push(...page.contacts.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);
    // Filters combine with it.
    const hot = await listContacts(ctx, userId, { sort: "score", filters: { status: "hot" } });
    expect(hot.contacts.every((c) => c.status === "hot")).toBe(true);
    expect(hot.contacts.map((c) => c.leadScore)).toEqual([...hot.contacts.map((c) => c.leadScore)].sort((a, b) => b - a));
  });

  it("reads and rescores only the signed-in user's contacts", async () => {
    const bobUser = await createUser(env.DB);
    const alice = await owner();
    const bob = bobUser.id as UserId;
    const mine = await createContact(requestContext(), alice, input({ name: "Alice Contact" }));
    const theirs = await createContact(requestContext(), bob, input({ name: "Bob Contact" }));
    await db()
      .update(contacts)
      .set({ leadScoredAt: null, leadScore: 1 })
      .where(inArray(contacts.id, [mine.id, theirs.id]));

    const { d1, seen } = recordingD1(env.DB);
    expect(await refreshLeadScores(createDb(d1), alice)).toBe(1);
    expect((await row(mine.id))?.leadScoredAt).not.toBeNull();
    expect(await row(theirs.id)).toMatchObject({ leadScoredAt: null, leadScore: 1 });
    // Every statement was about Alice: her id bound (or carried in the written rows), Bob's never.
    expect(seen.length).toBeGreaterThan(0);
    for (const statement of seen) {
      const values = JSON.stringify(statement.params);
      expect(values, statement.sql).toContain(alice);
      expect(values, statement.sql).not.toContain(bob);
    }

    // Through the app: Bob's list shows only his contact and leaves Alice's alone.
    await db().update(contacts).set({ leadScoredAt: null }).where(eq(contacts.id, mine.id));
    const bobBrowser = await signInAs(bobUser);
    const page = decode(await bobBrowser.page("/contacts"));
    expect(page).toContain("Bob Contact");
    expect(page).not.toContain("Alice Contact");
    expect((await row(mine.id))?.leadScoredAt).toBeNull();
    expect((await row(theirs.id))?.leadScoredAt).not.toBeNull();
  });

  it("refreshes at most `limit` per call, and costs one read when nothing is stale", async () => {
    const userId = await owner();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createContact(requestContext(), userId, input({ name: `Batch ${i}` })));
    await db().update(contacts).set({ leadScoredAt: null }).where(eq(contacts.userId, userId));
    expect(await refreshLeadScores(db(), userId, new Date(), 3)).toBe(3);
    expect(await refreshLeadScores(db(), userId, new Date(), 3)).toBe(2);
    const { d1, seen } = recordingD1(env.DB);
    expect(await refreshLeadScores(createDb(d1), userId)).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.sql).toMatch(/^select/i);
    // That one read finds nothing in the partial index of stale contacts: it reads none of the user's scored
    // contacts (the planner, left to itself, took an index on user_id and read them all).
    const measured = limitD1({ ...(env as Env), D1_LIMITS: "measure" }, "lead-score probe");
    expect(await refreshLeadScores(createDb(measured.DB), userId)).toBe(0);
    const report = d1MeterOf(measured.DB)!.report();
    expect(report.queries).toBe(1);
    expect(report.rowsRead).toBe(0);
  });

  it("shows the score on the list and explains it on the profile, rescored after a change", async () => {
    const agent = await createUser(env.DB);
    const userId = agent.id as UserId;
    const browser = await signInAs(agent);
    const contact = await createContact(requestContext(), userId, input({ name: "Morgan Shown", status: "warm", source: "open_house" }));
    ok(await logActivity(requestContext(), userId, activityInput({ contactId: contact.id, date: dayBefore(1) })));
    ok(await logActivity(requestContext(), userId, activityInput({ contactId: contact.id, date: dayBefore(3), type: "showing" })));
    const expected = 18 + 20 + 7 + 0 + 8 + 0 + 3;

    const list = decode(await (await browser.get("/contacts?sort=score")).text());
    expect(list).toContain(`aria-label="${expected} Medium, lead score out of 100"`);
    expect(list).toContain(`href="/contacts/${contact.id}#lead-score"`);

    await updateContact(requestContext(), userId, contact.id, { status: "hot" });
    const profile = decode(await (await browser.get(`/contacts/${contact.id}`)).text());
    expect(profile).toContain('id="lead-score"');
    expect(profile).toMatch(new RegExp(`role="meter"[^>]*aria-valuenow="${expected + 12}"`));
    expect(profile).toContain("Hot status");
    expect(profile).toContain("2 activities in the last 90 days");
    expect(profile).toContain("Met at an open house");
  });

  it("brings a score over a day old up to date on the profile", async () => {
    const userId = await owner();
    const contact = await createContact(requestContext(), userId, input({ name: "Aged" }));
    const tenDaysAgo = new Date(Date.now() - 10 * DAY_MS);
    // (Changing last_activity marks it stale; the score's time is set after that.)
    await env.DB.prepare("update contacts set last_activity = ?, created_at = ? where id = ?")
      .bind(tenDaysAgo.getTime(), tenDaysAgo.getTime(), contact.id)
      .run();
    await env.DB.prepare("update contacts set lead_scored_at = ? where id = ?")
      .bind(Date.now() - 2 * DAY_MS, contact.id)
      .run();
    const current = await withCurrentScore(db(), userId, (await getContact(requestContext(), userId, contact.id))!);
    expect(current.leadScoreFactors.find((f) => f.key === "recency")?.reason).toBe("Added 10 days ago, no activity yet");
    expect((await row(contact.id))?.leadScore).toBe(current.leadScore);
    // Another user's id gets nothing written.
    const stranger = await owner();
    const untouched = await withCurrentScore(db(), stranger, { ...current, leadScoredAt: new Date(0), leadScore: 99 });
    expect(untouched.leadScore).toBe(99);
  });
});

describe("the lead score cron job", () => {
  it("recomputes scores over a day old, oldest first, and the stale ones nobody viewed", async () => {
    const userId = await owner();
    const aged = await createContact(requestContext(), userId, input({ name: "Aged Cron", status: "warm" }));
    const stale = await createContact(requestContext(), userId, input({ name: "Stale Cron", status: "hot" }));
    const fresh = await createContact(requestContext(), userId, input({ name: "Fresh Cron" }));
    const twelveDaysAgo = Date.now() - 12 * DAY_MS;
    // Scored long ago (the oldest possible time, so the sweep reaches it first), with a score that no longer holds.
    await env.DB.prepare("update contacts set last_activity = ?, created_at = ? where id = ?")
      .bind(twelveDaysAgo, twelveDaysAgo - DAY_MS, aged.id)
      .run();
    await env.DB.prepare("update contacts set lead_scored_at = 1, lead_score = 3, lead_score_factors = '[]' where id = ?").bind(aged.id).run();
    await env.DB.prepare("update contacts set lead_scored_at = null, lead_score = 0 where id = ?").bind(stale.id).run();
    const freshBefore = (await row(fresh.id))!;

    // Other test files leave stale scores of their own in the shared database: sweep in bounded passes, as the
    // cron does, until this user's stale contact is reached (each pass scores at least one row or the loop ends).
    const now = new Date();
    const first = await updateLeadScores(db(), now, 50);
    expect(first.aged).toBeGreaterThanOrEqual(1);
    expect(first.stale).toBeGreaterThanOrEqual(1);
    for (let pass = 0; pass < 1_000 && (await row(stale.id))?.leadScoredAt == null; pass++) {
      const { aged, stale: scored } = await updateLeadScores(db(), now, 50);
      if (aged + scored === 0) break;
    }

    const agedAfter = (await row(aged.id))!;
    const expected = scoreLead(
      {
        status: "warm",
        budgetMin: null,
        budgetMax: null,
        lastActivity: twelveDaysAgo,
        createdAt: twelveDaysAgo - DAY_MS,
        activityCount90d: 0,
        source: "other",
        openDeals: 0,
        hasEmail: true,
        hasPhone: false,
      },
      now.getTime(),
    );
    expect(agedAfter.leadScore).toBe(expected.score);
    expect(agedAfter.leadScoreFactors).toEqual(expected.factors);
    expect(agedAfter.leadScoreFactors.find((f) => f.key === "recency")?.reason).toBe("Last activity 12 days ago");
    expect(agedAfter.leadScoredAt?.getTime()).toBe(now.getTime());
    expect((await row(stale.id))?.leadScore).toBe(30 + 20 + 2 + 3);
    // A score computed within the day is left as it is.
    expect((await row(fresh.id))?.leadScoredAt).toEqual(freshBefore.leadScoredAt);
  });

  it("runs from the worker's five-minute schedule", async () => {
    expect(JOBS["*/5 * * * *"]?.map((job) => job.name)).toContain("leadScoreJob");
  });

  it("bounds each pass", async () => {
    const userId = await owner();
    for (let i = 0; i < 3; i++) await createContact(requestContext(), userId, input({ name: `Bounded ${i}` }));
    await db().run(sql`update contacts set lead_scored_at = 2 where user_id = ${userId}`);
    expect(await rescoreAging(db(), new Date(), 2)).toBe(2);
    await db().run(sql`update contacts set lead_scored_at = null where user_id = ${userId}`);
    expect(await refreshStaleScores(db(), new Date(), 2)).toBe(2);
  });
});
