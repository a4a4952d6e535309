import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, leadIntakeAddresses, leadIntakeMessages, userPreferences, type IntakeStatus, type NewContact } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { toReviewByMonth } from "~/modules/intake/intake.server";
import { reportTables } from "~/modules/reports/build.server";
import { leadsByMonth } from "~/modules/reports/figures.server";
import { loadReports } from "~/modules/reports/reports.server";
import { csvRows, type ReportTable } from "~/modules/reports/table";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

// Reports' new leads per source per month, and the lead e-mails still to review under them, on an agent in Los Angeles
// whose period runs over the end of daylight saving time: 1 November 2026 begins at 07:00 UTC (PDT), the days after it
// at 08:00 (PST), so neither UTC months nor one offset for the whole period bucket it right. The period and the clock are
// passed in: nothing here depends on the day the suite runs.

const db = createDb(env.DB);
const at = (iso: string) => new Date(iso);
// Noon on Friday 20 November 2026 in Los Angeles; the period is 15 October – 20 November.
const now = at("2026-11-20T20:00:00Z");
const PERIOD = "period=custom&from=2026-10-15&to=2026-11-20";
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

async function agent(timezone = "America/Los_Angeles") {
  const user = await createUser(env.DB);
  await db.update(userPreferences).set({ timezone }).where(eq(userPreferences.userId, user.id));
  const address = { id: id("addr"), userId: user.id, key: id("key").replace(/[^a-z0-9]/g, "") };
  await db.insert(leadIntakeAddresses).values(address);
  return { user, userId: user.id as UserId, addressId: address.id };
}

/** A contact that arrived as a new lead at `leadAt` (null: not a lead, as an imported contact is). */
function lead(userId: string, source: NewContact["source"], leadAt: string | null, createdAt = leadAt ?? "2026-11-02T18:00:00Z"): NewContact {
  return {
    id: id("c"),
    userId,
    name: `Lead ${seq}`,
    status: "cold",
    source,
    createdAt: at(createdAt),
    lastActivity: at(createdAt),
    leadAt: leadAt === null ? null : at(leadAt),
  };
}

/** Contacts in statements of at most 9 rows (10 bound values each: D1 takes 100 a statement). */
async function insertContacts(rows: NewContact[]) {
  for (let i = 0; i < rows.length; i += 9) await db.insert(contacts).values(rows.slice(i, i + 9));
}

function email(owner: { userId: string; addressId: string }, status: IntakeStatus, receivedAt: string) {
  return {
    id: id("m"),
    userId: owner.userId,
    addressId: owner.addressId,
    receivedAt: at(receivedAt),
    fromAddress: "leads@portal.test",
    subject: "New lead",
    format: "unknown" as const,
    status,
    lead: "{}",
    body: "Someone asked about a house.",
    auth: "{}",
    size: 100,
  };
}

/** The table's rows (and footer rows) by their first cell, each as { column label: CSV value }. */
function cellsOf(table: ReportTable) {
  const lines = csvRows(table);
  const [header, ...rows] = lines;
  return Object.fromEntries(rows.map((row) => [row[0], Object.fromEntries(header!.slice(1).map((label, i) => [label, row[i + 1]]))]));
}

