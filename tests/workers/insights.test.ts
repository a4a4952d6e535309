import { runInDurableObject } from "cloudflare:test";
import { SYSTEM_WHERE } from "~/modules/audit/audit.server";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, crmTasks, deals, userPreferences, type NewContact } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { logActivity } from "~/modules/activities/activities.server";
import { DEFAULT_DISPLAY_PREFERENCES, formatDay, formatMoneyCompact, isoDateIn } from "~/lib/format";
import { deleteContacts, setStatus, updateContact } from "~/modules/contacts/contacts.server";
import { createDeal, deleteDeal, updateDeal } from "~/modules/deals/deals.server";
import { insightVersion, loadInsightInputs, readInsights } from "~/modules/insights/insights.server";
import { saveStages } from "~/modules/pipeline/stages.server";
import { DEFAULT_STAGES } from "~/modules/pipeline/stages";
import { saveDisplayPreferences } from "~/modules/settings/preferences.server";
import type { InsightsCache } from "../../workers/durable-objects/insights.do";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { dealInput } from "../factories/deals";
import { activityInput } from "../factories/tasks";
import { createUser } from "../factories/users";

// Insights computed from D1 and cached in one Durable Object per user; any write to contacts,
// deals, tasks or activities (triggers raise the user's version) invalidates the cache.

const db = createDb(env.DB);
const DAY = 86_400_000;
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;
const owner = async () => (await createUser(env.DB)).id as UserId;

async function hotContact(userId: string, fields: Partial<NewContact> = {}) {
  const row: NewContact = {
    id: id("c"),
    userId,
    name: "Jane Doe",
    status: "hot",
    budgetMax: 500_000,
    lastActivity: new Date(Date.now() - 10 * DAY),
    createdAt: new Date(Date.now() - 30 * DAY),
    ...fields,
  };
  await db.insert(contacts).values(row);
  return row;
}

describe("insight inputs from D1", () => {
  it("takes hot contacts quiet more than 7 days in the agent's timezone, and only the owner's", async () => {
    const userId = await owner();
    const stranger = await owner();
    await db.update(userPreferences).set({ timezone: "America/Los_Angeles" }).where(eq(userPreferences.userId, userId));
    // 05:00 UTC on Nov 20 is 21:00 on Nov 19 in Los Angeles: today there is Nov 19.
    const at = new Date("2026-11-20T05:00:00Z");
    await hotContact(userId, { name: "Eight days", lastActivity: new Date("2026-11-11T20:00:00Z") }); // Nov 11 LA
    await hotContact(userId, { name: "Seven days", lastActivity: new Date("2026-11-12T20:00:00Z") }); // Nov 12 LA
    await hotContact(userId, { name: "Warm and quiet", status: "warm", lastActivity: new Date("2026-10-01T20:00:00Z") });
    await hotContact(stranger, { name: "Not yours", lastActivity: new Date("2026-10-01T20:00:00Z") });
    const inputs = await loadInsightInputs(db, userId, at);
    expect(inputs.today).toBe("2026-11-19");
    expect(inputs.hotQuiet.map((c) => [c.name, c.lastActivityDay])).toEqual([["Eight days", "2026-11-11"]]);
    expect(inputs.hotQuietCount).toBe(1);
  });

  it("reads open deals with their stage name, key dates and last activity, skipping won and lost", async () => {
    const userId = await owner();
    const base = { userId, position: "a0", commissionRate: 3, probability: 90, dealValueCents: 65_000_000 };
    await db.insert(deals).values([
      { ...base, id: id("d"), title: "Open one", stage: "under_contract", expectedCloseDate: "2026-11-25", inspectionDate: "2026-11-21" },
      { ...base, id: id("d"), title: "Won", stage: "closed_won" },
      { ...base, id: id("d"), title: "Lost", stage: "closed_lost" },
    ]);
    const inputs = await loadInsightInputs(db, userId, new Date("2026-11-20T15:00:00Z"));
    expect(inputs.openDeals).toHaveLength(1);
    expect(inputs.openDeals[0]).toMatchObject({
      title: "Open one",
      stageName: "Under Contract",
      keyDates: [{ label: "Inspection", day: "2026-11-21" }],
      lastActivityDay: null,
    });
  });
});

