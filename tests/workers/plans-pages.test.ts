import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLAN_MESSAGES, STARTER_PLANS } from "~/modules/plans/plan";
import { signInAs, type TestBrowser } from "../factories/browser";
import { rowsOf as rows } from "../factories/rows";
import { createUser } from "../factories/users";

// Action plans' pages (ADR 0072): the list, the editor's form (steps as steps[i][field]), starters, and the contact
// page's card starting, pausing, resuming and stopping a run, all through the real routes; nobody else's plan, contact
// or run is reachable.

type PlanRow = { id: string; name: string; steps: string; start_source: string | null; start_stage: string | null; stop_stages: string };
type RunRow = { id: string; plan_id: string | null; status: string; next_at: number | null; remaining_ms: number | null; stop_reason: string | null };
const plansOf = (userId: string) => rows<PlanRow>(env.DB, "select * from action_plans where user_id = ? order by name", userId);
const runsOf = (contactId: string) => rows<RunRow>(env.DB, "select * from plan_runs where contact_id = ? order by started_at", contactId);

/** A signed-in agent with a contact and an e-mail and a text template of their own. */
async function agent() {
  const user = await createUser(env.DB);
  const contactId = crypto.randomUUID();
  await env.DB.prepare("insert into contacts (id, user_id, name, email, status) values (?, ?, 'Jane Whitmore', ?, 'hot')")
    .bind(contactId, user.id, `jane-${contactId.slice(0, 8)}@example.com`)
    .run();
  const [emailTemplate, textTemplate] = [crypto.randomUUID(), crypto.randomUUID()];
  await env.DB.batch([
    env.DB.prepare(
      "insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', 'Hello', 'Hello {first name}', 'Hi!')",
    ).bind(emailTemplate, user.id),
    env.DB.prepare("insert into crm_templates (id, user_id, kind, name, body) values (?, ?, 'text', 'Quick text', 'Hi {first name}!')").bind(
      textTemplate,
      user.id,
    ),
  ]);
  return { user, browser: await signInAs(user), contactId, emailTemplate, textTemplate };
}

/** The plan form's fields: an e-mail now, a call on day 2, a text on day 3; new Zillow leads; stops at Closed Won. */
function planForm(a: { emailTemplate: string; textTemplate: string }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "save",
    name: "Zillow follow-up",
    "steps[0][kind]": "email",
    "steps[0][waitDays]": "0",
    "steps[0][templateId]": a.emailTemplate,
    "steps[1][kind]": "call_task",
    "steps[1][waitDays]": "2",
    "steps[1][title]": "Call about their search",
    "steps[2][kind]": "text_task",
    "steps[2][waitDays]": "1",
    "steps[2][templateId]": a.textTemplate,
    startSource: "zillow",
    startStage: "",
    stopStages: "closed_won",
    ...extra,
  };
}

async function createPlan(browser: TestBrowser, fields: Record<string, string>): Promise<string> {
  const response = await browser.post("/plans/new", fields);
  expect(response.status, await response.clone().text()).toBe(302);
  return /\/plans\/([\w-]+)$/.exec(response.headers.get("Location")!)![1]!;
}

const planAction = (browser: TestBrowser, contactId: string, fields: Record<string, string>) => browser.post(`/contacts/${contactId}/plans`, fields);

