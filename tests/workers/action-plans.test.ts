import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PlanStep } from "~/db/schema";
import { replyAddress } from "~/modules/conversations/reply-address.server";
import { unsubscribeContact } from "~/modules/intake/first-reply.server";
import { PlanSchema, PLAN_MESSAGES, STARTER_PLANS } from "~/modules/plans/plan";
import {
  addStarterPlans,
  deletePlan,
  listPlans,
  pausePlanRun,
  plansForContact,
  plansOnStage,
  resumePlanRun,
  savePlan,
  startPlanRun,
  stopPlanRun,
} from "~/modules/plans/plans.server";
import { runDuePlanSteps } from "~/modules/plans/runner.server";
import { requestContext } from "../factories/context";
import { deliverEmail } from "../factories/intake";
import { rowsOf as rows } from "../factories/rows";
import { createAgent } from "../factories/users";

// Action plans (ADR 0072): a contact's run of a plan does each step once, at the step's local time in the agent's
// timezone and sending hours (across a daylight-saving change), and stops on a reply, an unsubscribe or a stage the plan
// names; pausing keeps the wait that was left. Instants are fixed in 2027 and passed in: no test waits on the clock.

const DOMAIN = "leads.porchlight.app";
const context = () => requestContext({ PUBLIC_URL: "https://porchlight.test" });
type Run = { id: string; status: string; next_step: number; next_at: number | null; stop_reason: string | null; remaining_ms: number | null };
const runOf = async (id: string) => (await rows<Run>(env.DB, "select * from plan_runs where id = ?", id))[0]!;
const eventsOf = (id: string) =>
  rows<{ kind: string; step: number | null; detail: string }>(env.DB, "select * from plan_run_events where run_id = ? order by at, rowid", id);
const at = (iso: string) => new Date(iso);

/** An agent in New York (sending hours 8:00 AM–9:00 PM) with a postal address, a contact, and an e-mail template. */
async function agent() {
  const user = await createAgent(env.DB);
  await env.DB.prepare("insert into agent_profiles (user_id, agent_name, postal_address) values (?, 'Dana Reyes', '100 Congress Ave, Austin, TX')")
    .bind(user.id)
    .run();
  const contactId = crypto.randomUUID();
  await env.DB.prepare("insert into contacts (id, user_id, name, email, status) values (?, ?, 'Jane Whitmore', ?, 'hot')")
    .bind(contactId, user.id, `jane-${contactId.slice(0, 8)}@example.com`)
    .run();
  const templateId = crypto.randomUUID();
  await env.DB.prepare(
    "insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', 'Hello', 'Hello {first name}', 'Hi {first name}!\n\n{signature}')",
  )
    .bind(templateId, user.id)
    .run();
  return { user, userId: user.userId, contactId, templateId };
}

async function plan(
  userId: Parameters<typeof savePlan>[1],
  steps: PlanStep[],
  extra: Partial<{ stopStages: string[]; startStage: string | null; startSource: string | null }> = {},
) {
  const input = PlanSchema.parse({ name: "Test plan", steps, stopStages: [], ...extra });
  const saved = await savePlan(context(), userId, input);
  if (!saved.ok) throw new Error(saved.error);
  return saved.id;
}

