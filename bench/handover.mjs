// Removing a member of the bench team and handing their book to a teammate (ADR 0039): one POST /team as
// the team's owner, which answers once the membership has ended, then the handover's durable job (ADR 0058) moving the
// book in parts, timed until its row says it ended, and the book counted where it went. Run after the pages, since the
// team has one member fewer afterwards.
import { TEAM_AGENT_IDS } from "./seed.mjs";

const TABLES = ["contacts", "deals", "crm_activities", "crm_tasks"];

export async function benchHandover(mf, origin, sessionCookie) {
  const [from, to] = [TEAM_AGENT_IDS.at(-1), TEAM_AGENT_IDS.at(-2)];
  const db = await mf.getD1Database("DB");
  const count = async (table, userId) => (await db.prepare(`select count(*) as n from ${table} where user_id = ?`).bind(userId).first()).n;
  const before = Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await count(t, from)])));
  const receiving = await count("contacts", to);
  // The bench runs without Stripe, and a removal asks Stripe for the seat first. The owner's subscription is set to the
  // seats the removal asks for, so Porchlight skips that call: the figure is Porchlight's own work, not Stripe's.
  const members = (await db.prepare("select count(*) as n from team_members where team_id = 'bench-team'").first()).n;
  await db
    .prepare("update subscribers set seats = ? where user_id = (select owner_id from teams where id = 'bench-team')")
    .bind(Math.max(2, members - 1))
    .run();
  const started = performance.now();
  const answer = await fetch(`${origin}/team`, {
    method: "POST",
    headers: { Cookie: sessionCookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    // confirm=yes is what the removal dialog sends once it has said what moves to whom; without it the page refuses the
    // removal (400), as it refuses a bare removal from an old page or a replay.
    body: new URLSearchParams({ intent: "remove", memberId: from, reassignTo: to, confirm: "yes" }),
    redirect: "manual",
  });
  const ms = Math.round(performance.now() - started);
  if (answer.status !== 302)
    throw new Error(`the handover answered ${answer.status}: ${(await answer.text()).match(/role="alert"[^>]*>([^<]*)/)?.[1] ?? "no message"}`);
  // The job's row, read every 100 ms until it has ended (at most 10 minutes).
  const jobOf = () =>
    db
      .prepare(
        "select j.status, j.error from durable_jobs j join team_handovers h on h.id = j.id where h.from_user_id = ? order by h.created_at desc limit 1",
      )
      .bind(from)
      .first();
  let job = await jobOf();
  while (job && (job.status === "queued" || job.status === "running") && performance.now() - started < 600_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await jobOf();
  }
  if (job?.status !== "succeeded") throw new Error(`the handover's job ended ${job?.status ?? "unrecorded"}: ${job?.error ?? ""}`);
  const jobMs = Math.round(performance.now() - started);
  for (const table of TABLES) if ((await count(table, from)) !== 0) throw new Error(`${table} rows were left with the removed member`);
  if ((await count("contacts", to)) !== receiving + before.contacts) throw new Error("the teammate did not get every contact");
  const n = (v) => v.toLocaleString("en-US");
  const tasks = before.crm_tasks === 1 ? "1 task" : `${n(before.crm_tasks)} tasks`;
  return (
    `Removing a team member and handing their book to a teammate (one POST /team, answered in ${ms} ms, then its durable job, triggers included; Stripe's seat call not included): ${jobMs} ms for ` +
    `${n(before.contacts)} contacts, ${n(before.deals)} deals, ${n(before.crm_activities)} activities and ${tasks}.`
  );
}