describe("the plans pages", () => {
  it("shows the empty list with the postal address to add, and the sending-hours line", async () => {
    const a = await agent();
    const page = await a.browser.page("/plans");
    expect(page).toContain("No action plans yet");
    expect(page).toContain("add it in Settings → Agent profile");
    await env.DB.prepare("insert into agent_profiles (user_id, postal_address) values (?, '100 Congress Ave, Austin, TX')").bind(a.user.id).run();
    const withAddress = await a.browser.page("/plans");
    expect(withAddress).not.toContain("add it in Settings → Agent profile");
    expect(withAddress).toContain("stop when the contact replies, unsubscribes");
  });

  it("creates a plan through the form, in the steps' order, and lists what starts it", async () => {
    const a = await agent();
    const id = await createPlan(a.browser, planForm(a));
    const [plan] = await plansOf(a.user.id);
    expect(plan!.id).toBe(id);
    expect(JSON.parse(plan!.steps)).toEqual([
      { kind: "email", waitDays: 0, templateId: a.emailTemplate, title: null },
      { kind: "call_task", waitDays: 2, templateId: null, title: "Call about their search" },
      { kind: "text_task", waitDays: 1, templateId: a.textTemplate, title: null },
    ]);
    expect(plan!.start_source).toBe("zillow");
    expect(plan!.start_stage).toBeNull();
    expect(JSON.parse(plan!.stop_stages)).toEqual(["closed_won"]);
    const list = await a.browser.page("/plans");
    expect(list).toContain("Zillow follow-up");
    expect(list).toContain("New Zillow leads");
    expect(list).toContain("3 steps over 3 days");
    const editor = await a.browser.page(`/plans/${id}`);
    expect(editor).toContain("Days after the previous step");
    expect(editor).toContain("Move step 2 up");
    expect(editor).toContain("Day 3");
  });

  it("refuses a plan with each field's sentence and stores nothing; an unreadable body is a 4xx", async () => {
    const a = await agent();
    const noName = await a.browser.post("/plans/new", planForm(a, { name: "  " }));
    expect(noName.status).toBe(400);
    expect(await noName.text()).toContain(PLAN_MESSAGES.name);
    const noTemplate = await a.browser.post("/plans/new", planForm(a, { "steps[0][templateId]": "" }));
    expect(noTemplate.status).toBe(400);
    expect(await noTemplate.text()).toContain(PLAN_MESSAGES.template(1));
    const noTitle = await a.browser.post("/plans/new", planForm(a, { "steps[1][title]": "" }));
    expect(await noTitle.text()).toContain(PLAN_MESSAGES.title(2));
    const badWait = await a.browser.post("/plans/new", planForm(a, { "steps[1][waitDays]": "1.5" }));
    expect(badWait.status).toBe(400);
    expect(await badWait.text()).toContain(`Step 2: ${PLAN_MESSAGES.waitDays}`);
    // A text template where an e-mail one belongs, and a template that is not theirs.
    const wrongKind = await a.browser.post("/plans/new", planForm(a, { "steps[0][templateId]": a.textTemplate }));
    expect(wrongKind.status).toBe(400);
    expect(await wrongKind.text()).toContain(PLAN_MESSAGES.unknownTemplate(1));
    const other = await agent();
    const theirs = await a.browser.post("/plans/new", planForm(a, { "steps[0][templateId]": other.emailTemplate }));
    expect(await theirs.text()).toContain(PLAN_MESSAGES.unknownTemplate(1));
    const noSteps = await a.browser.post("/plans/new", { intent: "save", name: "Empty" });
    expect(await noSteps.text()).toContain(PLAN_MESSAGES.steps);
    const json = await a.browser.fetch("/plans/new", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "save", name: "Sneaky" }),
    });
    expect(json.status).toBe(415);
    expect(await plansOf(a.user.id)).toEqual([]);
  });

  it("edits a plan (steps reordered, start changed) and deletes it, stopping the contacts on it", async () => {
    const a = await agent();
    const id = await createPlan(a.browser, planForm(a));
    const saved = await a.browser.post(`/plans/${id}`, {
      intent: "save",
      name: "After closing call",
      "steps[0][kind]": "call_task",
      "steps[0][waitDays]": "3",
      "steps[0][title]": "How is the move going?",
      "steps[1][kind]": "review_email",
      "steps[1][waitDays]": "87",
      "steps[1][templateId]": a.emailTemplate,
      startSource: "",
      startStage: "closed_won",
    });
    expect(saved.status).toBe(302);
    const [plan] = await plansOf(a.user.id);
    expect(plan!.name).toBe("After closing call");
    expect(JSON.parse(plan!.steps).map((s: { kind: string }) => s.kind)).toEqual(["call_task", "review_email"]);
    expect([plan!.start_source, plan!.start_stage, plan!.stop_stages]).toEqual([null, "closed_won", "[]"]);
    expect(await a.browser.page("/plans")).toContain("Deal enters Closed Won");

    expect((await planAction(a.browser, a.contactId, { intent: "start", planId: id })).status).toBe(200);
    const deleted = await a.browser.post(`/plans/${id}`, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(await plansOf(a.user.id)).toEqual([]);
    const [run] = await runsOf(a.contactId);
    expect(run!.status).toBe("stopped");
    expect(run!.stop_reason).toContain("was deleted");
    expect((await a.browser.get(`/plans/${id}`)).status).toBe(404);
  });

  it("adds the starter plans once, with their templates", async () => {
    const a = await agent();
    expect((await a.browser.post("/plans", { intent: "starters" })).status).toBe(302);
    expect((await plansOf(a.user.id)).map((p) => p.name).sort()).toEqual(STARTER_PLANS.map((p) => p.name).sort());
    expect((await a.browser.post("/plans", { intent: "starters" })).status).toBe(302);
    expect(await plansOf(a.user.id)).toHaveLength(STARTER_PLANS.length);
    const list = await a.browser.page("/plans");
    expect(list).toContain("Deal enters Closed Won");
    expect(list).toContain("By hand");
    expect(list).toContain("12 steps over 360 days");
  });
});