describe("a plan's run", () => {
  it("does each step at its local time across a daylight-saving change, once however often the pass runs", async () => {
    const a = await agent();
    const planId = await plan(a.userId, [
      { kind: "email", waitDays: 0, templateId: a.templateId },
      { kind: "call_task", waitDays: 3, title: "Check in by phone" },
      { kind: "email", waitDays: 1, templateId: a.templateId },
    ]);
    // Friday 12 March 2027, 10:00 AM in New York (EST, UTC-5); clocks go forward on Sunday the 14th.
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, planId, at("2027-03-12T15:00:00Z")))!;
    expect((await runOf(runId)).next_at).toBe(at("2027-03-12T15:00:00Z").getTime());

    const first = await runDuePlanSteps(context(), at("2027-03-12T15:00:00Z"));
    expect(first.emails).toBeGreaterThanOrEqual(1);
    const [email] = await rows<{ subject: string; plan_run_id: string; via: string }>(
      env.DB,
      "select * from contact_emails where user_id = ?",
      a.user.id,
    );
    expect(email).toMatchObject({ subject: "Hello Jane", plan_run_id: runId, via: "porchlight" });
    // On the timeline as the plan's e-mail, naming the plan.
    const [activity] = await rows<{ type: string; meta: string }>(
      env.DB,
      "select type, meta from crm_activities where user_id = ? and contact_id = ?",
      a.user.id,
      a.contactId,
    );
    expect(activity!.type).toBe("plan_email");
    expect(JSON.parse(activity!.meta)).toMatchObject({ plan: "Test plan", status: "sent", via: "porchlight" });
    // The call is three days later at the same 10:00 AM, now daylight time (UTC-4).
    expect((await runOf(runId)).next_at).toBe(at("2027-03-15T14:00:00Z").getTime());

    await runDuePlanSteps(context(), at("2027-03-15T13:59:00Z"));
    expect((await runOf(runId)).next_step).toBe(1);
    await runDuePlanSteps(context(), at("2027-03-15T14:00:00Z"));
    await runDuePlanSteps(context(), at("2027-03-15T14:00:00Z"));
    const tasks = await rows<{ title: string; due_date: string; due_time: string; type: string }>(
      env.DB,
      "select * from crm_tasks where user_id = ?",
      a.user.id,
    );
    expect(tasks).toEqual([
      expect.objectContaining({ title: "Call Jane Whitmore: Check in by phone", due_date: "2027-03-15", due_time: "10:00", type: "call" }),
    ]);

    // Two passes at once for the last step: one e-mail.
    await Promise.all([runDuePlanSteps(context(), at("2027-03-16T14:00:00Z")), runDuePlanSteps(context(), at("2027-03-16T14:00:00Z"))]);
    expect(await rows(env.DB, "select id from contact_emails where user_id = ?", a.user.id)).toHaveLength(2);
    expect(await runOf(runId)).toMatchObject({ status: "finished", next_at: null });
    expect((await eventsOf(runId)).map((e) => e.kind)).toEqual(["started", "email_sent", "task_created", "email_sent", "finished"]);
    // A plan's e-mail is not the agent's answer: speed to lead still waits for them.
    const [contact] = await rows<{ first_response_at: number | null }>(env.DB, "select first_response_at from contacts where id = ?", a.contactId);
    expect(contact!.first_response_at).toBeNull();
  });

  it("waits for the sending hours: a step due at night goes when they open", async () => {
    const a = await agent();
    const planId = await plan(a.userId, [{ kind: "call_task", waitDays: 0, title: "Call" }]);
    // 10:30 PM in New York: the step is due at 8:00 AM the next day.
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, planId, at("2027-06-02T02:30:00Z")))!;
    expect((await runOf(runId)).next_at).toBe(at("2027-06-02T12:00:00Z").getTime());
  });

  it("stops when the contact replies, and sends nothing more", async () => {
    const a = await agent();
    const planId = await plan(a.userId, [
      { kind: "email", waitDays: 0, templateId: a.templateId },
      { kind: "email", waitDays: 2, templateId: a.templateId },
    ]);
    const now = new Date();
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, planId, now))!;
    await env.DB.prepare("update plan_runs set next_at = ? where id = ?").bind(now.getTime(), runId).run();
    await runDuePlanSteps(context(), now);
    const [sent] = await rows<{ reply_key: string }>(env.DB, "select reply_key from contact_emails where user_id = ?", a.user.id);
    const address = replyAddress(sent!.reply_key, DOMAIN);
    const reply = [
      `From: Jane <jane@example.com>`,
      `To: ${address}`,
      "Subject: Re: Hello Jane",
      `Date: ${now.toUTCString()}`,
      `Message-ID: <${crypto.randomUUID()}@example.com>`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Yes, let's talk!",
      "",
    ].join("\r\n");
    expect(await deliverEmail(address, reply)).toBeNull();
    expect(await runOf(runId)).toMatchObject({ status: "stopped", stop_reason: "The contact replied.", next_at: null });
    await runDuePlanSteps(context(), at("2099-01-01T15:00:00Z"));
    expect(await rows(env.DB, "select id from contact_emails where user_id = ? and direction = 'out'", a.user.id)).toHaveLength(1);
  });

  it("stops on an unsubscribe and on a stage the plan names, and a stage can start another plan", async () => {
    const a = await agent();
    const lead = await plan(a.userId, [{ kind: "call_task", waitDays: 5, title: "Call" }], { stopStages: ["under_contract"] });
    const after = await plan(a.userId, [{ kind: "call_task", waitDays: 3, title: "How is the move going?" }], { startStage: "closed_won" });
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, lead))!;
    await plansOnStage(context().db, a.userId, a.contactId, "showing", "Showing");
    expect((await runOf(runId)).status).toBe("running");
    await plansOnStage(context().db, a.userId, a.contactId, "under_contract", "Under Contract");
    expect(await runOf(runId)).toMatchObject({ status: "stopped", stop_reason: "The deal moved to Under Contract." });
    await plansOnStage(context().db, a.userId, a.contactId, "closed_won", "Closed Won");
    const runs = await plansForContact(context().db, a.userId, a.contactId);
    expect(runs.find((r) => r.run.planId === after)?.run.status).toBe("running");

    await unsubscribeContact(context().db, a.contactId);
    expect((await plansForContact(context().db, a.userId, a.contactId)).every((r) => r.run.status !== "running")).toBe(true);
    expect((await plansForContact(context().db, a.userId, a.contactId)).find((r) => r.run.planId === after)?.run.stopReason).toBe(
      "The contact unsubscribed.",
    );
  });

  it("keeps the wait that was left when paused, and the agent can stop it", async () => {
    const a = await agent();
    const planId = await plan(a.userId, [{ kind: "call_task", waitDays: 4, title: "Call" }]);
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, planId, at("2027-05-03T14:00:00Z")))!;
    expect((await runOf(runId)).next_at).toBe(at("2027-05-07T14:00:00Z").getTime());
    expect(await pausePlanRun(context().db, a.userId, runId, at("2027-05-04T14:00:00Z"))).toBe(true);
    expect(await runOf(runId)).toMatchObject({ status: "paused", next_at: null, remaining_ms: 3 * 86_400_000 });
    // Nothing runs while paused.
    await runDuePlanSteps(context(), at("2027-05-08T14:00:00Z"));
    expect(await rows(env.DB, "select id from crm_tasks where user_id = ?", a.user.id)).toEqual([]);
    expect(await resumePlanRun(context().db, a.userId, runId, at("2027-05-10T14:00:00Z"))).toBe(true);
    expect((await runOf(runId)).next_at).toBe(at("2027-05-13T14:00:00Z").getTime());
    expect(await stopPlanRun(context().db, a.userId, runId, at("2027-05-11T14:00:00Z"))).toBe(true);
    expect((await eventsOf(runId)).map((e) => e.kind)).toEqual(["started", "paused", "resumed", "stopped"]);
  });

  it("turns an e-mail it cannot send automatically into a task to review, and stops for an unsubscribed contact", async () => {
    const a = await agent();
    await env.DB.prepare("update agent_profiles set postal_address = null where user_id = ?").bind(a.user.id).run();
    const planId = await plan(a.userId, [{ kind: "email", waitDays: 0, templateId: a.templateId }]);
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, planId, at("2027-04-01T15:00:00Z")))!;
    await runDuePlanSteps(context(), at("2027-04-01T15:00:00Z"));
    const [task] = await rows<{ title: string; notes: string }>(env.DB, "select * from crm_tasks where user_id = ?", a.user.id);
    expect(task!.title).toBe("Review and send “Hello” to Jane Whitmore");
    expect(task!.notes).toContain("postal address");
    expect(await rows(env.DB, "select id from contact_emails where user_id = ?", a.user.id)).toEqual([]);
    expect((await eventsOf(runId)).map((e) => e.kind)).toEqual(["started", "task_created", "finished"]);

    const b = await agent();
    await env.DB.prepare("update contacts set email_opt_out_at = ? where id = ?").bind(Date.now(), b.contactId).run();
    const other = await plan(b.userId, [{ kind: "email", waitDays: 0, templateId: b.templateId }]);
    const stopped = (await startPlanRun(context().db, b.userId, b.contactId, other, at("2027-04-01T15:00:00Z")))!;
    await runDuePlanSteps(context(), at("2027-04-01T15:00:00Z"));
    expect((await runOf(stopped)).status).toBe("stopped");
    expect((await runOf(stopped)).stop_reason).toContain("unsubscribed");
  });
});

