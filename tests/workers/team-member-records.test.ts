import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { MEMBER_RECORD_ACCESS, auditEvents, contacts, crmActivities, crmTasks, teamMembers, teams, type MemberRecordAccess } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { memberContactAction } from "~/modules/team/member-records.server";
import { getMembership } from "~/modules/team/team.server";
import { requestContext } from "../factories/context";
import { signInAs, type TestBrowser } from "../factories/browser";
import { dayFromToday } from "../factories/dates";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";

// Members' contacts, timelines and tasks for a team's owner and admins (ADR 0075): the owner's setting, applied by the
// one rule in team/visibility.server.ts, as a matrix of role × resource × setting. Every cell asserts the exact status
// and, where the answer is a page, a marker only that contact's page has; every write asserts what landed or that
// nothing did.

const db = () => createDb(env.DB);
const id = () => crypto.randomUUID();

async function seeded() {
  const t = await team("Matrix Realty");
  const other = await team("Elsewhere Homes");
  const contactId = id();
  const taskId = id();
  const marker = `Marlowe-${id().slice(0, 8)}`;
  await db().batch([
    db()
      .insert(contacts)
      .values({ id: contactId, userId: t.agentA.id, name: `Quinn ${marker}`, email: `${marker.toLowerCase()}@example.com`, status: "hot" }),
    db()
      .insert(crmActivities)
      .values({ id: id(), userId: t.agentA.id, contactId, type: "note", occurredAt: new Date(), notes: `Timeline note ${marker}` }),
    db()
      .insert(crmTasks)
      .values({ id: taskId, userId: t.agentA.id, contactId, title: `Call back ${marker}`, dueDate: dayFromToday(1), type: "call" }),
  ]);
  const browsers = {
    owner: await signInAs(t.owner),
    admin: await signInAs(t.admin),
    agentB: await signInAs(t.agentB),
    outsider: await signInAs(other.owner),
  } satisfies Record<string, TestBrowser>;
  const setting = (value: MemberRecordAccess) => db().update(teams).set({ memberRecords: value }).where(eq(teams.id, t.teamId));
  return { t, other, contactId, taskId, marker, browsers, setting };
}

const activitiesOf = (userId: string, contactId: string) =>
  db()
    .select()
    .from(crmActivities)
    .where(and(eq(crmActivities.userId, userId), eq(crmActivities.contactId, contactId)));

