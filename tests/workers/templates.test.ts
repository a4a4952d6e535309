import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fillFields, MERGE_MESSAGES, mergeFieldProblem, TEMPLATE_FIELDS, unfilledFields } from "~/modules/templates/merge";
import { STARTER_TEMPLATES, TEMPLATE_MESSAGES } from "~/modules/templates/templates";
import { signInAs, type TestBrowser } from "../factories/browser";
import { dayFromToday } from "../factories/dates";
import { rowsOf as rows } from "../factories/rows";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";

// E-mail and text templates (ADR 0070): merge fields checked when saved and filled from a real contact's details,
// starters added once, the agent's own templates and their team's (written by its owner and admins, copied by members),
// and nobody else's reachable.

type Row = {
  id: string;
  user_id: string;
  team_id: string | null;
  kind: string;
  name: string;
  subject: string | null;
  body: string;
  copied_from: string | null;
};
const templatesOf = (userId: string) => rows<Row>(env.DB, "select * from crm_templates where user_id = ? order by name", userId);

const EMAIL = {
  intent: "save",
  kind: "email",
  name: "After a showing",
  subject: "About {property address}",
  body: "Hi {first name},\n\nThanks for coming.\n\n{signature}",
};

async function create(browser: TestBrowser, fields: Record<string, string> = EMAIL): Promise<string> {
  const response = await browser.post("/templates/new", fields);
  expect(response.status, await response.clone().text()).toBe(302);
  return /\/templates\/([\w-]+)$/.exec(response.headers.get("Location")!)![1]!;
}

async function agent(name = "Dana Reyes") {
  const user = await createUser(env.DB);
  await env.DB.prepare("insert into agent_profiles (user_id, agent_name, brokerage) values (?, ?, 'Hill Country Realty')").bind(user.id, name).run();
  await env.DB.prepare("update profiles set phone = '512-555-0100' where user_id = ?").bind(user.id).run();
  return { user, browser: await signInAs(user) };
}

describe("merge fields", () => {
  it("names the first unknown field and the fields that work, and an unclosed brace", () => {
    expect(mergeFieldProblem("Hi {first name}, {budget}", TEMPLATE_FIELDS)).toBe(MERGE_MESSAGES.unknownField("budget", TEMPLATE_FIELDS));
    expect(MERGE_MESSAGES.unknownField("budget", TEMPLATE_FIELDS)).toContain("{appointment time}");
    expect(mergeFieldProblem("Hi {first name", TEMPLATE_FIELDS)).toBe(MERGE_MESSAGES.unclosed);
    expect(mergeFieldProblem("Hi {First  Name}, see you {appointment time}", TEMPLATE_FIELDS)).toBeNull();
    // The first reply's {property} is not a template field.
    expect(mergeFieldProblem("{property}", TEMPLATE_FIELDS)).toContain("is not a merge field");
  });

  it("fills what the contact has and leaves the rest in braces, listed", () => {
    const filled = fillFields("Hi {first name}, {property address} at {price}. {appointment time}", { "first name": "Jane", price: "$450,000" });
    expect(filled).toBe("Hi Jane, {property address} at $450,000. {appointment time}");
    expect(unfilledFields(filled)).toEqual(["property address", "appointment time"]);
    expect(MERGE_MESSAGES.unfilled(["price"])).toContain("{price}");
  });
});