/** The agent's leads and e-mails, with another agent's in the same days, and the contacts that must not count. */
async function account() {
  const me = await agent();
  const them = await agent();
  await insertContacts([
    // October in Los Angeles: the first day of the period, and the last moment of October (06:59:59.999 UTC, 23:59 PDT).
    lead(me.userId, "zillow", "2026-10-15T07:00:00Z"),
    lead(me.userId, "zillow", "2026-11-01T06:59:59.999Z"),
    // November: its first moment, and the last moment of the period (20 November 23:59:59.999 PST).
    lead(me.userId, "zillow", "2026-11-01T07:00:00Z"),
    lead(me.userId, "website", "2026-11-10T17:00:00Z"),
    lead(me.userId, "website", "2026-11-21T07:59:59.999Z"),
    // Outside the period: the moment before it (14 October 23:59 PDT) and the first moment after it.
    lead(me.userId, "zillow", "2026-10-15T06:59:59.999Z"),
    lead(me.userId, "website", "2026-11-21T08:00:00Z"),
    // Contacts added in the period that did not arrive as new leads.
    lead(me.userId, "zillow", null, "2026-11-03T18:00:00Z"),
    lead(me.userId, "referral", null, "2026-10-20T18:00:00Z"),
    // Another agent's leads on the same days.
    lead(them.userId, "zillow", "2026-11-01T07:00:00Z"),
    lead(them.userId, "open_house", "2026-10-20T18:00:00Z"),
  ]);
  await db.insert(leadIntakeMessages).values([
    // To review: one in October (the last hour of it, after 00:00 UTC on 1 November) and one in November.
    email(me, "review", "2026-11-01T06:30:00Z"),
    email(me, "review", "2026-11-05T18:00:00Z"),
    // Not to review: read as leads, attached, confirmed or discarded by the agent; one to review from before the period.
    email(me, "created", "2026-11-05T18:00:00Z"),
    email(me, "attached", "2026-11-06T18:00:00Z"),
    email(me, "confirmed", "2026-10-20T18:00:00Z"),
    email(me, "discarded", "2026-11-07T18:00:00Z"),
    email(me, "review", "2026-10-14T18:00:00Z"),
  ]);
  await db.insert(leadIntakeMessages).values([
    // Another agent's e-mails to review.
    email(them, "review", "2026-11-05T18:00:00Z"),
    email(them, "review", "2026-10-20T18:00:00Z"),
  ]);
  return { me, them };
}

