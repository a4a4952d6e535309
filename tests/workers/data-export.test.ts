import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, deals, gdprRequests } from "~/db/schema";
import { EXPORT_PAGE, exportRecord } from "~/modules/data/export.server";
import { EXPORT_CATEGORIES, NOT_EXPORTED, type ExportTable } from "~/modules/data/tables";
import { countCrmData, deletionSummary } from "~/modules/data/erase.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { agentWithData, tablesWithAnAgentsId } from "../factories/agent-data";
import { createUser } from "../factories/users";
import { moveToTrash } from "~/modules/trash/trash.server";

// "Everything exportable": the agent's JSON export holds exactly the agent's rows in every category.

const db = createDb(env.DB);
const ORIGIN = "http://localhost";
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;
const ALL = EXPORT_CATEGORIES.map((c) => c.key);

type ExportFile = {
  export: { format: string; version: number; exported_at: string; account: { id: string; email: string }; categories: string[] };
  categories: Record<
    string,
    { label: string; description: string; record_count: number; last_updated: string | null; records: Record<string, Record<string, unknown>[]> }
  >;
};

async function exportAs(browser: TestBrowser, categories: readonly string[]) {
  const body = new URLSearchParams(categories.map((c) => ["category", c]));
  return browser.fetch("/settings/export.json", {
    method: "POST",
    headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
}

describe("the export's map of tables", () => {
  it("places every table holding an agent's id: exported, or left out with a reason", async () => {
    const listed = new Set([...EXPORT_CATEGORIES.flatMap((c) => c.tables.map((t) => t.table)), ...Object.keys(NOT_EXPORTED)]);
    const found = await tablesWithAnAgentsId();
    expect(found.size).toBeGreaterThan(15);
    const missing = [...found.keys()].filter((table) => !listed.has(table));
    expect(missing, "tables with an agent's id that the export map does not place").toEqual([]);
  });

  it("names only columns that exist", async () => {
    for (const spec of EXPORT_CATEGORIES.flatMap((c) => c.tables as readonly ExportTable[])) {
      const { results } = await env.DB.prepare("select name from pragma_table_info(?)").bind(spec.table).all<{ name: string }>();
      const columns = new Set(results.map((r) => r.name));
      for (const column of [spec.owner, spec.updated, ...(spec.omit ?? []), ...(spec.json ?? [])])
        expect(columns.has(column), `${spec.table}.${column}`).toBe(true);
    }
  });

  it("writes times as ISO 8601, parses JSON columns and drops omitted ones", () => {
    const spec: ExportTable = { table: "contacts", owner: "user_id", omit: ["seq"], json: ["tags"], updated: "updated_at" };
    expect(
      exportRecord(spec, {
        __rowid: 4,
        seq: 4,
        tags: '["a"]',
        created_at: Date.UTC(2026, 5, 1, 12),
        last_activity: 0,
        first_response_at: null,
        name: "Jo",
      }),
    ).toEqual({
      tags: ["a"],
      created_at: "2026-06-01T12:00:00.000Z",
      last_activity: "1970-01-01T00:00:00.000Z",
      first_response_at: null,
      name: "Jo",
    });
  });
});

describe("POST /settings/export.json", () => {
  it("holds exactly the owner's rows in every category, with counts, dates and metadata, and records the request", async () => {
    const alice = await agentWithData("Alice");
    const bob = await agentWithData("Bob");
    const browser = await signInAs(alice.user);
    const response = await exportAs(browser, ALL);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="porchlight-export-\d{4}-\d{2}-\d{2}\.json"$/);
    const text = await response.text();
    const file = JSON.parse(text) as ExportFile;

    expect(file.export).toMatchObject({
      format: "porchlight-export",
      version: 1,
      account: { id: alice.user.id, email: alice.user.email },
      categories: ALL,
    });
    expect(Object.keys(file.categories)).toEqual(ALL);
    // Nothing of Bob's, anywhere in the file.
    for (const trace of [bob.user.id, bob.user.email, "Bob Buyer", "Bob 12 Oak St", "Bob Realty", "bob@example.com"])
      expect(text).not.toContain(trace);
    // No secrets.
    for (const secret of ["password_hash", "token_hash", "secret_hash", "text_body", "html_body"]) expect(text).not.toContain(secret);

    for (const category of EXPORT_CATEGORIES) {
      const exported = file.categories[category.key]!;
      expect(exported.description).toBe(category.description);
      let total = 0;
      for (const spec of category.tables as readonly ExportTable[]) {
        const rows = exported.records[spec.table]!;
        expect(Array.isArray(rows), `${category.key}.${spec.table}`).toBe(true);
        const stored = await env.DB.prepare(`select count(*) as n from "${spec.table}" where "${spec.owner}" = ?`)
          .bind(alice.user.id)
          .first<{ n: number }>();
        expect(rows.length, `${spec.table} rows`).toBe(stored!.n);
        for (const row of rows) expect(row[spec.owner], `${spec.table} owner`).toBe(alice.user.id);
        total += rows.length;
      }
      expect(exported.record_count).toBe(total);
    }
    const contactRows = file.categories.contacts!.records.contacts!;
    expect(contactRows.map((c) => c.name).sort()).toEqual(["Alice Buyer", "Alice Seller"]);
    expect(contactRows.find((c) => c.name === "Alice Buyer")).toMatchObject({ tags: ["vip", "Alice"], status: "hot", email: "alice@example.com" });
    expect(contactRows[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(contactRows[0]).not.toHaveProperty("seq");
    expect(file.categories.activities!.records.crm_activities![0]).toMatchObject({ notes: "Alice talked", meta: { minutes: 5 } });
    expect(file.categories.user_profile!.records.users![0]).toMatchObject({ id: alice.user.id, email: alice.user.email });
    expect(file.categories.calendar_feed!.records.calendar_feeds!).toHaveLength(1);
    expect(file.categories.deals!.last_updated).toMatch(/^\d{4}-/);
    expect(file.categories.data_requests!.records.gdpr_requests![0]).toMatchObject({ type: "portability", status: "pending" });

    // Once the file is written, the request is completed.
    const [request] = await db.select().from(gdprRequests).where(eq(gdprRequests.userId, alice.user.id));
    expect(request).toMatchObject({ type: "portability", status: "completed" });
    expect(request!.description).toBe(`Export (JSON): ${EXPORT_CATEGORIES.map((c) => c.label).join(", ")}`);
    expect(request!.completedAt).not.toBeNull();
    expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, bob.user.id))).toEqual([]);
  });

  it("streams more rows than a page holds, each once, and only the chosen categories", async () => {
    const user = await createUser(env.DB);
    const total = EXPORT_PAGE * 2 + 7;
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into contacts (id, user_id, name) select ? || '-' || i, ?, 'Lead ' || i from n",
    )
      .bind(total, `bulk-${user.id}`, user.id)
      .run();
    const response = await exportAs(await signInAs(user), ["contacts", "not-a-category", "contacts"]);
    expect(response.status).toBe(200);
    const file = (await response.json()) as ExportFile;
    expect(Object.keys(file.categories)).toEqual(["contacts"]);
    expect(file.export.categories).toEqual(["contacts"]);
    const rows = file.categories.contacts!.records.contacts!;
    expect(file.categories.contacts!.record_count).toBe(total);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
  });

  it("stays open to an agent whose subscription has ended, from the page the billing guard sends them to", async () => {
    const lapsed = await createUser(env.DB, { status: "canceled" });
    await db.insert(contacts).values({ id: id("c"), userId: lapsed.id, name: "Lapsed Lead" });
    const browser = await signInAs(lapsed);
    const guarded = await browser.get("/settings?tab=data");
    expect(guarded.headers.get("Location")).toBe("/pricing?billing=expired");
    const page = await browser.page("/pricing?billing=expired");
    expect(page).toContain('action="/settings/export.json"');
    for (const key of ALL) expect(page).toContain(`name="category" value="${key}"`);
    const response = await exportAs(browser, ALL);
    expect(response.status).toBe(200);
    const file = (await response.json()) as ExportFile;
    expect(file.categories.contacts!.records.contacts!.map((c) => c.name)).toEqual(["Lapsed Lead"]);
  });

  it("refuses an export with no category, with a clear message, and records nothing", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    for (const categories of [[], ["passwords"]]) {
      const response = await exportAs(browser, categories);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Choose at least one category to export.");
    }
    const json = await browser.fetch("/settings/export.json", {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({ category: ["contacts"] }),
    });
    expect(json.status).toBe(415);
    expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id))).toEqual([]);
  });

  it("sends a GET to Settings → Data, strangers to sign-in, and refuses another site's post", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const get = await browser.get("/settings/export.json");
    expect(get.status).toBe(302);
    expect(get.headers.get("Location")).toBe("/settings?tab=data");
    const stranger = await exportAs(new TestBrowser(), ALL);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toMatch(/^\/auth/);
    const forged = await browser.fetch("/settings/export.json", {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "category=contacts",
    });
    expect(forged.status).toBe(403);
    expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id))).toEqual([]);
  });

  it("allows ten exports an hour per agent, then says when to try again", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    for (let i = 0; i < 10; i++) {
      const response = await exportAs(browser, ["preferences"]);
      expect(response.status).toBe(200);
      await response.text();
    }
    const refused = await exportAs(browser, ["preferences"]);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(/^You have exported 10 times this hour\. Please try again in \d+ minutes\.$/);
    expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id))).toHaveLength(10);
  });
});