describe("the contact page's plans", () => {
  it("starts a plan, refuses it twice, and pauses, resumes and stops the run", async () => {
    const a = await agent();
    const planId = await createPlan(a.browser, planForm(a));
    const before = await a.browser.page(`/contacts/${a.contactId}`);
    expect(before).toContain("Action plans");
    expect(before).toContain("Start a plan");

    const started = await planAction(a.browser, a.contactId, { intent: "start", planId });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ ok: true, message: PLAN_MESSAGES.started("Zillow follow-up", "Jane Whitmore") });
    const again = await planAction(a.browser, a.contactId, { intent: "start", planId });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ ok: false, error: PLAN_MESSAGES.alreadyOn("Zillow follow-up", "Jane Whitmore") });
    const [run] = await runsOf(a.contactId);
    expect(run).toMatchObject({ plan_id: planId, status: "running" });
    expect(await runsOf(a.contactId)).toHaveLength(1);
    expect(await a.browser.page(`/contacts/${a.contactId}`)).toContain("Running — next: “E-mail” on");

    expect((await planAction(a.browser, a.contactId, { intent: "pause", runId: run!.id })).status).toBe(200);
    expect((await runsOf(a.contactId))[0]).toMatchObject({ status: "paused", next_at: null });
    expect(await a.browser.page(`/contacts/${a.contactId}`)).toContain("Resume “Zillow follow-up”");
    // Pausing twice changes nothing and says so.
    expect((await planAction(a.browser, a.contactId, { intent: "pause", runId: run!.id })).status).toBe(404);

    expect((await planAction(a.browser, a.contactId, { intent: "resume", runId: run!.id })).status).toBe(200);
    const resumed = (await runsOf(a.contactId))[0]!;
    expect(resumed.status).toBe("running");
    expect(resumed.next_at).not.toBeNull();

    expect((await planAction(a.browser, a.contactId, { intent: "stop", runId: run!.id })).status).toBe(200);
    expect((await runsOf(a.contactId))[0]).toMatchObject({ status: "stopped", stop_reason: "Stopped by you." });
    const after = await a.browser.page(`/contacts/${a.contactId}`);
    expect(after).toContain("Stopped by you.");
    expect(after).toContain("History (");
    // Stopped, the plan can start again.
    expect((await planAction(a.browser, a.contactId, { intent: "start", planId })).status).toBe(200);
    expect(await runsOf(a.contactId)).toHaveLength(2);
    expect((await planAction(a.browser, a.contactId, { intent: "nonsense" })).status).toBe(400);
  });

  it("keeps another agent's plans, contacts and runs out of reach", async () => {
    const a = await agent();
    const other = await agent();
    const planId = await createPlan(a.browser, planForm(a));
    expect((await planAction(a.browser, a.contactId, { intent: "start", planId })).status).toBe(200);
    const [run] = await runsOf(a.contactId);

    expect((await other.browser.get(`/plans/${planId}`)).status).toBe(404);
    expect((await other.browser.post(`/plans/${planId}`, planForm(other, { name: "Hijacked" }))).status).toBe(404);
    expect((await other.browser.post(`/plans/${planId}`, { intent: "delete" })).status).toBe(404);
    expect(await other.browser.page("/plans")).not.toContain("Zillow follow-up");
    // Their plan on their own contact, and their own plan on someone else's contact.
    expect((await planAction(other.browser, other.contactId, { intent: "start", planId })).status).toBe(404);
    const ownPlan = await createPlan(other.browser, planForm(other, { name: "Other's plan" }));
    const onTheirs = await planAction(other.browser, a.contactId, { intent: "start", planId: ownPlan });
    expect(onTheirs.status).toBe(404);
    expect(await onTheirs.json()).toMatchObject({ error: PLAN_MESSAGES.noContact });
    for (const intent of ["pause", "stop"]) expect((await planAction(other.browser, a.contactId, { intent, runId: run!.id })).status).toBe(404);

    expect(await runsOf(other.contactId)).toEqual([]);
    expect(await runsOf(a.contactId)).toEqual([expect.objectContaining({ id: run!.id, status: "running" })]);
    expect((await plansOf(a.user.id))[0]!.name).toBe("Zillow follow-up");
  });
});
