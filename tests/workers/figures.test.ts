import { startOfDayIn } from "~/lib/dates/zones";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, deals, teamLeads, trashItems } from "~/db/schema";
import { isoDateIn } from "~/lib/format";
import type { UserId } from "~/modules/auth/session.server";
import { importContacts } from "~/modules/contacts/import.server";
import { loadDashboard } from "~/modules/dashboard/dashboard.server";
import { METRIC_DEFINITIONS } from "~/modules/dashboard/metrics";
import { buildDigest, renderDigest } from "~/modules/digest/digest.server";
import { reportTables } from "~/modules/reports/build.server";
import { FIGURE_WORDS, WAITING_SHOWN } from "~/modules/reports/figures";
import { leadsWaitingNow } from "~/modules/reports/figures.server";
import { loadReports } from "~/modules/reports/reports.server";
import { applyQueuedChanges } from "~/modules/sync/queued-changes.server";
import { localNow } from "~/modules/tasks/due";
import { signInAs, type TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { atInstant, DEFAULT_TZ } from "../factories/dates";
import { deal, team } from "../factories/teams";

// One definition per figure (figures.server.ts): the dashboard's new leads, waiting leads and recent activity, Reports'
// speed to lead and activity (the page and its CSV files) and the daily digest, on the same rows, made the way the app
// makes them: leads added in the dialog, from the phone's queue and given by the team, one deleted and restored, a
// contact imported that is not a lead, notes Porchlight writes itself (an offline conflict, an assignment) and stage
// changes beside the agent's own call and note.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const csv = async (browser: TestBrowser, table: string) => {
  const response = await browser.get(`/reports/${table}.csv?period=this-month`);
  expect(response.status).toBe(200);
  return (await response.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
};

/**
 * The suite's clock (real or TEST_NOW), moved past the first ten minutes of a month in New York: the rows are made
 * just before the figures are read, and both must fall in the same month of the agent's.
 */
function sameMonthInstant(): string {
  const now = Date.now();
  const monthStart = startOfDayIn(`${isoDateIn(new Date(now), DEFAULT_TZ).slice(0, 7)}-01`, DEFAULT_TZ);
  return new Date(now - monthStart < 10 * 60_000 ? monthStart + 10 * 60_000 : now).toISOString();
}

describe("one definition per figure", () => {
  it("gives the dashboard, Reports, its CSV files and the digest the same new leads, waiting leads and logged activities", () =>
    atInstant(sameMonthInstant(), async () => {
      const t = await team("Figures Realty");
      const userId = t.agentA.id as UserId;
      const amara = await signInAs(t.agentA);
      const today = () => localNow(DEFAULT_TZ);
      const add = async (name: string, phone: string) => {
        const reply = await amara.post("/contacts?index", { intent: "create", name, phone, status: "hot", propertyType: "house", source: "website" });
        expect(reply.status).toBe(200);
        return (await db()
          .select({ id: contacts.id })
          .from(contacts)
          .where(and(eq(contacts.userId, userId), eq(contacts.name, name)))
          .get())!.id;
      };
      const log = async (contactId: string, type: string) => {
        const reply = await amara.post("/activities", {
          intent: "log",
          type,
          contactId,
          date: today().date,
          time: today().time,
          outcome: "",
          notes: "",
        });
        expect(reply.status).toBe(200);
      };

      // Leads: one added in the dialog, one from the phone, one given by the team (with its assignment note).
      const dialog = await add("Dana Dialog", "555 0101");
      const [fromPhone] = await applyQueuedChanges(requestContext(), userId, [
        { key: `figures-${crypto.randomUUID()}`, type: "add_contact", contact: { name: "Pat Phone", phone: "555 0102" } },
      ]);
      expect(fromPhone).toMatchObject({ status: "applied" });
      const owner = await signInAs(t.owner);
      expect(
        (await owner.post("/team/leads", { intent: "add", name: "Tam Team", phone: "555-0103", email: "", source: "website", message: "" })).status,
      ).toBe(302);
      const [teamLead] = await db().select().from(teamLeads).where(eq(teamLeads.teamId, t.teamId));
      expect((await owner.post("/team/leads", { intent: "assign", lead: teamLead!.id, agent: userId })).status).toBe(302);
      // One deleted and restored from the trash: the lead it was, still waiting.
      const restored = await add("Rory Restored", "555 0104");
      expect((await amara.post("/contacts?index", { intent: "delete", id: restored })).status).toBe(200);
      const trashed = await db()
        .select({ id: trashItems.id })
        .from(trashItems)
        .where(and(eq(trashItems.userId, userId), eq(trashItems.itemId, restored)))
        .get();
      expect((await amara.post("/settings/trash", { intent: "restore", id: trashed!.id })).status).toBe(200);
      // Imported, not marked New: a contact, not a new lead.
      expect(
        await importContacts(requestContext(), userId, {
          rows: [["Ivy Imported", "555 0105", "Hot"]],
          mapping: ["name", "phone", "status"],
          mode: "create",
        }),
      ).toMatchObject({ created: 1, newLeads: 0 });

      // The agent's own activities: a call answers Pat; a note on Dana does not answer her.
      await log(fromPhone!.id!, "call");
      await log(dialog, "note");
      // Porchlight's own entries: a stage change, and a move made offline that lost to one made on another device.
      const listing = deal(userId, { title: "Figures listing", stage: "showing", probability: 40, dealValueCents: 30_000_000, closedDate: null });
      await db().insert(deals).values(listing);
      const moves = await applyQueuedChanges(requestContext(), userId, [
        { key: `figures-${crypto.randomUUID()}`, type: "move_deal", dealId: listing.id, fromStage: "showing", toStage: "offer", note: null },
        { key: `figures-${crypto.randomUUID()}`, type: "move_deal", dealId: listing.id, fromStage: "showing", toStage: "under_contract", note: null },
      ]);
      expect(moves.map((m) => m.status)).toEqual(["applied", "conflict"]);
      const types = (await db().select({ type: crmActivities.type }).from(crmActivities).where(eq(crmActivities.userId, userId)))
        .map((a) => a.type)
        .sort();
      expect(types).toEqual(["assignment", "call", "note", "stage_change", "sync_conflict"]);

      const waitingNames = ["Dana Dialog", "Tam Team", "Rory Restored"].sort();
      const now = new Date();
      const context = requestContext();

      // The dashboard.
      const dashboard = await loadDashboard(context, userId, now);
      expect(dashboard.stats).toMatchObject({ newLeads: 4, recentActivity: 2, speedToLead: { leads: 4, answered: 1 } });
      const timers = await leadsWaitingNow(context, userId, now.getTime());
      expect(timers.leads.map((l) => l.name).sort()).toEqual(waitingNames);
      expect(timers.count).toBe(3);

      // Reports, this month.
      const reports = await loadReports(context, userId, new URLSearchParams("period=this-month"), now);
      expect(reports.speed).toMatchObject({ leads: 4, answered: 1, waitingCount: 3 });
      expect(reports.speed.waiting.rows.map((r) => r.cells[0]!.value).sort()).toEqual(waitingNames);
      expect(
        reportTables(reports)
          .find((table) => table.id === "activity")!
          .total!.at(-1)!.value,
      ).toBe(2);
      expect(reports.summary.find((f) => f.key === "activities")?.value).toBe("2");

      // The CSV files, downloaded.
      const speed = await csv(amara, "speed-to-lead");
      expect(speed[0]![1]).toBe("New leads");
      expect(speed.find((row) => row[0] === "All sources")![1]).toBe("4");
      const waiting = await csv(amara, "waiting-leads");
      expect(
        waiting
          .slice(1)
          .map((row) => row[0])
          .sort(),
      ).toEqual(waitingNames);
      const logged = await csv(amara, "activity");
      expect(logged.find((row) => row[0] === "Total")!.at(-1)).toBe("2");

      // The digest.
      const digest = await buildDigest(context, userId, now);
      expect(digest.leads.map((l) => l.name).sort()).toEqual(waitingNames);
      expect(digest.leadsCount).toBe(3);
      const mail = renderDigest(digest, {
        app: "https://app.porchlight.test/dashboard",
        unsubscribe: "https://app.porchlight.test/digest/unsubscribe",
      });
      expect(mail.text).toContain(`New leads waiting (3)\n${WAITING_SHOWN}`);

      // Each figure says how it is counted where the agent sees it.
      const page = await amara.page("/dashboard");
      for (const metric of ["newLeads", "recentActivity", "leadsWaiting"] as const)
        expect(page).toContain(escapeHtml(METRIC_DEFINITIONS[metric].definition));
      const reportsPage = await amara.page("/reports?period=this-month");
      for (const words of [FIGURE_WORDS.lead, FIGURE_WORDS.waiting, FIGURE_WORDS.logged]) expect(reportsPage).toContain(escapeHtml(words));
      // Ivy is a contact of the month, not a lead.
      expect(
        await db()
          .select({ leadAt: contacts.leadAt })
          .from(contacts)
          .where(and(eq(contacts.userId, userId), eq(contacts.name, "Ivy Imported")))
          .get(),
      ).toEqual({ leadAt: null });
    }));
});