describe("the per-user insight cache", () => {
  it("answers from the Durable Object until a write raises the version, then recomputes", async () => {
    const userId = await owner();
    const context = requestContext();
    const jane = await hotContact(userId);

    const first = await readInsights(context, userId);
    expect(first.cached).toBe(false);
    expect(first.insights.map((i) => i.id)).toContain(`hot:${jane.id}`);
    const again = await readInsights(requestContext(), userId);
    expect(again).toMatchObject({ cached: true, computedAt: first.computedAt });

    // Logging a call with Jane: the trigger raises the version, the cache recomputes, the insight is gone.
    const before = await insightVersion(db, userId);
    // Today and 00:00 in the agent's own timezone (New York): the UTC day can be tomorrow there.
    const logged = await logActivity(
      requestContext(),
      userId,
      activityInput({ type: "call", contactId: jane.id, date: dayFromToday(0), time: "00:00" }),
    );
    expect(logged.ok).toBe(true);
    // A call made today, so already in the past (the UTC day would have dated it tomorrow in the evening).
    const [call] = await db.select({ occurredAt: crmActivities.occurredAt }).from(crmActivities).where(eq(crmActivities.contactId, jane.id)).all();
    expect(call!.occurredAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await insightVersion(db, userId)).toBeGreaterThan(before);
    const after = await readInsights(requestContext(), userId);
    expect(after.cached).toBe(false);
    expect(after.insights.map((i) => i.id)).not.toContain(`hot:${jane.id}`);
  });

  it("is invalidated by deal and task writes too", async () => {
    const userId = await owner();
    await readInsights(requestContext(), userId);
    const v0 = await insightVersion(db, userId);
    await db.insert(deals).values({ id: id("d"), userId, title: "New", stage: "lead", position: "a0", commissionRate: 3, probability: 10 });
    const v1 = await insightVersion(db, userId);
    expect(v1).toBeGreaterThan(v0);
    await db.insert(crmTasks).values({ id: id("t"), userId, title: "Call", dueDate: "2026-11-20" });
    expect(await insightVersion(db, userId)).toBeGreaterThan(v1);
    expect((await readInsights(requestContext(), userId)).cached).toBe(false);
  });

  it("keeps one object per user: another agent's writes do not touch mine, nor do their contacts appear", async () => {
    const me = await owner();
    const other = await owner();
    await hotContact(other, { name: "Their hot lead" });
    const mine = await readInsights(requestContext(), me);
    expect(mine.insights).toEqual([]);
    const v = await insightVersion(db, me);
    await hotContact(other, { name: "Another of theirs" });
    expect(await insightVersion(db, me)).toBe(v);
    expect((await readInsights(requestContext(), me)).cached).toBe(true);
    const stub = env.INSIGHTS.get(env.INSIGHTS.idFromName(me)) as unknown as DurableObjectStub<InsightsCache>;
    await runInDurableObject(stub, async (_instance, state) => {
      const rows = state.storage.sql.exec<{ value: string }>("select value from insights").toArray();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.value).not.toContain("Their hot lead");
    });
  });

  it("recomputes on a new day of the agent even without writes", async () => {
    const userId = await owner();
    const stub = env.INSIGHTS.get(env.INSIGHTS.idFromName(userId));
    const version = await insightVersion(db, userId);
    expect((await stub.read(userId, version, "2026-11-19")).cached).toBe(false);
    expect((await stub.read(userId, version, "2026-11-19")).cached).toBe(true);
    expect((await stub.read(userId, version, "2026-11-20")).cached).toBe(false);
  });
});

describe("insights on the pages", () => {
  it("shows the hot lead on the dashboard and the AI assistant, never another agent's", async () => {
    const user = await createUser(env.DB);
    const other = await owner();
    await hotContact(user.id, { name: "Rosa Quiet" });
    await hotContact(other, { name: "Stranger Danger" });
    const browser = await signInAs(user);
    for (const path of ["/dashboard", "/ai-assistant"]) {
      const html = await browser.page(path);
      expect(html).toContain("Follow up with Rosa Quiet");
      expect(html).not.toContain("Stranger Danger");
    }
  });
});

