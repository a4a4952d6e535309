import { data } from "@remix-run/cloudflare";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { contacts, teams, MEMBER_RECORD_ACCESS, type MemberRecordAccess } from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { auditPerson, auditWhere, teamSettingsAudit } from "~/modules/audit/audit.server";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy, ownedByAny } from "~/lib/tenancy.server";
import { refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { UserId } from "~/modules/auth/session.server";
import { logActivity, timeline } from "~/modules/activities/activities.server";
import { ActivityInputSchema } from "~/modules/activities/activity.schema";
import { fieldErrors } from "~/lib/schema-fields";
import { getContact } from "~/modules/contacts/contacts.server";
import { updateContactFromForm } from "~/modules/contacts/edit-contact.server";
import { dealsForContact } from "~/modules/deals/deals.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { TASK_MESSAGES, TaskInputSchema } from "~/modules/tasks/task.schema";
import { completeTask, createTask, getTask, tasksFor, userNow } from "~/modules/tasks/tasks.server";
import { listMembers, type MemberRow, type Membership } from "./team.server";
import { memberRecordAccess, memberRecordsWriteSql, recordsAgent, recordsOfMembers, type Viewer } from "./visibility.server";

// Members' contacts, timelines and tasks for the team's owner and admins (ADR 0075), when the owner lets them: a list
// of one member's contacts, one contact's page, and the edits "see and edit" allows. Which member and which contact is
// decided by the rule in visibility.server.ts; the reads are the agent's own queries with the agent's id, and each
// write is the agent's own write with the relationship re-checked in its batch or statement.

type TeamViewer = Viewer & { team: Membership };

const PAGE = 50;
const notFound = () => new Response("Not Found", { status: 404 });

function parseCursor(value: string | null): { at: Date; id: string } | null {
  const match = value ? /^(\d{1,15}):([\w-]{1,64})$/.exec(value) : null;
  return match ? { at: new Date(Number(match[1])), id: match[2]! } : null;
}

/** One member's contacts, most recently active first, for a manager whose team lets them see members' records. */
export async function loadMemberContacts(context: RequestContext, viewer: TeamViewer, params: URLSearchParams) {
  const access = memberRecordAccess(viewer);
  const members = await recordsOfMembers(context, viewer);
  if (!access) throw notFound();
  const asked = params.get("agent");
  const agent = asked ? await recordsAgent(context, viewer, asked, "view") : (members[0] ?? null);
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const cursor = parseCursor(params.get("before"));
  const picker = members.map((m) => ({ id: m.userId, name: m.name }));
  if (!agent)
    return { access, members: picker, agent: null, q, contacts: [], nextCursor: null, prefs: await getDisplayPreferences(context, viewer.userId) };
  const agentId = agent.userId as UserId;
  const [rows, prefs] = await Promise.all([
    context.db
      .select({
        id: contacts.id,
        name: contacts.name,
        status: contacts.status,
        email: contacts.email,
        phone: contacts.phone,
        lastActivity: contacts.lastActivity,
      })
      .from(contacts)
      .where(
        ownedBy(
          contacts,
          agentId,
          q ? sql`${contacts.name} like ${`%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`} escape '\\'` : undefined,
          cursor ? or(lt(contacts.lastActivity, cursor.at), and(eq(contacts.lastActivity, cursor.at), lt(contacts.id, cursor.id))) : undefined,
        ),
      )
      .orderBy(desc(contacts.lastActivity), desc(contacts.id))
      .limit(PAGE + 1),
    getDisplayPreferences(context, viewer.userId),
  ]);
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);
  return {
    access,
    members: picker,
    agent: { id: agent.userId, name: agent.name },
    q,
    contacts: page.map((c) => ({ ...c, lastActivity: c.lastActivity.getTime() })),
    nextCursor: rows.length > PAGE && last ? `${last.lastActivity.getTime()}:${last.id}` : null,
    prefs,
  };
}

/** Whose contact `contactId` is, among the members the viewer may open the records of (404 for anything else). */
async function contactAgent(context: RequestContext, viewer: TeamViewer, contactId: string, need: "view" | "edit"): Promise<MemberRow> {
  const members = await recordsOfMembers(context, viewer);
  const row = await context.db
    .select({ userId: contacts.userId })
    .from(contacts)
    .where(
      ownedByAny(
        contacts,
        members.map((m) => m.userId as UserId),
        eq(contacts.id, contactId),
      ),
    )
    .get();
  if (!row) throw notFound();
  return recordsAgent(context, viewer, row.userId, need);
}

/** A member's contact as their manager sees it: details, deals, tasks and timeline, read as the agent's own. */
export async function loadMemberContact(context: RequestContext, viewer: TeamViewer, contactId: string, before: string | null) {
  const agent = await contactAgent(context, viewer, contactId, "view");
  const agentId = agent.userId as UserId;
  const [contact, prefs, now, deals, stages, tasks, activity] = await Promise.all([
    getContact(context, agentId, contactId),
    getDisplayPreferences(context, agentId),
    userNow(context, agentId),
    dealsForContact(context, agentId, contactId),
    getStages(context, agentId),
    tasksFor(context, agentId, { contactId }),
    timeline(context, agentId, { contactId, before }),
  ]);
  if (!contact) throw notFound();
  const stageName = new Map(stages.map((s) => [s.key, s.name]));
  return {
    agent: { id: agent.userId, name: agent.name },
    canEdit: memberRecordAccess(viewer) === "edit",
    contact,
    prefs,
    now,
    tasks,
    activity,
    deals: deals.map((d) => ({ id: d.id, title: d.title, stage: stageName.get(d.stage) ?? d.stage, dealValueCents: d.dealValueCents })),
  };
}

