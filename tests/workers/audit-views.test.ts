import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { auditEvents } from "~/db/schema";
import { DAY_MS } from "~/lib/dates";
import { AUDIT_RETENTION_DAYS, pruneAuditEvents } from "~/modules/audit/retention.server";
import { purgeAccount } from "~/modules/data/account.server";
import { signInAs } from "../factories/browser";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";

// The audit log's views (ADR 0073): the team's log for its owner and admins only, paged and filtered, its CSV the same
// rows; a user's own security events for them alone; a year's retention; what an account's purge leaves.

const db = () => createDb(env.DB);

/** `n` role changes in the team's log, a minute apart ending `now`, alternating Ada and Amara as their subject. */
async function seedRows(t: Awaited<ReturnType<typeof team>>, n: number, now: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `${t.teamId}-${String(i).padStart(3, "0")}`,
    teamId: t.teamId,
    actorId: t.owner.id,
    actorLabel: "Olu Okafor",
    subjectUserId: i % 2 ? t.admin.id : t.agentA.id,
    subjectLabel: i % 2 ? "Ada Admin" : "Amara Agent",
    action: "team.role_changed" as const,
    details: { from: "agent", to: `step ${i}` },
    ip: "203.0.113.7",
    country: "PT",
    city: "Lisbon",
    createdAt: new Date(now - (n - i) * 60_000),
  }));
  for (let i = 0; i < rows.length; i += 8)
    await db()
      .insert(auditEvents)
      .values(rows.slice(i, i + 8));
}