// Every input the insights read raises the version (migrations 0010 and 0011), so a change made
// anywhere shows on the very next read instead of the next day. Each test primes the cache, changes one
// input through the product's own write path, and expects the next read to be recomputed and to show it.
describe("every insight input invalidates the cache", () => {
  const HOUR = 3_600_000;
  const ids = (read: { insights: { id: string }[] }) => read.insights.map((i) => i.id);
  const find = (read: { insights: { id: string; title: string; description: string; impact: string | null }[] }, insightId: string) => {
    const hit = read.insights.find((i) => i.id === insightId);
    expect(hit, `insight ${insightId} in ${JSON.stringify(ids(read as never))}`).toBeDefined();
    return hit!;
  };
  async function primed(userId: UserId) {
    await readInsights(requestContext(), userId);
    const read = await readInsights(requestContext(), userId);
    expect(read.cached).toBe(true);
    return { read, version: await insightVersion(db, userId) };
  }
  async function reread(userId: UserId, version: number) {
    expect(await insightVersion(db, userId)).toBeGreaterThan(version);
    const read = await readInsights(requestContext(), userId);
    expect(read.cached).toBe(false);
    return read;
  }

  it("a contact's location (the market insight)", async () => {
    const userId = await owner();
    const a = await hotContact(userId, { location: "Austin", lastActivity: new Date() });
    const b = await hotContact(userId, { status: "warm", location: "austin ", lastActivity: new Date() });
    const { read, version } = await primed(userId);
    expect(find(read, "market:austin").title).toBe("Austin is where your buyers look");

    expect(await updateContact(requestContext(), userId, a.id, { location: "Denver" })).toBeDefined();
    const split = await reread(userId, version);
    expect(ids(split).filter((i) => i.startsWith("market:"))).toEqual([]);

    const v = await insightVersion(db, userId);
    await updateContact(requestContext(), userId, b.id, { location: "Denver" });
    expect(find(await reread(userId, v), "market:denver").title).toBe("Denver is where your buyers look");
  });

  it("a contact's name, budget and status", async () => {
    const userId = await owner();
    const jane = await hotContact(userId, { name: "Jane Before", budgetMax: 500_000 });
    const { read, version } = await primed(userId);
    expect(find(read, `hot:${jane.id}`).title).toBe("Follow up with Jane Before");

    await updateContact(requestContext(), userId, jane.id, { name: "Jane After", budgetMax: 800_000 });
    const renamed = find(await reread(userId, version), `hot:${jane.id}`);
    expect(renamed.title).toBe("Follow up with Jane After");
    expect(renamed.impact).toContain(formatMoneyCompact(800_000));

    const v = await insightVersion(db, userId);
    expect(await setStatus(requestContext(), userId, [jane.id], "cold")).toBe(1);
    expect(ids(await reread(userId, v))).not.toContain(`hot:${jane.id}`);
  });

  it("a deleted contact", async () => {
    const userId = await owner();
    const jane = await hotContact(userId);
    const { read, version } = await primed(userId);
    expect(ids(read)).toContain(`hot:${jane.id}`);
    expect(await deleteContacts(requestContext(), userId, [jane.id], SYSTEM_WHERE)).toBe(1);
    expect(ids(await reread(userId, version))).not.toContain(`hot:${jane.id}`);
  });

  it("the agent's currency", async () => {
    const userId = await owner();
    const jane = await hotContact(userId, { budgetMax: 500_000 });
    const { read, version } = await primed(userId);
    expect(find(read, `hot:${jane.id}`).impact).toContain(formatMoneyCompact(15_000, { currency: "USD" }));

    await saveDisplayPreferences(requestContext(), userId, { ...DEFAULT_DISPLAY_PREFERENCES, currency: "EUR" });
    const impact = find(await reread(userId, version), `hot:${jane.id}`).impact;
    expect(impact).toContain(formatMoneyCompact(15_000, { currency: "EUR" }));
    expect(impact).not.toContain("$");
  });

  it("the agent's date format", async () => {
    const userId = await owner();
    const jane = await hotContact(userId, { lastActivity: new Date(Date.now() - 20 * DAY) });
    const { read, version } = await primed(userId);
    const day = isoDateIn(jane.lastActivity!, DEFAULT_DISPLAY_PREFERENCES.timezone);
    expect(find(read, `hot:${jane.id}`).description).toContain(`last on ${formatDay(day, { dateFormat: "US" })}`);

    await saveDisplayPreferences(requestContext(), userId, { ...DEFAULT_DISPLAY_PREFERENCES, dateFormat: "EU" });
    expect(formatDay(day, { dateFormat: "EU" })).not.toBe(formatDay(day, { dateFormat: "US" }));
    expect(find(await reread(userId, version), `hot:${jane.id}`).description).toContain(`last on ${formatDay(day, { dateFormat: "EU" })}`);
  });

  it("the agent's timezone (which calendar day the last activity fell on)", async () => {
    const userId = await owner();
    // Last activity 7 days and x hours ago is 8 calendar days back in a timezone whose clock now reads
    // before x o'clock, and 7 (not quiet yet) in one 12 hours apart. x is 6 hours past the quiet zone's
    // current hour, so the outcome cannot flip while the test runs.
    const now = Date.now();
    const sinceMidnight = (offsetHours: number) => (now + offsetHours * HOUR) % DAY;
    const quietZone = sinceMidnight(0) < 12 * HOUR ? { name: "UTC", offset: 0 } : { name: "Etc/GMT-12", offset: 12 };
    const otherZone = quietZone.offset === 0 ? "Etc/GMT-12" : "UTC";
    const prefs = (timezone: string) => ({ ...DEFAULT_DISPLAY_PREFERENCES, timezone });
    await saveDisplayPreferences(requestContext(), userId, prefs(quietZone.name));
    const jane = await hotContact(userId, { lastActivity: new Date(now - 7 * DAY - (sinceMidnight(quietZone.offset) + 6 * HOUR)) });
    const { read, version } = await primed(userId);
    expect(ids(read)).toContain(`hot:${jane.id}`);

    await saveDisplayPreferences(requestContext(), userId, prefs(otherZone));
    expect(ids(await reread(userId, version))).not.toContain(`hot:${jane.id}`);
  });

  it("a stage's name", async () => {
    const userId = await owner();
    const deal = {
      id: id("d"),
      userId,
      title: "Slow Showing",
      stage: "showing",
      position: "a0",
      commissionRate: 3,
      probability: 40,
      dealValueCents: 40_000_000,
    };
    await db.insert(deals).values({ ...deal, stageChangedAt: new Date(Date.now() - 40 * DAY), createdAt: new Date(Date.now() - 40 * DAY) });
    const { read, version } = await primed(userId);
    expect(find(read, `risk:${deal.id}`).description).toContain("in Showing");

    const renamed = DEFAULT_STAGES.map((s) => (s.key === "showing" ? { ...s, name: "Viewings" } : { ...s }));
    expect((await saveStages(requestContext(), userId, renamed)).ok).toBe(true);
    const description = find(await reread(userId, version), `risk:${deal.id}`).description;
    expect(description).toContain("in Viewings");
    expect(description).not.toContain("in Showing");
  });

  it("a deal's value and its deletion", async () => {
    const userId = await owner();
    const created = await createDeal(requestContext(), userId, dealInput({ title: "Value deal", stage: "offer", dealValueCents: "500000" }));
    expect(created.ok).toBe(true);
    const dealId = created.ok ? created.deal.id : "";
    const { read, version } = await primed(userId);
    const weighted = (cents: number) => `Weighted pipeline: ${formatMoneyCompact(((cents / 100) * 60) / 100)}`;
    expect(find(read, "pipeline:weighted").title).toBe(weighted(500_000_00));

    const updated = await updateDeal(requestContext(), userId, dealId, dealInput({ title: "Value deal", stage: "offer", dealValueCents: "900000" }));
    expect(updated.ok).toBe(true);
    expect(find(await reread(userId, version), "pipeline:weighted").title).toBe(weighted(900_000_00));

    const v = await insightVersion(db, userId);
    expect(await deleteDeal(requestContext(), userId, dealId, SYSTEM_WHERE)).toBe(true);
    expect(ids(await reread(userId, v))).not.toContain("pipeline:weighted");
  });

  it("a lead-score recomputation (a write to contacts the insights do not read) keeps the cache", async () => {
    const userId = await owner();
    const jane = await hotContact(userId);
    const { version } = await primed(userId);
    await db.update(contacts).set({ leadScore: 77, leadScoredAt: new Date() }).where(eq(contacts.id, jane.id));
    expect(await insightVersion(db, userId)).toBe(version);
    expect((await readInsights(requestContext(), userId)).cached).toBe(true);
  });
});
