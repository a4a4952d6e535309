import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { userPreferences } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { reportTables } from "~/modules/reports/build.server";
import { followUpEmails, followUpRuns } from "~/modules/reports/follow-up.server";
import { loadReports } from "~/modules/reports/reports.server";
import { csvRows, type ReportTable } from "~/modules/reports/table";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

// Reports' follow-up e-mail, per template and per action plan, on an agent in Los Angeles whose period (2–15 March 2026)
// spans the start of daylight saving time: it begins at 08:00 UTC on 2 March (PST) and ends at 07:00 UTC on 16 March
// (PDT). Every row is written with SQL, as the sending, reply and plan code write them; the period is explicit, so
// nothing depends on the day the suite runs.

const db = createDb(env.DB);
const PERIOD = "period=custom&from=2026-03-02&to=2026-03-15";
const now = new Date("2026-03-20T19:00:00Z");
const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);
const uid = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 12)}`;

async function agent() {
  const user = await createUser(env.DB);
  await db.update(userPreferences).set({ timezone: "America/Los_Angeles" }).where(eq(userPreferences.userId, user.id));
  const contactId = uid("c");
  await env.DB.prepare("insert into contacts (id, user_id, name, email, status) values (?, ?, 'Jane Whitmore', 'jane@example.com', 'hot')")
    .bind(contactId, user.id)
    .run();
  return { user, userId: user.id as UserId, contactId };
}

/** Writes statements for one agent's rows: templates, plans, runs, e-mails sent and their replies. */
function writer(owner: { userId: string; contactId: string }) {
  const statements: D1PreparedStatement[] = [];
  const run = (query: string, ...values: unknown[]) => statements.push(env.DB.prepare(query).bind(...values));
  return {
    statements,
    template(name: string) {
      const id = uid("t");
      run(
        "insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', ?, 'Hello', 'Hi {{first_name}}')",
        id,
        owner.userId,
        name,
      );
      return id;
    },
    plan(name: string) {
      const id = uid("p");
      run("insert into action_plans (id, user_id, name, steps) values (?, ?, ?, '[]')", id, owner.userId, name);
      return id;
    },
    run(plan: { id: string | null; name: string }, startedAt: string, status: string, stopReason: string | null = null) {
      const id = uid("r");
      // Each run its own contact, so the one live run per contact and plan never collides.
      const contactId = uid("c");
      run("insert into contacts (id, user_id, name, status) values (?, ?, 'Run contact', 'warm')", contactId, owner.userId);
      run(
        "insert into plan_runs (id, user_id, plan_id, plan_name, contact_id, steps, status, stop_reason, started_at) values (?, ?, ?, ?, ?, '[]', ?, ?, ?)",
        id,
        owner.userId,
        plan.id,
        plan.name,
        contactId,
        status,
        stopReason,
        at(startedAt),
      );
      return id;
    },
    /** An e-mail sent at `sentAt`, with its activity (whose meta keeps the template, as send.server.ts writes it). */
    sent(sentAt: string, options: { template?: string | null; planRun?: string | null; status?: string } = {}) {
      const id = uid("e");
      const activityId = uid("a");
      const meta = {
        emailId: id,
        subject: "Hello",
        via: "porchlight",
        status: options.status ?? "sent",
        ...(options.template ? { templateId: options.template } : {}),
      };
      run(
        "insert into crm_activities (id, user_id, contact_id, type, occurred_at, meta) values (?, ?, ?, 'email_sent', ?, ?)",
        activityId,
        owner.userId,
        owner.contactId,
        at(sentAt),
        JSON.stringify(meta),
      );
      run(
        `insert into contact_emails (id, user_id, contact_id, direction, via, from_address, to_address, subject, body, status, template_id, plan_run_id,
           activity_id, occurred_at) values (?, ?, ?, 'out', 'porchlight', 'dana@example.com', 'jane@example.com', 'Hello', 'Hi Jane', ?, ?, ?, ?, ?)`,
        id,
        owner.userId,
        owner.contactId,
        options.status ?? "sent",
        options.template ?? null,
        options.planRun ?? null,
        activityId,
        at(sentAt),
      );
      return { id, at: at(sentAt) };
    },
    /** A reply to `email` after `minutes`; `auto`: an out-of-office. `by`: whose row it is (the e-mail's owner unless given). */
    reply(email: { id: string; at: number }, minutes: number, options: { auto?: boolean; by?: { userId: string; contactId: string } } = {}) {
      const by = options.by ?? owner;
      const id = uid("in");
      const activityId = uid("a");
      const when = email.at + minutes * MIN;
      run(
        "insert into crm_activities (id, user_id, contact_id, type, occurred_at, meta) values (?, ?, ?, 'email_received', ?, ?)",
        activityId,
        by.userId,
        by.contactId,
        when,
        JSON.stringify({ emailId: id, subject: "Re: Hello", ...(options.auto ? { auto: 1 } : {}) }),
      );
      run(
        `insert into contact_emails (id, user_id, contact_id, direction, via, from_address, to_address, subject, body, status, replies_to, activity_id,
           occurred_at) values (?, ?, ?, 'in', 'porchlight', 'jane@example.com', 'dana@example.com', 'Re: Hello', 'Thanks!', 'received', ?, ?, ?)`,
        id,
        by.userId,
        by.contactId,
        email.id,
        activityId,
        when,
      );
    },
    async flush() {
      for (let i = 0; i < statements.length; i += 50) await env.DB.batch(statements.slice(i, i + 50));
      statements.length = 0;
    },
  };
}

/** The agent's e-mails and plans, another agent's on the same days, and the rows that must not count. */
async function account() {
  const me = await agent();
  const them = await agent();
  const w = writer(me);
  const justListed = w.template("Just listed");
  const checkIn = w.template("Check-in");
  const old = w.template("Old template");
  const nurture = { id: w.plan("New lead nurture"), name: "New lead nurture" };
  const gone = { id: null, name: "Old plan" };
  // Runs: three of "New lead nurture" started in the period (one stopped by a reply, one by the agent, one running), one
  // started before it (stopped by a reply), and one of a deleted plan (stopped by a reply).
  const r1 = w.run(nurture, "2026-03-03T17:00:00Z", "stopped", "The contact replied.");
  w.run(nurture, "2026-03-04T17:00:00Z", "running");
  w.run(nurture, "2026-03-05T17:00:00Z", "stopped", "You stopped this plan.");
  const r3 = w.run(nurture, "2026-02-20T17:00:00Z", "stopped", "The contact replied.");
  const r4 = w.run(gone, "2026-03-06T17:00:00Z", "stopped", "The contact replied.");

  // "Just listed": replied after 3 h 20 min (and again later: counted once, the first for the time), bounced, only an
  // out-of-office, an out-of-office then a person after 2 days; one that failed to send.
  const e1 = w.sent("2026-03-03T18:00:00Z", { template: justListed });
  w.reply(e1, 200);
  w.reply(e1, 300);
  w.sent("2026-03-04T18:00:00Z", { template: justListed, status: "bounced" });
  const e3 = w.sent("2026-03-05T18:00:00Z", { template: justListed });
  w.reply(e3, 10, { auto: true });
  const e4 = w.sent("2026-03-06T18:00:00Z", { template: justListed });
  w.reply(e4, 10, { auto: true });
  w.reply(e4, 2 * 24 * 60);
  w.sent("2026-03-07T18:00:00Z", { template: justListed, status: "failed" });
  // Outside the period: a minute before it begins (1 March, 23:59 PST) and the first moment after it (16 March, 00:00 PDT).
  const before = w.sent("2026-03-02T07:59:00Z", { template: justListed });
  w.reply(before, 5);
  w.sent("2026-03-16T07:00:00Z", { template: checkIn });
  // "Check-in": the period's last minute (15 March, 23:59 PDT), unanswered; a plan's e-mail answered after a day; a plan
  // e-mail of a run started before the period, bounced.
  w.sent("2026-03-16T06:59:00Z", { template: checkIn });
  const e9 = w.sent("2026-03-08T18:00:00Z", { template: checkIn, planRun: r1 });
  w.reply(e9, 24 * 60);
  w.sent("2026-03-10T18:00:00Z", { template: checkIn, planRun: r3, status: "bounced" });
  // "Old template", deleted below: sent by hand (answered in 30 minutes) and by the deleted plan.
  const e10 = w.sent("2026-03-09T18:00:00Z", { template: old });
  w.reply(e10, 30);
  w.sent("2026-03-09T19:00:00Z", { template: old, planRun: r4 });
  // Written by hand: answered in 45 minutes, bounced (marked as spam counts as sent), unanswered.
  const e12 = w.sent("2026-03-11T18:00:00Z");
  w.reply(e12, 45);
  w.sent("2026-03-12T18:00:00Z", { status: "bounced" });
  w.sent("2026-03-12T19:00:00Z", { status: "complained" });
  await w.flush();
  await env.DB.prepare("delete from crm_templates where id = ?").bind(old).run();

  // The other agent: a template of the same name, e-mails and replies in the period, a run of their own plan, and a
  // reply of theirs to one of my e-mails (another agent's row never counts for me).
  const t = writer(them);
  const theirs = t.template("Just listed");
  const theirPlan = { id: t.plan("New lead nurture"), name: "New lead nurture" };
  const theirRun = t.run(theirPlan, "2026-03-04T17:00:00Z", "stopped", "The contact replied.");
  const x1 = t.sent("2026-03-04T18:00:00Z", { template: theirs, planRun: theirRun });
  t.reply(x1, 15);
  t.sent("2026-03-05T18:00:00Z", { status: "bounced" });
  t.reply(e3, 60, { by: them });
  await t.flush();
  return { me, them };
}

/** The table's rows (and footer rows) by their first cell, each as { column label: CSV value }. */
function cellsOf(table: ReportTable) {
  const [header, ...rows] = csvRows(table);
  return Object.fromEntries(rows.map((row) => [row[0], Object.fromEntries(header!.slice(1).map((label, i) => [label, row[i + 1]]))]));
}
/** The same, as the page shows them. */
function textsOf(table: ReportTable) {
  return Object.fromEntries(
    [...table.rows.map((r) => r.cells), ...(table.total ? [table.total] : [])].map((cells) => [cells[0]!.text, cells.slice(1).map((c) => c.text)]),
  );
}

const figures = (sent: number, bounced: number, replied: number, rate: number | null, median: number | null) => ({
  Sent: String(sent),
  Bounced: String(bounced),
  Replied: String(replied),
  "Reply rate (%)": rate === null ? "" : String(rate),
  "Median time to reply (minutes)": median === null ? "" : String(median),
});

describe("follow-up e-mail", () => {
  it("counts the period's e-mails per template: bounced, replied once by a person, reply rate and median time to reply", async () => {
    const { me, them } = await account();
    const reports = await loadReports(requestContext(), me.userId, new URLSearchParams(PERIOD), now);
    const { templates, plans } = reports.followUp;
    expect(reports.followUp.empty).toBe(false);
    expect(csvRows(templates)[0]).toEqual(["Template", "Sent", "Bounced", "Replied", "Reply rate (%)", "Median time to reply (minutes)"]);
    // Templates by name, then the deleted template's e-mails and those written by hand; medians of an even number are
    // the lower middle one.
    expect(cellsOf(templates)).toEqual({
      "Check-in": figures(3, 1, 1, 50, 1440),
      "Just listed": figures(4, 1, 2, 67, 200),
      "A deleted template": figures(2, 0, 1, 50, 30),
      "Written by hand": figures(3, 1, 1, 50, 45),
      "All e-mails": figures(12, 3, 5, 56, 200),
    });
    expect(Object.keys(cellsOf(templates))).toEqual(["Check-in", "Just listed", "A deleted template", "Written by hand", "All e-mails"]);
    expect(textsOf(templates)).toMatchObject({
      "Just listed": ["4", "1", "2", "67%", "3 h 20 min"],
      "Check-in": ["3", "1", "1", "50%", "1 day"],
      "Written by hand": ["3", "1", "1", "50%", "45 min"],
    });

    // Per plan: runs started in the period and those a reply stopped; the plan's e-mails in the period, whenever its run began.
    expect(csvRows(plans)[0]).toEqual([
      "Plan",
      "Runs started",
      "Stopped by a reply",
      "Sent",
      "Bounced",
      "Replied",
      "Reply rate (%)",
      "Median time to reply (minutes)",
    ]);
    expect(cellsOf(plans)).toEqual({
      "New lead nurture": { "Runs started": "3", "Stopped by a reply": "1", ...figures(2, 1, 1, 100, 1440) },
      "Old plan": { "Runs started": "1", "Stopped by a reply": "1", ...figures(1, 0, 0, 0, null) },
      "All plans": { "Runs started": "4", "Stopped by a reply": "2", ...figures(3, 1, 1, 50, 1440) },
    });
    expect(textsOf(plans)["Old plan"]).toEqual(["1", "1", "1", "0", "0", "0%", "—"]);
    // The CSV downloads are these tables.
    expect(reportTables(reports)).toContain(templates);
    expect(reportTables(reports)).toContain(plans);

    // The other agent sees only their own.
    const theirReports = await loadReports(requestContext(), them.userId, new URLSearchParams(PERIOD), now);
    expect(cellsOf(theirReports.followUp.templates)).toEqual({
      "Just listed": figures(1, 0, 1, 100, 15),
      "Written by hand": figures(1, 1, 0, null, null),
      "All e-mails": figures(2, 1, 1, 100, 15),
    });
    expect(cellsOf(theirReports.followUp.plans)).toEqual({
      "New lead nurture": { "Runs started": "1", "Stopped by a reply": "1", ...figures(1, 0, 1, 100, 15) },
      "All plans": { "Runs started": "1", "Stopped by a reply": "1", ...figures(1, 0, 1, 100, 15) },
    });
  });

  it("is empty for a period with no e-mail and no run", async () => {
    const { me } = await account();
    const reports = await loadReports(requestContext(), me.userId, new URLSearchParams("period=custom&from=2026-01-05&to=2026-01-20"), now);
    expect(reports.followUp.empty).toBe(true);
    expect(csvRows(reports.followUp.templates)).toEqual([
      ["Template", "Sent", "Bounced", "Replied", "Reply rate (%)", "Median time to reply (minutes)"],
      ["All e-mails", "0", "0", "0", "", ""],
    ]);
  });

  it("reads the period's e-mails off the owner's time index, each e-mail's replies off replies_to, and runs off their start", async () => {
    const { me } = await account();
    const range = { lo: at("2026-03-02T08:00:00Z"), hi: at("2026-03-16T07:00:00Z") };
    const { sql, params } = followUpEmails(db, me.userId, range).toSQL();
    const explained = await env.DB.prepare(`explain query plan ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const details = explained.results.map((r) => r.detail);
    expect(details).toContain("SEARCH e USING INDEX contact_emails_user_time (user_id=? AND occurred_at>? AND occurred_at<?)");
    expect(details).toContain("SEARCH reply USING INDEX contact_emails_replies_to (replies_to=?)");
    expect(details.filter((d) => d.startsWith("SCAN"))).toEqual([]);
    const runs = followUpRuns(db, me.userId, range).toSQL();
    const runPlan = await env.DB.prepare(`explain query plan ${runs.sql}`)
      .bind(...runs.params)
      .all<{ detail: string }>();
    expect(runPlan.results.map((r) => r.detail)).toContain(
      "SEARCH plan_runs USING INDEX plan_runs_user_started (user_id=? AND started_at>? AND started_at<?)",
    );
  });

  describe("over HTTP", () => {
    it("shows both tables on the page and downloads the same figures as CSV", async () => {
      const { me } = await account();
      const reports = await loadReports(requestContext(), me.userId, new URLSearchParams(PERIOD), now);
      const browser = await signInAs(me.user);
      const html = (await browser.page(`/reports?${PERIOD}`)).replace(/<!-- -->/g, "");
      expect(html).toContain("Follow-up e-mail");
      expect(html).toContain("A deleted template");
      expect(html).toContain("Written by hand");
      expect(html).toContain("3 h 20 min");
      expect(html).toContain("New lead nurture");
      for (const id of ["follow-up-templates", "follow-up-plans"])
        expect(html).toContain(`href="/reports/${id}.csv?${PERIOD.replace(/&/g, "&amp;")}"`);

      for (const table of [reports.followUp.templates, reports.followUp.plans]) {
        const csv = await browser.get(`/reports/${table.id}.csv?${PERIOD}`);
        expect(csv.status).toBe(200);
        expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="porchlight-${table.id}-2026-03-02-to-2026-03-15.csv"`);
        const lines = (await csv.text())
          .replace(/^\uFEFF/, "")
          .trim()
          .split("\r\n");
        expect(lines).toEqual(csvRows(table).map((row) => row.join(",")));
      }
    });
  });
});