describe("plans and their owners", () => {
  it("keeps another agent's plans, contacts and runs out of reach, and refuses another agent's template in a step", async () => {
    const a = await agent();
    const b = await agent();
    const planId = await plan(a.userId, [{ kind: "call_task", waitDays: 1, title: "Call" }]);
    expect(await startPlanRun(context().db, b.userId, b.contactId, planId)).toBeNull();
    expect(await startPlanRun(context().db, a.userId, b.contactId, planId)).toBeNull();
    const runId = (await startPlanRun(context().db, a.userId, a.contactId, planId))!;
    expect(await startPlanRun(context().db, a.userId, a.contactId, planId)).toBeNull();
    expect(await pausePlanRun(context().db, b.userId, runId)).toBe(false);
    expect(await stopPlanRun(context().db, b.userId, runId)).toBe(false);
    expect(await deletePlan(context(), b.userId, planId)).toBeNull();
    expect(await listPlans(context().db, b.userId)).toEqual([]);
    const stolen = await savePlan(
      context(),
      b.userId,
      PlanSchema.parse({ name: "Mine", steps: [{ kind: "email", waitDays: 0, templateId: a.templateId }] }),
    );
    expect(stolen).toEqual({ ok: false, error: PLAN_MESSAGES.unknownTemplate(1) });
    // Deleting the plan stops its runs where they are, with the history kept.
    expect(await deletePlan(context(), a.userId, planId)).toBe("Test plan");
    expect((await runOf(runId)).status).toBe("stopped");
  });

  it("adds the starter plans once, with the templates they use", async () => {
    const a = await agent();
    expect(await addStarterPlans(context(), a.userId)).toBe(STARTER_PLANS.length);
    expect(await addStarterPlans(context(), a.userId)).toBe(0);
    const plans = await listPlans(context().db, a.userId);
    expect(plans.map((p) => p.name)).toEqual(expect.arrayContaining(["New buyer lead (14 days)", "Nurture (monthly for a year)", "After closing"]));
    // Every e-mail step names one of the agent's templates.
    for (const p of plans) for (const step of p.steps) if (step.kind === "email") expect(step.templateId).toBeTruthy();
    expect(plans.find((p) => p.starter === "nurture")!.steps).toHaveLength(12);
  });

  it("refuses a plan with no steps or an e-mail step without a template, with the step's number", () => {
    expect(PlanSchema.safeParse({ name: "Empty", steps: [] }).error?.issues[0]?.message).toBe(PLAN_MESSAGES.steps);
    expect(
      PlanSchema.safeParse({
        name: "No template",
        steps: [
          { kind: "call_task", waitDays: 0, title: "Call" },
          { kind: "email", waitDays: 1 },
        ],
      }).error?.issues[0]?.message,
    ).toBe(PLAN_MESSAGES.template(2));
  });
});