describe("Settings → Data", () => {
  it("lists each category with the agent's own record count, and the agent's requests", async () => {
    const alice = await agentWithData("Carol");
    await agentWithData("Dave");
    const browser = await signInAs(alice.user);
    const before = await browser.page("/settings?tab=data");
    expect(before).toContain("Export all my data");
    const words = before
      .replaceAll("<!-- -->", "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    expect(words).toMatch(/Contacts 2 records, last updated /);
    expect(words).toMatch(/Deals 1 record, last updated /);
    expect(before).toContain("No requests yet.");
    await (await exportAs(browser, ["contacts", "deals"])).text();
    const after = await browser.page("/settings?tab=data");
    expect(after).toContain("Export (JSON): Contacts, Deals");
    expect(after).toContain("Completed");
    expect(after).not.toContain("Dave");
  });
});

describe("GET /settings/export/<entity>.csv", () => {
  const lines = (csv: string) =>
    csv
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");

  it("writes the owner's deals, tasks and activities only, with names, money and local times", async () => {
    const alice = await agentWithData("Erin");
    await agentWithData("Frank");
    await db.insert(deals).values({
      id: id("d"),
      userId: alice.user.id,
      title: '=HYPERLINK("http://x")',
      stage: "lead",
      position: "a1",
      commissionRate: 3,
      probability: 10,
    });
    const browser = await signInAs(alice.user);

    const dealsCsv = await browser.get("/settings/export/deals.csv");
    expect(dealsCsv.status).toBe(200);
    expect(dealsCsv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(dealsCsv.headers.get("Content-Disposition")).toMatch(/^attachment; filename="porchlight-deals-\d{4}-\d{2}-\d{2}\.csv"$/);
    const dealLines = lines(await dealsCsv.text());
    expect(dealLines[0]).toBe(
      "title,contact,stage,side,property_address,deal_value,commission_rate_pct,probability_pct,expected_close_date,closed_date,lost_reason,inspection_date,appraisal_date,financing_date,closing_date,notes,created,updated",
    );
    expect(dealLines).toHaveLength(3);
    expect(dealLines.find((l) => l.startsWith("Erin 12 Oak St"))).toMatch(
      /^Erin 12 Oak St,Erin Buyer,Offer,,,500000\.00,3,60,.*,\d{4}-\d{2}-\d{2} \d{2}:\d{2},\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
    );
    // A cell a spreadsheet would run as a formula stays text.
    expect(dealLines.some((l) => l.startsWith(`"'=HYPERLINK(""http://x"")",,Lead,`))).toBe(true);

    const tasks = lines(await (await browser.get("/settings/export/tasks.csv")).text());
    expect(tasks).toEqual([
      "title,type,priority,status,due_date,due_time,repeat,contact,deal,notes,completed,created",
      expect.stringMatching(/^Erin call back,follow_up,medium,open,2026-06-05,,,Erin Buyer,,,,\d{4}-/),
    ]);
    const activities = lines(await (await browser.get("/settings/export/activities.csv")).text());
    expect(activities).toEqual([
      "when,type,contact,deal,outcome,notes",
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2},call,Erin Buyer,,,Erin talked$/),
    ]);
    for (const csv of [dealLines, tasks, activities]) expect(csv.join("\n")).not.toContain("Frank");
  });

  it("streams every row once past a page, and answers 404 for an unknown kind and sign-in for a stranger", async () => {
    const user = await createUser(env.DB);
    const total = 1_003;
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into crm_activities (id, user_id, type, occurred_at, notes) select ? || '-' || i, ?, 'note', 1780000000000 + i, 'Note ' || i from n",
    )
      .bind(total, `bulk-${user.id}`, user.id)
      .run();
    const browser = await signInAs(user);
    const rows = lines(await (await browser.get("/settings/export/activities.csv")).text()).slice(1);
    expect(rows).toHaveLength(total);
    expect(new Set(rows).size).toBe(total);

    const unknown = await browser.get("/settings/export/users.csv");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("There is no export by that name.");
    const stranger = await new TestBrowser().get("/settings/export/deals.csv");
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toMatch(/^\/auth/);
  });
});

