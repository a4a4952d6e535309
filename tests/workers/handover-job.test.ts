import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, type Db } from "~/db/client.server";
import { contacts, durableJobs, subscribers, teamHandovers, teamLeads, teamMembers } from "~/db/schema";
import { D1_LIMIT_EXEMPTIONS } from "~/lib/d1-limits";
import { JobFailure } from "~/lib/durable-step";
import { jobProgress } from "~/modules/jobs/durable-jobs.server";
import {
  countHandover,
  finishHandover,
  HANDOVER_TABLES,
  moveHandoverPart,
  recordHandover,
  type HandoverParams,
} from "~/modules/team/handover.server";
import { TEAM_MESSAGES } from "~/modules/team/team.messages";
import { signInAs } from "../factories/browser";
import { runHandover } from "../factories/durable-jobs";
import { bookOf, countersOf } from "../factories/handover";
import { team } from "../factories/teams";

// A member's handover as a durable job (ADR 0039, ADR 0058): the removal answers at once and a workflow moves the rows
// in parts, each part one step held to D1's limits by the harness (the worker tests run it enforcing), each part's batch
// re-checking the job and the teammate's membership.

const db = createDb(env.DB);
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
/** More than one step's worth of contacts (5,000 a step), so the contacts move in two steps. */
const BULK = 6_000;