/** The viewer's name as a teammate's timeline says who logged something. */
async function viewerName(context: RequestContext, viewer: TeamViewer): Promise<string> {
  return (await listMembers(context, viewer.team.teamId)).find((m) => m.userId === viewer.userId)?.name ?? "A team admin";
}

/**
 * What a manager may change on a member's contact when the team lets them edit: the details, an activity on the
 * timeline (named as theirs), a task on the agent's list, and completing one of its tasks. Each is the agent's own
 * write, re-checked in the same statement or batch (memberRecordsWriteSql): a demoted admin, a member who left or a
 * setting turned back to "see" changes nothing and answers 404.
 */
export async function memberContactAction(context: RequestContext, viewer: TeamViewer, contactId: string, form: FormData) {
  const intent = String(form.get("intent") ?? "");
  const agent = await contactAgent(context, viewer, contactId, "edit");
  const agentId = agent.userId as UserId;
  const onBehalf = { requires: memberRecordsWriteSql(viewer, agentId), by: await viewerName(context, viewer) };
  const fields = Object.fromEntries(form);
  const done = (message: string) => data({ ok: true as const, intent, message });
  switch (intent) {
    case "update": {
      const result = await updateContactFromForm(context, agentId, contactId, form, onBehalf.requires);
      if (!result) throw notFound();
      if (result.ok)
        return redirectWithToast(context, `/team/contacts/${encodeURIComponent(contactId)}`, { title: "Changes saved", variant: "success" });
      const { status, ...refused } = result;
      return data({ ...refused, intent }, { status });
    }
    case "log": {
      const parsed = ActivityInputSchema.safeParse({ ...fields, contactId, dealId: "" });
      if (!parsed.success) return refuse(intent, fieldErrors(parsed.error));
      const result = await logActivity(context, agentId, parsed.data, undefined, undefined, onBehalf);
      return result.ok ? done("Activity logged") : refuse(intent, { form: result.error }, result.status);
    }
    case "task": {
      const parsed = TaskInputSchema.safeParse({ ...fields, contactId, dealId: "" });
      if (!parsed.success) return refuse(intent, fieldErrors(parsed.error));
      const result = await createTask(context, agentId, parsed.data, undefined, onBehalf);
      return result.ok ? done(`Task added to ${agent.name}'s list`) : refuse(intent, { form: result.error }, result.status);
    }
    case "complete": {
      const task = await getTask(context, agentId, String(form.get("taskId") ?? ""));
      if (!task || task.contactId !== contactId || task.status !== "open") return refuse(intent, { form: TASK_MESSAGES.notFound }, 404);
      const result = await completeTask(context, agentId, task.id, { onBehalf });
      return result.ok ? done("Task completed") : refuse(intent, { form: result.error }, result.status);
    }
    default:
      return refuse(intent, { form: "Unknown action." });
  }
}

const MEMBER_RECORDS_MESSAGES = {
  ownerOnly: "Only the team's owner chooses what admins see.",
  choose: "Choose what the owner and admins may do with members' contacts.",
} as const;

/** The setting's values as the audit log reads them. */
const ACCESS_WORDS: Record<MemberRecordAccess, string> = { shared: "only what is shared", view: "see them", edit: "see and edit them" };

/**
 * The owner's choice of what the owner and admins may do with members' contacts, timelines and tasks. The owner check
 * is the update's own condition, so an owner who has since handed the team over changes nothing.
 */
export async function saveMemberRecords(context: RequestContext, request: Request, viewer: TeamViewer, form: FormData) {
  const intent = "member-records";
  const choice = String(form.get("memberRecords") ?? "");
  if (viewer.team.role !== "owner") return refuse(intent, { form: MEMBER_RECORDS_MESSAGES.ownerOnly }, 403);
  if (!(MEMBER_RECORD_ACCESS as readonly string[]).includes(choice)) return refuse(intent, { memberRecords: MEMBER_RECORDS_MESSAGES.choose });
  const to = choice as MemberRecordAccess;
  const teamId = viewer.team.teamId;
  const isOwner = sql`exists (select 1 from ${teams} where ${and(eq(teams.id, teamId), eq(teams.ownerId, viewer.userId))})`;
  // The owner check, the change and its audit row in one batch: an owner who has since handed the team over changes
  // nothing and leaves no row.
  const written = await guardedBatch(async () =>
    context.db.batch([
      requireInBatch(context.db, isOwner),
      context.db.update(teams).set({ memberRecords: to, updatedAt: new Date() }).where(eq(teams.id, teamId)),
      ...(viewer.team.memberRecords === to
        ? []
        : [
            teamSettingsAudit(context, {
              teamId,
              actor: await auditPerson(context.db, viewer.userId),
              changes: [
                { setting: "what admins may do with members' contacts", from: ACCESS_WORDS[viewer.team.memberRecords], to: ACCESS_WORDS[to] },
              ],
              where: auditWhere(request),
              at: Date.now(),
              action: "team.visibility_changed",
            }),
          ]),
    ]),
  );
  if (!written.ok) return refuse(intent, { form: MEMBER_RECORDS_MESSAGES.ownerOnly }, 403);
  return redirectWithToast(context, "/team", {
    title: "Saved",
    description: "What the owner and admins may do with members' contacts.",
    variant: "success",
  });
}