describe("Settings → Data → Delete my data", () => {
  const erase = (browser: TestBrowser, password: string) => browser.post("/settings?tab=data", { intent: "delete-data", password });
  const count = async (table: string, userId: string) =>
    (await env.DB.prepare(`select count(*) as n from "${table}" where user_id = ?`).bind(userId).first<{ n: number }>())!.n;

  it("deletes the agent's CRM records and nothing else, keeps the account, and records the request", async () => {
    const grace = await agentWithData("Grace");
    const heidi = await agentWithData("Heidi");
    // Each has a contact in the trash: "Delete my data" empties Grace's trash too, so nothing can come back from it.
    for (const { user } of [grace, heidi]) {
      await env.DB.prepare("insert into contacts (id, user_id, name) values (?, ?, 'Trashed')").bind(`trashed-${user.id}`, user.id).run();
      expect((await moveToTrash(env.DB, user.id, "contact", [`trashed-${user.id}`])).moved).toBe(1);
    }
    const browser = await signInAs(grace.user);
    const response = await erase(browser, grace.user.password);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings?tab=data");
    for (const table of [
      "contacts",
      "deals",
      "crm_tasks",
      "crm_activities",
      "deal_stage_history",
      "lead_source_costs",
      "contact_tags",
      "trash_items",
      "trash_rows",
    ]) {
      expect(await count(table, grace.user.id), table).toBe(0);
      expect(await count(table, heidi.user.id), `${table} of another agent`).toBeGreaterThan(0);
    }
    // The trigger-kept counts follow; the account, its settings and its subscription stay.
    expect(
      (await env.DB.prepare("select coalesce(sum(n), 0) as n from contact_status_counts where user_id = ?")
        .bind(grace.user.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    for (const table of ["agent_profiles", "commission_plans", "user_preferences", "subscribers", "calendar_feeds"])
      expect(await count(table, grace.user.id), table).toBe(1);
    const [request] = await db.select().from(gdprRequests).where(eq(gdprRequests.userId, grace.user.id));
    expect(request).toMatchObject({
      type: "erasure",
      status: "completed",
      description: "Delete my data: 2 contacts, 1 deal, 1 task, 1 activity, their stage history, lead source costs and the trash",
    });
    // Still signed in, and the page says what happened.
    const page = await browser.follow(response);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain("Delete my data: 2 contacts");
  });

  it("says how many records it removes and, apart, how many items the trash holds, each counted from the tables it empties", async () => {
    const text = async (browser: TestBrowser) => (await browser.page("/settings?tab=data")).replace(/<!-- -->/g, "");
    const jo = await agentWithData("Jo");
    const browser = await signInAs(jo.user);
    expect(deletionSummary(await countCrmData(env.DB, jo.user.id))).toEqual({ records: 7, trashItems: 0 });
    // Two contacts, a deal and its stage history, a task, an activity and a month's lead source cost; nothing in the trash.
    // The trash is empty: nothing is said about emptying it.
    const joPage = await text(browser);
    expect(joPage).toContain("your lead source costs (7 records now). Your account");
    expect(joPage).toContain("7 records will be deleted.");
    expect(joPage).not.toMatch(/in the trash \(|trash \(empty/);
    // A contact to the trash: it is no longer a record but one item in the trash.
    const seller = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.name, "Jo Seller")).get();
    expect((await moveToTrash(env.DB, jo.user.id, "contact", [seller!.id])).moved).toBe(1);
    expect(await text(browser)).toContain("your lead source costs (6 records now), and everything in the trash (1 item now).");
    // Only the trash left: there is still something to delete.
    const kim = await createUser(env.DB);
    await env.DB.prepare("insert into contacts (id, user_id, name) values (?, ?, 'Trashed')").bind(`trashed-${kim.id}`, kim.id).run();
    expect((await moveToTrash(env.DB, kim.id, "contact", [`trashed-${kim.id}`])).moved).toBe(1);
    const html = await text(await signInAs(kim));
    expect(html).toContain("your lead source costs (0 records now), and everything in the trash (1 item now).");
    expect(html).toContain("1 item in the trash will be deleted.");
    expect(html).not.toMatch(/<button[^>]*disabled=""[^>]*>Delete my data<\/button>/);
    // Nothing at all: it says so, and the button cannot be pressed.
    const empty = await text(await signInAs(await createUser(env.DB)));
    expect(empty).toContain("You have no contacts, deals, tasks or activities, and the trash is empty: there is nothing to delete.");
    expect(empty).not.toMatch(/records? now|items? now/);
    expect(empty).toMatch(/<button[^>]*disabled=""[^>]*>Delete my data<\/button>/);
  });

  it("deletes more contacts than a chunk holds", async () => {
    const user = await createUser(env.DB);
    await env.DB.prepare(
      "with recursive n(i) as (select 1 union all select i + 1 from n where i < 1203) insert into contacts (id, user_id, name, tags) select ? || '-' || i, ?, 'Lead ' || i, '[\"open-house\"]' from n",
    )
      .bind(`bulk-${user.id}`, user.id)
      .run();
    const response = await erase(await signInAs(user), user.password);
    expect(response.status).toBe(302);
    expect(await count("contacts", user.id)).toBe(0);
    expect(await count("contact_tags", user.id)).toBe(0);
    const [request] = await db.select().from(gdprRequests).where(eq(gdprRequests.userId, user.id));
    expect(request!.description).toMatch(/^Delete my data: 1,203 contacts, 0 deals/);
  });

  it("deletes nothing without the right password, and stops guessing after five tries", async () => {
    const ivan = await agentWithData("Ivan");
    const browser = await signInAs(ivan.user);
    for (const password of ["", "wrong password"]) {
      const response = await erase(browser, password);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("That password is not correct. Nothing was deleted.");
    }
    for (let i = 0; i < 3; i++) expect((await erase(browser, "still wrong")).status).toBe(400);
    const limited = await erase(browser, ivan.user.password);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/Too many tries\. Please wait \d+ minutes\. Nothing was deleted\./);
    expect(await count("contacts", ivan.user.id)).toBe(2);
    expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, ivan.user.id))).toEqual([]);
  });
});