/** `n` more contacts of `userId`'s, tagged "bulk", in one statement. */
async function bulkContacts(userId: string, n: number) {
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
     insert into contacts (id, user_id, name, status, source, tags) select ? || '-' || i, ?, 'Bulk ' || i, 'warm', 'website', '["bulk"]' from n`,
  )
    .bind(n, `bulk-${userId}`, userId)
    .run();
}

/** How many of the contacts whose ids start with `prefix` each user holds. */
async function holders(prefix: string) {
  const rows = await env.DB.prepare("select user_id as userId, count(*) as n from contacts where id like ? group by user_id")
    .bind(`${prefix}%`)
    .all<{ userId: string; n: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.userId, r.n]));
}

const post = (browser: Awaited<ReturnType<typeof signInAs>>, memberId: string, reassignTo: string) =>
  browser.post("/team", { intent: "remove", confirm: "yes", memberId, reassignTo });

describe("a member's handover as a durable job", () => {
  it("moves a book bigger than one step in parts, each step within D1's limits, and resumes a step killed once to the same result", async () => {
    expect(D1_LIMIT_EXEMPTIONS.size).toBe(0);
    const t = await team("Durable Handover Homes");
    const book = await bookOf(t.agentA.id, t.teamId, "Amara");
    await bulkContacts(t.agentA.id, BULK);
    const beaBefore = await countersOf(t.agentB.id);
    const owner = await signInAs(t.owner);
    const { response, job } = await runHandover(
      t.agentA.id,
      () => post(owner, t.agentA.id, t.agentB.id),
      // The second contacts step dies once (the Worker stopped); the workflow runs it again, the first is not redone.
      (m) => m.mockStepError({ name: "move contacts part 1" }, new Error("the Worker stopped"), 1),
    );
    expect(response.status).toBe(302);
    expect(job).toMatchObject({
      kind: "handover",
      status: "succeeded",
      error: null,
      done: BULK + 8,
      total: BULK + 8,
      result: "6,002 contacts, 1 deal, 1 task, 1 activity and 1 team lead moved.",
    });
    expect(await holders(`bulk-${t.agentA.id}`)).toEqual({ [t.agentB.id]: BULK });
    expect(await db.select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, book.hot)).get()).toEqual({ userId: t.agentB.id });
    expect(await db.select({ heldBy: teamLeads.heldBy }).from(teamLeads).where(eq(teamLeads.contactId, book.hot)).get()).toEqual({
      heldBy: t.agentB.id,
    });
    // Every counter agrees with the rows for both: each row moved exactly once.
    const [amara, bea] = await Promise.all([countersOf(t.agentA.id), countersOf(t.agentB.id)]);
    expect(amara.kept).toEqual({ status: {}, tags: {}, days: {} });
    expect(bea.kept).toEqual(bea.counted);
    expect(bea.kept.tags).toEqual({ ...beaBefore.kept.tags, bulk: (beaBefore.kept.tags.bulk ?? 0) + BULK, relocation: 1, vip: 2 });
    const handover = await db.select().from(teamHandovers).where(eq(teamHandovers.id, job.id)).get();
    expect(handover).toMatchObject({
      totals: { contacts: BULK + 2, deals: 1, tasks: 1, activities: 1, properties: 1, leadAlerts: 1, teamLeads: 1 },
      moved: { contacts: BULK + 2, deals: 1, tasks: 1, activities: 1, properties: 1, leadAlerts: 1, teamLeads: 1 },
    });

    // The owner's Team page says how it went; the team's admin's does not list it.
    const page = await owner.page("/team");
    expect(page).toContain("Handovers");
    expect(page).toContain(escapeHtml("Amara Agent's work to Bea Agent"));
    expect(page).toContain("Done: 6,002 contacts, 1 deal, 1 task, 1 activity and 1 team lead moved.");
    expect(await (await signInAs(t.admin)).page("/team")).not.toContain("Handovers");
  }, 120_000);

  it("moves nothing twice and loses nothing when a step dies after some of its parts committed", async () => {
    const t = await team("Cut Off Realty");
    await bookOf(t.agentA.id, t.teamId, "Ada");
    await bulkContacts(t.agentA.id, 40);
    // The removal's batch (here only its handover statements; the job's instance is never started) and its first step.
    const h: HandoverParams = {
      jobId: crypto.randomUUID(),
      teamId: t.teamId,
      from: t.agentA.id,
      to: t.agentB.id,
      rowsPerStatement: 7,
      statementsPerStep: 3,
    };
    await db.batch(recordHandover(db, { ...h, startedBy: t.owner.id }, Date.now()));
    await jobProgress(db, h.jobId, "Starting");
    expect(await countHandover(db, h)).toEqual({ contacts: 42, deals: 1, tasks: 1, activities: 1, properties: 1, leadAlerts: 1, teamLeads: 1 });

    // A try of a step whose Worker dies after its second batch committed, before the step returned.
    let batches = 0;
    const dying = new Proxy(db, {
      get(target, key, receiver) {
        if (key !== "batch") return Reflect.get(target, key, receiver);
        return async (...args: Parameters<Db["batch"]>) => {
          const result = await target.batch(...args);
          if (++batches === 2) throw new Error("the Worker stopped");
          return result;
        };
      },
    });
    await expect(moveHandoverPart(dying, h, "contacts")).rejects.toThrow("the Worker stopped");
    // Its two batches moved 14 contacts: Ada's two own first (the older rows), then 12 of the bulk.
    expect(await holders(`bulk-${t.agentA.id}`)).toEqual({ [t.agentA.id]: 28, [t.agentB.id]: 12 });

    // The step tried again, and the rest: each statement takes the next rows still the member's.
    const moved: Record<string, number> = {};
    for (const table of HANDOVER_TABLES) {
      for (let result = { moved: 0, finished: false }; !result.finished; ) {
        result = await moveHandoverPart(db, h, table);
        moved[table] = (moved[table] ?? 0) + result.moved;
        expect(result.moved).toBeLessThanOrEqual(21);
      }
    }
    // 14 contacts moved by the try that died, 28 by the tries after it: 42, each once.
    expect(moved).toEqual({ contacts: 28, deals: 1, tasks: 1, activities: 1, properties: 1, leadAlerts: 1, teamLeads: 1 });
    expect(await holders(`bulk-${t.agentA.id}`)).toEqual({ [t.agentB.id]: 40 });
    expect(await db.select().from(durableJobs).where(eq(durableJobs.id, h.jobId)).get()).toMatchObject({ done: 48, total: 48 });
    const [ada, bea] = await Promise.all([countersOf(t.agentA.id), countersOf(t.agentB.id)]);
    expect(ada.kept).toEqual({ status: {}, tags: {}, days: {} });
    expect(bea.kept).toEqual(bea.counted);
    // Run again after the end, a part changes nothing.
    expect(await moveHandoverPart(db, h, "contacts")).toEqual({ moved: 0, finished: true });
    expect(await db.select().from(teamHandovers).where(eq(teamHandovers.id, h.jobId)).get()).toMatchObject({
      moved: { contacts: 42, deals: 1, tasks: 1, activities: 1, properties: 1, leadAlerts: 1, teamLeads: 1 },
    });
    // Its result, as the workflow's last step writes it (a job left running would hold the next test's waiting).
    expect(await finishHandover(db, h)).toBe("42 contacts, 1 deal, 1 task, 1 activity and 1 team lead moved.");
  });

  it("moves only what the member had when removed: a contact they make afterwards stays theirs", async () => {
    const t = await team("Bounded Realty");
    await bulkContacts(t.agentA.id, 3);
    const h: HandoverParams = { jobId: crypto.randomUUID(), teamId: t.teamId, from: t.agentA.id, to: t.agentB.id };
    await db.batch(recordHandover(db, { ...h, startedBy: t.owner.id }, Date.now()));
    await jobProgress(db, h.jobId, "Starting");
    const later = crypto.randomUUID();
    await db.insert(contacts).values({ id: later, userId: t.agentA.id, name: "Made After The Removal" });
    await countHandover(db, h);
    expect(await moveHandoverPart(db, h, "contacts")).toEqual({ moved: 3, finished: true });
    expect(await db.select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, later)).get()).toEqual({ userId: t.agentA.id });
    expect(await finishHandover(db, h)).toBe("3 contacts moved.");
  });

  it("stops when the teammate leaves part-way, saying what moved and what stayed with the former member", async () => {
    const t = await team("Walkout Realty");
    const book = await bookOf(t.agentA.id, t.teamId, "Amara");
    await bulkContacts(t.agentA.id, BULK);
    const owner = await signInAs(t.owner);
    const bea = await signInAs(t.agentB);
    await using introspector = await introspectWorkflow(env.HANDOVER_WORKFLOW);
    // The second contacts step fails once; its retry waits 10 s (retry delays kept on), and Bea leaves meanwhile.
    await introspector.modifyAll(async (m) => {
      await m.mockStepError({ name: "move contacts part 1" }, new Error("the Worker stopped"), 1);
    });
    expect((await post(owner, t.agentA.id, t.agentB.id)).status).toBe(302);
    const [instance] = introspector.get();
    await instance!.waitForStepResult({ name: "move contacts part 0" });
    expect((await bea.post("/team", { intent: "leave" })).status).toBe(302);
    await instance!.waitForStatus("complete");

    const handover = (await db.select().from(teamHandovers).where(eq(teamHandovers.fromUserId, t.agentA.id)).get())!;
    const job = (await db.select().from(durableJobs).where(eq(durableJobs.id, handover.id)).get())!;
    expect(job).toMatchObject({
      kind: "handover",
      status: "failed",
      result: null,
      error:
        "The teammate taking over is no longer a member of the team. Moved: 5,000 contacts. Stayed with the former member: 1,002 contacts, 1 deal, 1 task, 1 activity and 1 team lead.",
    });
    // What moved is Bea's (in her own account now); the rest is Amara's, and the team's lead record she held is
    // detached, as a removal without a handover leaves it.
    // The first step moved 5,000 contacts, the oldest first: Amara's two own, then 4,998 of the bulk.
    expect(await holders(`bulk-${t.agentA.id}`)).toEqual({ [t.agentA.id]: BULK - 4_998, [t.agentB.id]: 4_998 });
    expect(await db.select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, book.hot)).get()).toEqual({ userId: t.agentB.id });
    expect(
      await db.select({ heldBy: teamLeads.heldBy, contactId: teamLeads.contactId }).from(teamLeads).where(eq(teamLeads.teamId, t.teamId)).get(),
    ).toEqual({
      heldBy: null,
      contactId: null,
    });
    const [amara, beaCounters] = await Promise.all([countersOf(t.agentA.id), countersOf(t.agentB.id)]);
    expect(amara.kept).toEqual(amara.counted);
    expect(beaCounters.kept).toEqual(beaCounters.counted);
    const stopped = await owner.page("/team");
    expect(stopped).toContain(escapeHtml("Amara Agent's work to Bea Agent"));
    expect(stopped).toContain("Stopped: The teammate taking over is no longer a member of the team.");
  }, 120_000);

  it("is not another team's owner's to start or to see, and the former member has no Team page", async () => {
    const t = await team("Guarded Handover Realty");
    const other = await team("Other Handover Realty");
    await bookOf(t.agentA.id, t.teamId, "Amara");
    const stranger = await signInAs(other.owner);
    // Another team's owner names this team's members: refused, nothing recorded, nothing moved.
    for (const [memberId, reassignTo] of [
      [t.agentA.id, t.agentB.id],
      [t.agentA.id, other.agentB.id],
      [other.agentA.id, t.agentB.id],
    ] as const) {
      const refused = await post(stranger, memberId, reassignTo);
      expect(refused.status).toBe(400);
      const text = await refused.text();
      expect(text.includes(TEAM_MESSAGES.notAMember) || text.includes(escapeHtml(TEAM_MESSAGES.reassignToMember))).toBe(true);
    }
    expect(await db.select().from(teamHandovers).where(eq(teamHandovers.fromUserId, t.agentA.id))).toEqual([]);
    expect(
      await db
        .select()
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentA.id)))
        .get(),
    ).toBeTruthy();

    const owner = await signInAs(t.owner);
    const { job } = await runHandover(t.agentA.id, () => post(owner, t.agentA.id, t.agentB.id));
    expect(job.status).toBe("succeeded");
    // Its progress and result are on this team's owner's page only.
    expect(await owner.page("/team")).toContain(escapeHtml("Amara Agent's work to Bea Agent"));
    const strangers = await stranger.page("/team");
    expect(strangers).toContain("Other Handover Realty");
    expect(strangers).not.toContain("Handovers");
    expect(strangers).not.toContain(escapeHtml("Amara Agent's work to Bea Agent"));
    // The former member is Solo (here with a plan of their own): no Team page (404), so nothing of the team's, the job included.
    await db.insert(subscribers).values({ userId: t.agentA.id, email: t.agentA.email, subscriptionStatus: "active" });
    expect((await (await signInAs(t.agentA)).fetch("/team")).status).toBe(404);
    // A job's statements check their own handover: another team's id with this job's changes nothing.
    const forged: HandoverParams = { jobId: job.id, teamId: other.teamId, from: other.agentA.id, to: other.agentB.id };
    await expect(moveHandoverPart(db, forged, "contacts")).rejects.toThrow(JobFailure);
    expect((await env.DB.prepare("select count(*) as n from contacts where user_id = ?").bind(other.agentB.id).first<{ n: number }>())!.n).toBe(0);
  });
});