describe("new leads per source per month", () => {
  it("counts each lead in its month in the agent's timezone, owner-scoped, with the e-mails still to review under the totals", async () => {
    const { me, them } = await account();
    const reports = await loadReports(requestContext(), me.userId, new URLSearchParams(PERIOD), now);
    const table = reports.sources.months;
    expect(table.caption).toBe("New leads per source per month");
    expect(table.columns.map((c) => c.label)).toEqual(["Source", "Oct 2026", "Nov 2026", "Total"]);
    // Sources in CONTACT_SOURCES order, only those with a lead; then the totals and the e-mails to review.
    expect(csvRows(table)).toEqual([
      ["Source", "Oct 2026", "Nov 2026", "Total"],
      ["Website", "0", "2", "2"],
      ["Zillow", "2", "1", "3"],
      ["All sources", "2", "3", "5"],
      ["To review (not yet a contact)", "1", "1", "2"],
    ]);
    expect(reports.sources).toMatchObject({ hasLeads: true, toReview: 2, empty: false });
    // One definition of a lead: the months add up to Speed to lead's new leads of the same period.
    const speedTotal = reports.speed.table.total![1]!.value;
    expect(speedTotal).toBe(5);
    expect(reportTables(reports)).toContain(table);

    // The other agent's own table holds their leads and e-mails, and none of these.
    const theirs = await loadReports(requestContext(), them.userId, new URLSearchParams(PERIOD), now);
    expect(cellsOf(theirs.sources.months)).toEqual({
      Zillow: { "Oct 2026": "0", "Nov 2026": "1", Total: "1" },
      "Open house": { "Oct 2026": "1", "Nov 2026": "0", Total: "1" },
      "All sources": { "Oct 2026": "1", "Nov 2026": "1", Total: "2" },
      "To review (not yet a contact)": { "Oct 2026": "1", "Nov 2026": "1", Total: "2" },
    });
  });

  it("buckets by the agent's own midnights, not UTC's, in New York and Tokyo too", async () => {
    for (const [timezone, october, november] of [
      ["America/New_York", "2026-11-01T03:59:59.999Z", "2026-11-01T04:00:00.000Z"],
      ["Asia/Tokyo", "2026-10-31T14:59:59.999Z", "2026-10-31T15:00:00.000Z"],
    ] as const) {
      const me = await agent(timezone);
      await db.insert(contacts).values([lead(me.userId, "redfin", october), lead(me.userId, "redfin", november)]);
      await db.insert(leadIntakeMessages).values([email(me, "review", october), email(me, "review", november)]);
      const reports = await loadReports(requestContext(), me.userId, new URLSearchParams(PERIOD), now);
      expect(cellsOf(reports.sources.months), timezone).toEqual({
        Redfin: { "Oct 2026": "1", "Nov 2026": "1", Total: "2" },
        "All sources": { "Oct 2026": "1", "Nov 2026": "1", Total: "2" },
        "To review (not yet a contact)": { "Oct 2026": "1", "Nov 2026": "1", Total: "2" },
      });
    }
  });

  it("shows the last 12 months of a longer period and says so", async () => {
    const me = await agent();
    await db.insert(contacts).values([
      // November 2025: the 13th month back, before the months shown; December 2025: the first one shown.
      lead(me.userId, "trulia", "2025-11-20T18:00:00Z"),
      lead(me.userId, "trulia", "2025-12-01T08:00:00Z"),
      lead(me.userId, "homes_com", "2026-11-20T18:00:00Z"),
    ]);
    await db.insert(leadIntakeMessages).values([email(me, "review", "2025-11-20T18:00:00Z"), email(me, "review", "2025-12-02T18:00:00Z")]);
    const reports = await loadReports(requestContext(), me.userId, new URLSearchParams("period=custom&from=2025-01-15&to=2026-11-20"), now);
    const table = reports.sources.months;
    expect(table.caption).toBe("New leads per source per month: the last 12 of the period's 23 months");
    expect(table.columns.map((c) => c.label)).toEqual([
      "Source",
      "Dec 2025",
      "Jan 2026",
      "Feb 2026",
      "Mar 2026",
      "Apr 2026",
      "May 2026",
      "Jun 2026",
      "Jul 2026",
      "Aug 2026",
      "Sep 2026",
      "Oct 2026",
      "Nov 2026",
      "Total",
    ]);
    const cells = cellsOf(table);
    expect(cells["Trulia"]).toMatchObject({ "Dec 2025": "1", "Nov 2026": "0", Total: "1" });
    expect(cells["Homes.com"]).toMatchObject({ "Nov 2026": "1", Total: "1" });
    expect(cells["All sources"]).toMatchObject({ Total: "2" });
    expect(cells["To review (not yet a contact)"]).toMatchObject({ "Dec 2025": "1", Total: "1" });

    // Last 12 months on 20 November touches 13 calendar months (21 November 2025 to 20 November 2026).
    const year = await loadReports(requestContext(), me.userId, new URLSearchParams("period=last-12-months"), now);
    expect(year.sources.months.caption).toBe("New leads per source per month: the last 12 of the period's 13 months");
    expect(year.sources.months.columns[1]!.label).toBe("Dec 2025");
    // A month or less: one column.
    const month = await loadReports(requestContext(), me.userId, new URLSearchParams("period=this-month"), now);
    expect(month.sources.months.columns.map((c) => c.label)).toEqual(["Source", "Nov 2026", "Total"]);
  });

  it("says no lead arrived when none did, and leaves the section empty when nothing else happened either", async () => {
    const me = await agent();
    await db.insert(contacts).values(lead(me.userId, "zillow", null, "2026-11-03T18:00:00Z"));
    const reports = await loadReports(requestContext(), me.userId, new URLSearchParams(PERIOD), now);
    expect(reports.sources).toMatchObject({ hasLeads: false, toReview: 0, empty: false });
    expect(csvRows(reports.sources.months)).toEqual([
      ["Source", "Oct 2026", "Nov 2026", "Total"],
      ["All sources", "0", "0", "0"],
      ["To review (not yet a contact)", "0", "0", "0"],
    ]);
    // Only an e-mail to review: the section is not empty, so the count and its link show.
    const quiet = await agent();
    await db.insert(leadIntakeMessages).values(email(quiet, "review", "2026-11-05T18:00:00Z"));
    const only = await loadReports(requestContext(), quiet.userId, new URLSearchParams(PERIOD), now);
    expect(only.sources).toMatchObject({ hasLeads: false, toReview: 1, empty: false });
  });

  it("reads the counts off the owner's indexes, never every contact", async () => {
    const { me } = await account();
    // 300 more contacts that are not leads and 50 leads from last year: none of them is read.
    const others = Array.from({ length: 300 }, () => lead(me.userId, "referral", null, "2026-11-04T18:00:00Z"));
    const older = Array.from({ length: 50 }, () => lead(me.userId, "zillow", "2025-06-04T18:00:00Z"));
    await insertContacts([...others, ...older]);
    const range = { lo: Date.parse("2026-10-15T07:00:00Z"), hi: Date.parse("2026-11-21T08:00:00Z") };
    const starts = [range.lo, Date.parse("2026-11-01T07:00:00Z")];
    const plan = async (query: { toSQL: () => { sql: string; params: unknown[] } }) => {
      const { sql, params } = query.toSQL();
      const explained = await env.DB.prepare(`explain query plan ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const run = await env.DB.prepare(sql)
        .bind(...params)
        .all();
      return { details: explained.results.map((r) => r.detail), rowsRead: run.meta.rows_read };
    };
    const leads = await plan(leadsByMonth(db, me.userId, range, starts));
    expect(leads.details).toEqual([
      "SEARCH contacts USING COVERING INDEX contacts_user_lead (user_id=? AND lead_at>? AND lead_at<?)",
      "USE TEMP B-TREE FOR GROUP BY",
    ]);
    // The period's five leads, each read from the index and again from the GROUP BY's sorter, and the entry that ends
    // the range: none of the 350 other contacts.
    expect(leads.rowsRead).toBeLessThanOrEqual(2 * 5 + 1);
    const review = await plan(toReviewByMonth(db, me.userId, range, starts));
    expect(review.details).toEqual([
      "SEARCH lead_intake_messages USING COVERING INDEX lead_intake_messages_user_status (user_id=? AND status=? AND received_at>? AND received_at<?)",
      "USE TEMP B-TREE FOR GROUP BY",
    ]);
    // The two e-mails to review of the period, as above.
    expect(review.rowsRead).toBeLessThanOrEqual(2 * 2 + 1);
  });

  describe("over HTTP", () => {
    it("shows the table and the e-mails to review with their link, and downloads the same rows as CSV", async () => {
      const { me, them } = await account();
      const browser = await signInAs(me.user);
      const html = (await browser.page(`/reports?${PERIOD}`)).replace(/<!-- -->/g, "");
      expect(html).toContain("New leads per source per month");
      expect(html).toContain("To review (not yet a contact)");
      expect(html).toContain("2 lead e-mails of this period could not be read as a lead and wait for review in ");
      expect(html).toContain('href="/settings?tab=leads"');
      expect(html).toContain(`href="/reports/leads-by-month.csv?${PERIOD.replace(/&/g, "&amp;")}"`);

      const csv = await browser.get(`/reports/leads-by-month.csv?${PERIOD}`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("Content-Disposition")).toBe('attachment; filename="porchlight-leads-by-month-2026-10-15-to-2026-11-20.csv"');
      expect(
        (await csv.text())
          .replace(/^\uFEFF/, "")
          .trim()
          .split("\r\n"),
      ).toEqual(["Source,Oct 2026,Nov 2026,Total", "Website,0,2,2", "Zillow,2,1,3", "All sources,2,3,5", "To review (not yet a contact),1,1,2"]);
      // The other agent's file has their own rows.
      const theirs = await signInAs(them.user);
      const theirCsv = await (await theirs.get(`/reports/leads-by-month.csv?${PERIOD}`)).text();
      expect(theirCsv).toContain("Open house,1,0,1");
      expect(theirCsv).not.toContain("Website");
    });
  });
});