// The rendered rows only (the page's data for hydration names them again).
const sentences = (html: string) =>
  [...html.matchAll(/wrap-anywhere">Olu Okafor changed (?:Ada Admin|Amara Agent)(?:&#x27;|')s role from agent to (step \d+)</g)].map((m) => m[1]);
const csvSteps = (csv: string) => [...csv.matchAll(/to (step \d+)/g)].map((m) => m[1]);

describe("the team's audit log page", () => {
  it("is the owner's and admins': an agent and another team's owner get 404, the page and the CSV alike", async () => {
    const t = await team("Audit View Realty");
    const other = await team("Other Audit Realty");
    const agent = await signInAs(t.agentA);
    expect((await agent.get("/team/audit")).status).toBe(404);
    expect((await agent.get("/team/audit.csv")).status).toBe(404);
    const solo = await signInAs(await createUser(env.DB));
    expect((await solo.get("/team/audit")).status).toBe(404);
    await seedRows(t, 3, Date.now());
    const otherOwner = await signInAs(other.owner);
    const theirs = await otherOwner.page("/team/audit");
    expect(sentences(theirs)).toEqual([]);
    expect(csvSteps(await (await otherOwner.get("/team/audit.csv")).text())).toEqual([]);
    const admin = await signInAs(t.admin);
    expect(sentences(await admin.page("/team/audit"))).toEqual(["step 2", "step 1", "step 0"]);
    // The team page links it for managers only.
    expect(await admin.page("/team")).toContain('href="/team/audit"');
    expect(await agent.page("/team")).not.toContain('href="/team/audit"');
  });

  it("pages 50 at a time newest first, filters by member and group, and the CSV holds the same rows as the pages", async () => {
    const t = await team("Audit Paging Realty");
    await seedRows(t, 60, Date.now());
    const owner = await signInAs(t.owner);
    const first = await owner.page("/team/audit");
    const page1 = sentences(first);
    expect(page1).toHaveLength(50);
    expect(page1[0]).toBe("step 59");
    const older = /href="([^"]*[?&]after=[^"]+)"/.exec(first)![1]!.replace(/&amp;/g, "&");
    const page2 = sentences(await owner.page(older.startsWith("?") ? `/team/audit${older}` : older));
    expect(page2).toEqual(Array.from({ length: 10 }, (_, i) => `step ${9 - i}`));
    const csv = await (await owner.get("/team/audit.csv")).text();
    expect(csv.split("\r\n")[0]).toBe("When,Who,Action,What,From where,Device");
    expect(csvSteps(csv)).toEqual([...page1, ...page2]);
    expect(csv).toContain("Lisbon, PT");

    const ada = sentences(await owner.page(`/team/audit?member=${t.admin.id}`));
    expect(ada).toEqual(Array.from({ length: 30 }, (_, i) => `step ${59 - 2 * i}`));
    expect(csvSteps(await (await owner.get(`/team/audit.csv?member=${t.admin.id}`)).text())).toEqual(ada);
    expect(sentences(await owner.page("/team/audit?group=lead"))).toEqual([]);
    expect(sentences(await owner.page("/team/audit?group=team"))).toHaveLength(50);
  });

  it("shows times in the viewer's timezone", async () => {
    const t = await team("Audit Time Realty");
    const at = Date.UTC(2026, 0, 15, 15, 30);
    await db()
      .insert(auditEvents)
      .values({
        id: crypto.randomUUID(),
        teamId: t.teamId,
        actorId: t.owner.id,
        actorLabel: "Olu Okafor",
        action: "team.renamed",
        details: { from: "A", to: "B" },
        createdAt: new Date(at),
      });
    const owner = await signInAs(t.owner);
    const csv = await (await owner.get("/team/audit.csv")).text();
    // New York is five hours behind UTC in January.
    expect(csv).toMatch(/10:30/);
    expect(csv).toContain("Olu Okafor renamed the team from “A” to “B”");
  });
});

describe("Settings → Security", () => {
  it("lists the user's own security events and nobody else's", async () => {
    const me = await createUser(env.DB);
    const someone = await createUser(env.DB);
    const browser = await signInAs(me);
    await signInAs(someone);
    const page = await browser.page("/settings/security/events");
    expect(page).toContain("signed in");
    expect(await browser.page("/settings/security")).toContain('href="/settings/security/events"');
    const csv = await (await browser.get("/settings/security.csv")).text();
    const mine = await db().select().from(auditEvents).where(eq(auditEvents.subjectUserId, me.id));
    expect(csv.trim().split("\r\n")).toHaveLength(1 + mine.length);
    expect(mine.length).toBeGreaterThan(0);
    const theirs = await db().select().from(auditEvents).where(eq(auditEvents.subjectUserId, someone.id));
    expect(theirs.length).toBeGreaterThan(0);
    for (const row of theirs) expect(page).not.toContain(row.id);
    expect(csv).not.toContain(someone.email);
  });
});

describe("keeping the log a year", () => {
  it("deletes only rows older than 365 days, a bounded number of statements a pass", async () => {
    const t = await team("Audit Retention Realty");
    const now = Date.now();
    const old = Array.from({ length: 5 }, (_, i) => ({
      id: `old-${t.teamId}-${i}`,
      teamId: t.teamId,
      action: "team.renamed" as const,
      createdAt: new Date(now - (AUDIT_RETENTION_DAYS + 1 + i) * DAY_MS),
    }));
    const kept = {
      id: `kept-${t.teamId}`,
      teamId: t.teamId,
      action: "team.renamed" as const,
      createdAt: new Date(now - (AUDIT_RETENTION_DAYS - 1) * DAY_MS),
    };
    await db()
      .insert(auditEvents)
      .values([...old, kept]);
    const statements: string[] = [];
    const counting = new Proxy(env.DB, {
      get(target, property) {
        if (property === "prepare") return (sql: string) => (statements.push(sql), target.prepare(sql));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    // Passes of at most one statement go on until the old rows are gone (other files' old rows may be there too).
    for (let pass = 0; pass < 50 && (await db().select().from(auditEvents).where(eq(auditEvents.id, old[0]!.id)).get()); pass++)
      await pruneAuditEvents(counting, now, 1);
    expect(statements.length).toBeLessThanOrEqual(50);
    const left = await db().select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.teamId, t.teamId));
    expect(left.map((r) => r.id)).toEqual([kept.id]);
  });
});

describe("an account's purge", () => {
  it("keeps the team's rows with the name as it was and no id, and deletes the user's own security events", async () => {
    const t = await team("Audit Purge Realty");
    const gone = await createUser(env.DB, { status: null });
    await db()
      .insert(auditEvents)
      .values([
        {
          id: `t-${gone.id}`,
          teamId: t.teamId,
          actorId: gone.id,
          actorLabel: "Gina Gone",
          subjectUserId: t.agentA.id,
          subjectLabel: "Amara Agent",
          action: "lead.assigned",
          ip: "203.0.113.1",
          createdAt: new Date(),
        },
        {
          id: `s-${gone.id}`,
          teamId: t.teamId,
          actorId: t.owner.id,
          actorLabel: "Olu Okafor",
          subjectUserId: gone.id,
          subjectLabel: gone.email,
          action: "team.member_removed",
          createdAt: new Date(),
        },
        {
          id: `g-${gone.id}`,
          teamId: t.teamId,
          actorId: t.owner.id,
          actorLabel: "Olu Okafor",
          action: "team.handover",
          targetType: "user",
          targetId: gone.id,
          targetLabel: "Gina Gone",
          createdAt: new Date(),
        },
        {
          id: `p-${gone.id}`,
          teamId: null,
          actorId: gone.id,
          actorLabel: gone.email,
          subjectUserId: gone.id,
          subjectLabel: gone.email,
          action: "account.signed_in",
          createdAt: new Date(),
        },
      ]);
    await purgeAccount(env as never, db(), gone.id);
    const rows = await db().select().from(auditEvents).where(eq(auditEvents.teamId, t.teamId));
    expect(rows.find((r) => r.id === `t-${gone.id}`)).toMatchObject({ actorId: null, actorLabel: "Gina Gone", ip: null });
    expect(rows.find((r) => r.id === `s-${gone.id}`)).toMatchObject({ subjectUserId: null, subjectLabel: "A former member" });
    expect(rows.find((r) => r.id === `g-${gone.id}`)).toMatchObject({ targetId: null, targetLabel: "Gina Gone" });
    // The purge's updates (auditRowsOnPurge's conditions) find the account's rows by an index, not by reading the log.
    const plan = async (query: string) =>
      (await env.DB.prepare(`explain query plan ${query}`).bind(gone.id).all<{ detail: string }>()).results.map((r) => r.detail).join(" | ");
    expect(await plan("update audit_events set target_id = null where target_type = 'user' and target_id = ?")).toMatch(
      /USING (COVERING )?INDEX audit_events_user_target/,
    );
    expect(await plan("update audit_events set actor_id = null where actor_id = ?")).toMatch(/USING (COVERING )?INDEX audit_events_actor/);
    expect(
      await db()
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.id, `p-${gone.id}`))
        .get(),
    ).toBeUndefined();
  });
});