describe("members' records: role × resource × setting", () => {
  it("opens a member's contact list, contact, timeline and tasks to the owner and admins only as the setting says", async () => {
    const s = await seeded();
    const page = `/team/contacts/${s.contactId}`;
    const list = `/team/contacts?agent=${s.t.agentA.id}`;
    for (const setting of MEMBER_RECORD_ACCESS) {
      await s.setting(setting);
      for (const role of ["owner", "admin"] as const) {
        const browser = s.browsers[role];
        const [listAnswer, pageAnswer] = await Promise.all([browser.get(list), browser.get(page)]);
        if (setting === "shared") {
          expect([setting, role, listAnswer.status, pageAnswer.status]).toEqual([setting, role, 404, 404]);
          continue;
        }
        expect([setting, role, listAnswer.status, pageAnswer.status]).toEqual([setting, role, 200, 200]);
        expect(await listAnswer.text()).toContain(`>Quinn ${s.marker}<`);
        const html = await pageAnswer.text();
        // Rendered, not only in the page's data: the timeline entry and the task row.
        expect(html).toContain(`>Timeline note ${s.marker}<`);
        expect(html).toContain(`>Call back ${s.marker}<`);
        expect(html).toContain("Amara Agent&#x27;s contact");
        expect(html.includes("Mark done")).toBe(setting === "edit");
        expect(html.includes("Log an activity")).toBe(setting === "edit");
      }
      // An agent sees no teammate's records, and nobody outside the team sees anything, whatever the setting.
      for (const role of ["agentB", "outsider"] as const) {
        const browser = s.browsers[role];
        const statuses = [(await browser.get(list)).status, (await browser.get(page)).status, (await browser.get("/team/contacts")).status];
        expect([setting, role, ...statuses]).toEqual([setting, role, 404, 404, 404]);
      }
    }
  });

  it("keeps the agent's own Contacts owner-only: the agent opens it there, teammates and managers get 404", async () => {
    const s = await seeded();
    await s.setting("edit");
    const agentA = await signInAs(s.t.agentA);
    expect(await agentA.page(`/contacts/${s.contactId}`)).toContain(`>Timeline note ${s.marker}<`);
    for (const browser of [s.browsers.owner, s.browsers.admin, s.browsers.agentB, s.browsers.outsider]) {
      expect((await browser.get(`/contacts/${s.contactId}`)).status).toBe(404);
    }
    // An agent's own contact is not a teammate's record: the team view answers 404 and the agent uses Contacts.
    expect((await agentA.get(`/team/contacts/${s.contactId}`)).status).toBe(404);
  });

  it("lets managers edit only with 'see and edit': each write lands in the agent's account, named as theirs", async () => {
    const s = await seeded();
    const page = `/team/contacts/${s.contactId}`;
    const writes = {
      log: { intent: "log", type: "call", notes: `Manager call ${s.marker}`, date: dayFromToday(0), time: "10:00" },
      task: { intent: "task", title: `Manager task ${s.marker}`, dueDate: dayFromToday(2) },
      complete: { intent: "complete", taskId: s.taskId },
    };
    for (const setting of ["shared", "view"] as const) {
      await s.setting(setting);
      for (const role of ["owner", "admin", "agentB", "outsider"] as const) {
        for (const fields of Object.values(writes)) {
          expect([setting, role, fields.intent, (await s.browsers[role].post(page, fields)).status]).toEqual([setting, role, fields.intent, 404]);
        }
      }
    }
    expect(await activitiesOf(s.t.agentA.id, s.contactId)).toHaveLength(1);
    expect((await db().select().from(crmTasks).where(eq(crmTasks.id, s.taskId)).get())?.status).toBe("open");

    await s.setting("edit");
    for (const role of ["agentB", "outsider"] as const) {
      expect((await s.browsers[role].post(page, writes.log)).status).toBe(404);
    }
    expect((await s.browsers.admin.post(page, writes.log)).status).toBe(200);
    expect((await s.browsers.admin.post(page, writes.task)).status).toBe(200);
    expect((await s.browsers.owner.post(page, writes.complete)).status).toBe(200);
    const logged = (await activitiesOf(s.t.agentA.id, s.contactId)).find((a) => a.notes === `Manager call ${s.marker}`);
    expect(logged).toMatchObject({ type: "call", meta: { by: "Ada Admin" } });
    const added = await db()
      .select()
      .from(crmTasks)
      .where(eq(crmTasks.title, `Manager task ${s.marker}`))
      .get();
    expect(added).toMatchObject({ userId: s.t.agentA.id, contactId: s.contactId, status: "open" });
    expect((await db().select().from(crmTasks).where(eq(crmTasks.id, s.taskId)).get())?.status).toBe("completed");
    // The agent sees who logged it on their own timeline.
    const agentA = await signInAs(s.t.agentA);
    expect(await agentA.page(`/contacts/${s.contactId}`)).toContain(">Logged by Ada Admin<");

    // Details: the edit saves, and a bad e-mail is refused with nothing changed.
    const update = { intent: "update", name: `Quinn ${s.marker} Jr`, email: "quinn.jr@example.com", status: "warm", propertyType: "house" };
    const saved = await s.browsers.admin.post(page, update);
    expect([saved.status, saved.headers.get("Location")]).toEqual([302, page]);
    expect((await db().select().from(contacts).where(eq(contacts.id, s.contactId)).get())?.name).toBe(`Quinn ${s.marker} Jr`);
    const refused = await s.browsers.admin.post(page, { ...update, name: "Someone else", email: "not an address" });
    expect(refused.status).toBe(400);
    expect((await db().select().from(contacts).where(eq(contacts.id, s.contactId)).get())?.name).toBe(`Quinn ${s.marker} Jr`);
  });

  it("re-checks the relationship in the write itself: a manager demoted or a setting turned back since the page loaded changes nothing", async () => {
    const s = await seeded();
    await s.setting("edit");
    const context = requestContext();
    const membership = (await getMembership(context, s.t.admin.id as UserId))!;
    expect(membership).toMatchObject({ role: "admin", memberRecords: "edit" });
    const viewer = { userId: s.t.admin.id as UserId, team: membership };
    const note = (notes: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ intent: "log", type: "note", notes, date: dayFromToday(0), time: "09:00" })) form.set(k, v);
      return form;
    };
    // The request read "admin, edit"; the database changes before the write.
    await s.setting("view");
    const afterSetting = (await memberContactAction(context, viewer, s.contactId, note("after the setting"))) as { init: ResponseInit | null };
    expect(afterSetting.init?.status).toBe(404);
    await s.setting("edit");
    await db().update(teamMembers).set({ role: "agent" }).where(eq(teamMembers.userId, s.t.admin.id));
    const afterDemotion = (await memberContactAction(context, viewer, s.contactId, note("after the demotion"))) as { init: ResponseInit | null };
    expect(afterDemotion.init?.status).toBe(404);
    const notes = (await activitiesOf(s.t.agentA.id, s.contactId)).map((a) => a.notes);
    expect(notes).toEqual([`Timeline note ${s.marker}`]);
  });

  it("is the owner's choice: admins and agents are refused with nothing changed, a made-up value is refused", async () => {
    const s = await seeded();
    const agentA = await signInAs(s.t.agentA);
    const read = async () => (await db().select({ v: teams.memberRecords }).from(teams).where(eq(teams.id, s.t.teamId)).get())?.v;
    expect(await read()).toBe("shared");
    expect((await s.browsers.admin.post("/team", { intent: "member-records", memberRecords: "edit" })).status).toBe(403);
    expect((await agentA.post("/team", { intent: "member-records", memberRecords: "edit" })).status).toBe(403);
    expect((await s.browsers.owner.post("/team", { intent: "member-records", memberRecords: "everything" })).status).toBe(400);
    expect(await read()).toBe("shared");
    const saved = await s.browsers.owner.post("/team", { intent: "member-records", memberRecords: "view" });
    expect([saved.status, saved.headers.get("Location")]).toEqual([302, "/team"]);
    expect(await read()).toBe("view");
    // One audit row for the change, none for the refusals or for saving the same choice again.
    await s.browsers.owner.post("/team", { intent: "member-records", memberRecords: "view" });
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.teamId, s.t.teamId));
    expect(audited.map((a) => [a.action, a.actorId, a.details])).toEqual([
      [
        "team.visibility_changed",
        s.t.owner.id,
        { changes: [{ setting: "what admins may do with members' contacts", from: "only what is shared", to: "see them" }] },
      ],
    ]);
    // Members read what the owner chose on the team page; managers get the Team contacts link.
    expect(await agentA.page("/team")).toContain("can see your contacts, timelines and tasks");
    expect(await s.browsers.admin.page("/team")).toContain('href="/team/contacts"');
    // Another team's owner changes only their own team.
    await s.browsers.outsider.post("/team", { intent: "member-records", memberRecords: "edit" });
    expect(await read()).toBe("view");
    expect((await db().select({ v: teams.memberRecords }).from(teams).where(eq(teams.id, s.other.teamId)).get())?.v).toBe("edit");
  });

  it("lists one member's contacts at a time, by last activity, searchable, and never another team's member", async () => {
    const s = await seeded();
    await s.setting("view");
    const html = await s.browsers.owner.page(`/team/contacts?agent=${s.t.agentA.id}&q=${encodeURIComponent(s.marker)}`);
    expect(html).toContain(`>Quinn ${s.marker}<`);
    const none = await s.browsers.owner.page(`/team/contacts?agent=${s.t.agentA.id}&q=nobody-${s.marker}`);
    expect(none).toContain("No contact of Amara Agent");
    // A wildcard is a character, not a pattern.
    expect(await s.browsers.owner.page(`/team/contacts?agent=${s.t.agentA.id}&q=%25`)).not.toContain(`>Quinn ${s.marker}<`);
    expect((await s.browsers.owner.get(`/team/contacts?agent=${s.other.agentA.id}`)).status).toBe(404);
    expect((await s.browsers.owner.get(`/team/contacts?agent=${s.t.owner.id}`)).status).toBe(404);
    const solo = await createUser(env.DB);
    expect((await (await signInAs(solo)).get("/team/contacts")).status).toBe(404);
  });
});