describe("Operations Center → Compliance", () => {
  const exportFor = (browser: TestBrowser, email: string) => browser.post("/operations/export.json", { email });

  it("lets an admin export an agent's data for a request by e-mail, recorded on the agent, and lists every agent's requests", async () => {
    const admin = await createUser(env.DB, { role: "admin" });
    const judy = await agentWithData("Judy");
    const browser = await signInAs(admin);
    const response = await exportFor(browser, ` ${judy.user.email.toUpperCase()} `);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="porchlight-export-\d{4}-\d{2}-\d{2}\.json"$/);
    const file = (await response.json()) as ExportFile;
    expect(file.export.account).toEqual({ id: judy.user.id, email: judy.user.email });
    expect(Object.keys(file.categories)).toEqual(ALL);
    expect(file.categories.contacts!.records.contacts!.map((c) => c.name).sort()).toEqual(["Judy Buyer", "Judy Seller"]);
    const [request] = await db.select().from(gdprRequests).where(eq(gdprRequests.userId, judy.user.id));
    expect(request).toMatchObject({
      type: "access",
      status: "completed",
      description: `Export (JSON) of everything, by ${admin.email} for a request by e-mail`,
    });

    const page = await browser.page("/operations?tab=compliance");
    expect(page).toContain("Data requests, last 30 days");
    expect(page).toContain(judy.user.email);
    expect(page).toContain(`by ${admin.email} for a request by e-mail`);
  });

  it("tells the admin when there is no such account, and hides the export and the tab from everyone else", async () => {
    const admin = await createUser(env.DB, { role: "admin" });
    const adminBrowser = await signInAs(admin);
    const unknown = await exportFor(adminBrowser, "nobody-here@example.com");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("There is no account with that e-mail address.");
    const empty = await exportFor(adminBrowser, "  ");
    expect(empty.status).toBe(400);
    expect(await empty.text()).toBe("Enter the e-mail address of the account to export.");

    const kim = await agentWithData("Kim");
    const agent = await signInAs(await createUser(env.DB));
    expect((await exportFor(agent, kim.user.email)).status).toBe(404);
    expect((await agent.get("/operations?tab=compliance")).status).toBe(404);
    expect(await db.select().from(gdprRequests).where(eq(gdprRequests.userId, kim.user.id))).toEqual([]);
  });
});