describe("templates", () => {
  it("refuses an unknown field, a missing subject and a long text with their sentences, and stores nothing", async () => {
    const { user, browser } = await agent();
    const unknown = await browser.post("/templates/new", { ...EMAIL, body: "Hi {frist name}" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("{frist name} is not a merge field");
    const noSubject = await browser.post("/templates/new", { ...EMAIL, subject: "" });
    expect(noSubject.status).toBe(400);
    expect(await noSubject.text()).toContain(TEMPLATE_MESSAGES.subject);
    const long = await browser.post("/templates/new", { intent: "save", kind: "text", name: "Long", body: "x".repeat(321) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Keep a text to 320 characters");
    expect(await templatesOf(user.id)).toEqual([]);
  });

  it("creates, lists, edits and deletes the agent's own; a text has no subject", async () => {
    const { user, browser } = await agent();
    const id = await create(browser);
    const text = await create(browser, {
      intent: "save",
      kind: "text",
      name: "Running late",
      subject: "ignored",
      body: "Hi {first name}, running 10 minutes late!",
    });
    const list = await browser.page("/templates");
    expect(list).toContain("After a showing");
    expect(list).toContain("Running late");
    expect((await templatesOf(user.id)).find((t) => t.id === text)!.subject).toBeNull();

    expect((await browser.post(`/templates/${id}`, { ...EMAIL, name: "After every showing" })).status).toBe(302);
    expect((await templatesOf(user.id)).find((t) => t.id === id)!.name).toBe("After every showing");
    const deleted = await browser.post(`/templates/${id}`, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect((await templatesOf(user.id)).map((t) => t.id)).toEqual([text]);
  });

  it("adds the starters once, even after one is renamed", async () => {
    const { user, browser } = await agent();
    expect((await browser.post("/templates", { intent: "starters" })).status).toBe(302);
    const first = await templatesOf(user.id);
    expect(first).toHaveLength(STARTER_TEMPLATES.length);
    expect(first.map((t) => t.name)).toEqual(
      expect.arrayContaining(["New buyer lead", "New seller lead", "After a showing", "Under contract", "Closing anniversary"]),
    );
    await env.DB.prepare("update crm_templates set name = 'Mine now' where user_id = ? and starter = 'new-buyer-lead'").bind(user.id).run();
    expect((await browser.post("/templates", { intent: "starters" })).status).toBe(302);
    expect(await templatesOf(user.id)).toHaveLength(STARTER_TEMPLATES.length);
  });

  it("fills a real contact's details: the open deal's address and value, the next showing, the signature", async () => {
    const { user, browser } = await agent();
    const contact = crypto.randomUUID();
    await env.DB.prepare("insert into contacts (id, user_id, name, email) values (?, ?, 'Jane Whitmore', 'jane@example.com')")
      .bind(contact, user.id)
      .run();
    const none = (await (await browser.get(`/templates/merge/${contact}`)).json()) as { values: Record<string, string | null> };
    expect(none.values).toMatchObject({
      "first name": "Jane",
      "property address": null,
      price: null,
      "appointment time": null,
      "agent name": "Dana Reyes",
    });
    expect(none.values.signature).toBe("Dana Reyes\nHill Country Realty\n512-555-0100");

    await env.DB.prepare(
      "insert into deals (id, user_id, contact_id, title, stage, position, deal_value_cents, commission_rate, probability, property_address) values (?, ?, ?, 'Oak', 'showing', 'a0', 45000000, 3, 40, '12 Oak St')",
    )
      .bind(crypto.randomUUID(), user.id, contact)
      .run();
    const day = dayFromToday(2);
    await env.DB.prepare(
      "insert into crm_tasks (id, user_id, contact_id, title, type, due_date, due_time) values (?, ?, ?, 'Showing', 'showing', ?, '14:30')",
    )
      .bind(crypto.randomUUID(), user.id, contact, day)
      .run();
    await env.DB.prepare("update agent_profiles set signature = 'Dana — your Austin agent' where user_id = ?").bind(user.id).run();
    const full = (await (await browser.get(`/templates/merge/${contact}`)).json()) as { values: Record<string, string | null> };
    expect(full.values["property address"]).toBe("12 Oak St");
    expect(full.values.price).toBe("$450,000");
    expect(full.values["appointment time"]).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} at 2:30 PM$/);
    expect(full.values.signature).toBe("Dana — your Austin agent");
  });

  it("keeps another agent's templates and contacts out of reach", async () => {
    const owner = await agent();
    const other = await agent("Sam Other");
    const id = await create(owner.browser);
    const contact = crypto.randomUUID();
    await env.DB.prepare("insert into contacts (id, user_id, name) values (?, ?, 'Private Person')").bind(contact, owner.user.id).run();
    expect((await other.browser.get(`/templates/${id}`)).status).toBe(404);
    expect((await other.browser.post(`/templates/${id}`, { ...EMAIL, name: "Hijacked" })).status).toBe(404);
    expect((await other.browser.post(`/templates/${id}`, { intent: "delete" })).status).toBe(404);
    expect((await other.browser.post("/templates", { intent: "copy", id })).status).toBe(404);
    expect((await other.browser.get(`/templates/merge/${contact}`)).status).toBe(404);
    expect(await other.browser.page("/templates")).not.toContain("After a showing");
    expect((await templatesOf(owner.user.id)).map((t) => t.name)).toEqual(["After a showing"]);
  });
});

describe("team templates", () => {
  it("are written by the owner and admins, read and copied by members, and changed by no agent", async () => {
    const t = await team();
    const [owner, admin, agentA] = await Promise.all([signInAs(t.owner), signInAs(t.admin), signInAs(t.agentA)]);
    const shared = await create(owner, { ...EMAIL, name: "Team welcome", scope: "team" });
    const byAdmin = await create(admin, { ...EMAIL, name: "Admin's note", scope: "team" });
    expect(
      (await rows<{ team_id: string }>(env.DB, "select team_id from crm_templates where id in (?, ?)", shared, byAdmin)).map((r) => r.team_id),
    ).toEqual([t.teamId, t.teamId]);

    // An agent sees them read-only, cannot share one, change or delete the team's, and copies one to their own.
    const page = await agentA.page(`/templates/${shared}`);
    expect(page).toContain("Copy to my templates");
    const sharing = await agentA.post("/templates/new", { ...EMAIL, name: "Agent share", scope: "team" });
    expect(sharing.status).toBe(403);
    expect(await sharing.text()).toContain(TEMPLATE_MESSAGES.teamOnly);
    expect((await agentA.post(`/templates/${shared}`, { ...EMAIL, name: "Changed" })).status).toBe(404);
    expect((await agentA.post(`/templates/${shared}`, { intent: "delete" })).status).toBe(404);
    const copied = await agentA.post("/templates", { intent: "copy", id: shared });
    expect(copied.status).toBe(302);
    const mine = await templatesOf(t.agentA.id);
    expect(mine).toEqual([expect.objectContaining({ name: "Team welcome", team_id: null, copied_from: shared })]);
    // The admin edits the team's; the owner's list shows both.
    expect((await admin.post(`/templates/${shared}`, { ...EMAIL, name: "Team welcome v2" })).status).toBe(302);
    expect(await owner.page("/templates")).toContain("Team welcome v2");
    // One template changed: the team's other one keeps its name.
    expect((await rows<{ name: string }>(env.DB, "select name from crm_templates where id = ?", byAdmin))[0]!.name).toBe("Admin's note");

    // An agent who left the team no longer reads or copies the team's templates; their copy stays theirs.
    // (They went Solo with a subscription of their own, so the pages open for them.)
    await env.DB.prepare("delete from team_members where user_id = ?").bind(t.agentA.id).run();
    await env.DB.prepare("insert into subscribers (user_id, email, subscription_status) values (?, ?, 'active')")
      .bind(t.agentA.id, t.agentA.email)
      .run();
    expect((await agentA.get(`/templates/${shared}`)).status).toBe(404);
    expect((await agentA.post("/templates", { intent: "copy", id: shared })).status).toBe(404);
    expect(await templatesOf(t.agentA.id)).toHaveLength(1);
    // An admin demoted since the page loaded changes nothing.
    await env.DB.prepare("update team_members set role = 'agent' where user_id = ?").bind(t.admin.id).run();
    expect((await admin.post(`/templates/${byAdmin}`, { intent: "delete" })).status).toBe(404);
  });
});
