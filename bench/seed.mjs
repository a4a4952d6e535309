// Seeds the benchmark database: a large account population and the signed-in bench account.
// Rows are generated inside SQLite with recursive CTEs, so seeding 50k rows takes a moment, not minutes.
import { pbkdf2Sync, randomBytes } from "node:crypto";

export const BENCH_USER = { id: "00000000-0000-4000-8000-00000000be01", email: "bench@porchlight.test", password: "bench-password-123" };
export const SEED_VOLUMES = {
  otherUsers: 20_000,
  outboxEmails: 5_000,
  cronRuns: 2_000,
  benchContacts: 100_000,
  otherContacts: 50_000,
  benchDeals: 2_000,
  otherDeals: 20_000,
  benchTasks: 5_000,
  otherTasks: 20_000,
  benchActivities: 20_000,
  otherActivities: 40_000,
  // The bench agent owns a team of 20 (themselves and 19 agents, each with a book of their own).
  teamAgents: 19,
  teamContactsEach: 2_000,
  teamDealsEach: 500,
  teamActivitiesEach: 2_000,
  // The team's leads (lead distribution): waiting in the pond, and assigned over the last 60 days.
  teamLeadsWaiting: 150,
  teamLeadsAssigned: 5_000,
  // Shared deals: the bench agent's deals with a co-agent from the team (every 20th deal).
  sharedDeals: 100,
};

/** The bench team's agents: other users u-00000001 … u-00000019. */
export const TEAM_AGENT_IDS = Array.from({ length: SEED_VOLUMES.teamAgents }, (_, i) => `u-${String(i + 1).padStart(8, "0")}`);

function hash(password) {
  const salt = randomBytes(16);
  return `pbkdf2_sha256$100000$${salt.toString("base64url")}$${pbkdf2Sync(password, salt, 100_000, 32, "sha256").toString("base64url")}`;
}

const range = (n) => `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n})`;

const FIRST = [
  "Avery",
  "Blake",
  "Casey",
  "Dana",
  "Emerson",
  "Finley",
  "Gray",
  "Harper",
  "Indy",
  "Jordan",
  "Kai",
  "Logan",
  "Morgan",
  "Noa",
  "Oakley",
  "Parker",
  "Quinn",
  "Reese",
  "Sage",
  "Taylor",
];
const LAST = [
  "Reyes",
  "Lindqvist",
  "Moreno",
  "Nakamura",
  "Okafor",
  "Schmidt",
  "Dubois",
  "Haddad",
  "Kowalski",
  "Rossi",
  "Silva",
  "Tanaka",
  "Walsh",
  "Yilmaz",
  "Ng",
  "Patel",
  "Cohen",
  "Novak",
  "Berg",
  "Lopez",
];
const PLACES = [
  "Maple Grove",
  "Lake Town",
  "Hill Side",
  "Riverside",
  "Old Town",
  "Cedar Park",
  "Brookfield",
  "Harbor View",
  "Elm Heights",
  "Pine Ridge",
];
const TAGS = ['["buyer"]', '["seller"]', '["buyer","first-time"]', '["investor"]', '["sphere"]', '["buyer","relocation"]', "[]"];
const pickSql = (list, expr) => `json_extract('${JSON.stringify(list).replace(/'/g, "''")}', '$[' || ((${expr}) % ${list.length}) || ']')`;

/**
 * n contacts for `owner` (a SQL expression over i), through the real table so the search triggers run. Each arrived as
 * a new lead (lead_at), so speed to lead reads as many rows as it can.
 */
function contactsSql(n, owner, prefix, now) {
  return `${range(n)} insert into contacts (id, user_id, name, email, phone, status, budget_min, budget_max, property_type, bedrooms, location, source, tags, notes, last_activity, created_at, updated_at, lead_at)
    select printf('${prefix}-%08d', i), ${owner},
      ${pickSql(FIRST, "i")} || ' ' || ${pickSql(LAST, "i / 20")} || ' ' || i,
      case when i % 4 = 0 then null else printf('contact%d@example.com', i) end,
      case when i % 3 = 0 then null else printf('(555) %03d-%04d', i % 1000, i % 10000) end,
      case i % 3 when 0 then 'hot' when 1 then 'warm' else 'cold' end,
      case when i % 5 = 0 then null else 200000 + (i % 40) * 25000 end,
      case when i % 5 = 0 then null else 300000 + (i % 40) * 30000 end,
      case i % 6 when 0 then 'house' when 1 then 'condo' when 2 then 'townhouse' when 3 then 'land' when 4 then 'commercial' else 'other' end,
      1 + i % 5, ${pickSql(PLACES, "i / 7")},
      case i % 6 when 0 then 'website' when 1 then 'referral' when 2 then 'cold_call' when 3 then 'social_media' when 4 then 'open_house' else 'other' end,
      ${pickSql(TAGS, "i")}, case when i % 10 = 0 then 'Wants a yard and a short commute' else null end,
      ${now} - i * 60000, ${now} - i * 60000, ${now} - i * 60000, ${now} - i * 60000 from n`;
}

const STAGES = ["lead", "qualified", "showing", "offer", "under_contract", "closed_won", "closed_lost"];
const PROBABILITY = [10, 25, 40, 60, 90, 100, 0];

/** n deals spread evenly over the default stages; `owner` and `contact` are SQL expressions over i. */
function dealsSql(n, owner, prefix, contact) {
  const stage = pickSql(STAGES, "i");
  return `${range(n)} insert into deals (id, user_id, contact_id, title, stage, position, deal_value_cents, commission_rate, probability,
      expected_close_date, closed_date, lost_reason, created_at, updated_at, stage_changed_at)
    select printf('${prefix}-%08d', i), ${owner}, ${contact}, printf('%d Maple Ave deal', i), ${stage},
      printf('d%04d', i / 7), (200000 + (i % 50) * 20000) * 100, 2.5 + (i % 3) * 0.25, ${pickSql(PROBABILITY, "i")},
      date('now', printf('+%d days', i % 365)),
      case when i % 7 in (5, 6) then date('now', printf('-%d days', i % 300)) else null end,
      case when i % 7 = 6 then 'Went with another agent' else null end,
      unixepoch() * 1000 - i * 60000, unixepoch() * 1000 - i * 60000, unixepoch() * 1000 - i * 60000 from n`;
}

const TASK_TYPES = ["call", "email", "showing", "follow_up", "paperwork", "other"];
const TASK_PRIORITIES = ["low", "medium", "high"];
// Every activity type but stage changes (the deals' moves are not replayed).
const ACTIVITY_TYPES = ["call", "email_sent", "email_opened", "text", "showing", "meeting", "listing", "offer", "contract", "note"];

/**
 * n tasks due from 60 days ago to 59 days ahead, a third of them completed, half with a time of day; `owner`,
 * `contact` and `deal` are SQL expressions over i.
 */
function tasksSql(n, owner, prefix, contact, deal, now) {
  return `${range(n)} insert into crm_tasks (id, user_id, contact_id, deal_id, title, type, priority, status, due_date, due_time, completed_at, created_at, updated_at)
    select printf('${prefix}-%08d', i), ${owner}, ${contact}, ${deal}, printf('Follow up on listing %d', i),
      ${pickSql(TASK_TYPES, "i")}, ${pickSql(TASK_PRIORITIES, "i / 3")},
      case when i % 3 = 0 then 'completed' else 'open' end,
      date('now', printf('%+d days', (i % 120) - 60)),
      case when i % 2 = 0 then printf('%02d:%02d', 8 + i % 10, (i % 4) * 15) else null end,
      case when i % 3 = 0 then ${now} - (i % 120) * 3600000 else null end,
      ${now} - i * 60000, ${now} - i * 60000 from n`;
}

/** n activities five minutes apart going back from now (the triggers move each contact's last activity). */
function activitiesSql(n, owner, prefix, contact, deal, now) {
  return `${range(n)} insert into crm_activities (id, user_id, contact_id, deal_id, type, occurred_at, outcome, notes, created_at)
    select printf('${prefix}-%08d', i), ${owner}, ${contact}, ${deal}, ${pickSql(ACTIVITY_TYPES, "i")}, ${now} - i * 300000,
      case when i % 4 = 0 then 'Left a voicemail' else null end, case when i % 5 = 0 then 'Asked about schools near the listing' else null end,
      ${now} - i * 300000 from n`;
}

export async function seedBench(db) {
  const now = Date.now();
  const u = BENCH_USER;
  await db.batch([
    db
      .prepare("insert into users (id, email, password_hash, email_verified_at, role) values (?, ?, ?, ?, 'admin')")
      .bind(u.id, u.email, hash(u.password), now),
    db.prepare("insert into profiles (user_id, full_name) values (?, 'Bench Agent')").bind(u.id),
    db.prepare("insert into user_preferences (user_id) values (?)").bind(u.id),
    db.prepare("insert into subscribers (user_id, email, subscription_status) values (?, ?, 'active')").bind(u.id, u.email),
  ]);
  const v = SEED_VOLUMES;
  await db.batch([
    db.prepare(`${range(v.otherUsers)} insert into users (id, email, password_hash, email_verified_at)
      select printf('u-%08d', i), printf('agent%d@bench.test', i), 'pbkdf2_sha256$100000$x$y', ${now} from n`),
    db.prepare(`${range(v.otherUsers)} insert into subscribers (user_id, email, subscription_status)
      select printf('u-%08d', i), printf('agent%d@bench.test', i), case i % 5 when 0 then 'canceled' else 'active' end from n`),
    db.prepare(`${range(v.otherUsers)} insert into user_preferences (user_id) select printf('u-%08d', i) from n`),
    db.prepare(`${range(v.outboxEmails)} insert into email_outbox (id, user_id, kind, to_address, subject, text_body, html_body)
      select printf('m-%08d', i), printf('u-%08d', 1 + i % ${v.otherUsers}), 'verify_email', printf('agent%d@bench.test', 1 + i % ${v.otherUsers}),
      'Confirm your e-mail', 'Body', '<p>Body</p>' from n`),
    db.prepare(`${range(v.cronRuns)} insert into cron_runs (job, cron, scheduled_at, started_at, finished_at, status)
      select 'heartbeat', '*/5 * * * *', ${now} - i * 300000, ${now} - i * 300000, ${now} - i * 300000 + 20, 'ok' from n`),
  ]);
  await db.prepare(contactsSql(v.benchContacts, `'${u.id}'`, "bc", now)).run();
  await db.prepare(contactsSql(v.otherContacts, `printf('u-%08d', 1 + i % ${v.otherUsers})`, "oc", now)).run();
  // The bench agent's commission plan: 30 % split with a $20,000 cap, so every page prices deals through the cap.
  await db
    .prepare(
      "insert into commission_plans (user_id, default_rate, brokerage_split_pct, brokerage_cap_cents, transaction_fee_cents) values (?, 3, 30, 2000000, 39500)",
    )
    .bind(u.id)
    .run();
  await db.prepare(dealsSql(v.benchDeals, `'${u.id}'`, "bd", "printf('bc-%08d', 1 + i * 7)")).run();
  // Other agents' deals link to their own contacts: contact oc-k belongs to u-(1 + k % otherUsers).
  const k = `(1 + (i * 7) % ${v.otherContacts})`;
  await db.prepare(dealsSql(v.otherDeals, `printf('u-%08d', 1 + ${k} % ${v.otherUsers})`, "od", `printf('oc-%08d', ${k})`)).run();
  // Tasks and activities for the dashboard: the bench agent's link to their contacts and deals;
  // other agents' tasks and activities stand beside them without links.
  await db
    .prepare(
      tasksSql(
        v.benchTasks,
        `'${u.id}'`,
        "bt",
        "case when i % 2 = 0 then printf('bc-%08d', 1 + i * 11) else null end",
        "case when i % 5 = 0 then printf('bd-%08d', 1 + i % 2000) else null end",
        now,
      ),
    )
    .run();
  await db.prepare(tasksSql(v.otherTasks, `printf('u-%08d', 1 + i % ${v.otherUsers})`, "ot", "null", "null", now)).run();
  await db
    .prepare(
      activitiesSql(
        v.benchActivities,
        `'${u.id}'`,
        "ba",
        "printf('bc-%08d', 1 + (i * 13) % 100000)",
        "case when i % 4 = 0 then printf('bd-%08d', 1 + i % 2000) else null end",
        now,
      ),
    )
    .run();
  await db.prepare(activitiesSql(v.otherActivities, `printf('u-%08d', 1 + i % ${v.otherUsers})`, "oa", "null", "null", now)).run();
  await seedTeam(db, now);
}

/** The bench agent's team on the Team plan: 10 members, the 9 agents each with contacts, deals and activities. */
async function seedTeam(db, now) {
  const v = SEED_VOLUMES;
  const u = BENCH_USER;
  await db.batch([
    db.prepare("update subscribers set plan = 'team', seats = ? where user_id = ?").bind(v.teamAgents + 1, u.id),
    db.prepare("insert into teams (id, owner_id, name, created_at, updated_at) values ('bench-team', ?, 'Bench Team', ?, ?)").bind(u.id, now, now),
    db.prepare("insert into team_members (team_id, user_id, role, joined_at) values ('bench-team', ?, 'owner', ?)").bind(u.id, now),
    ...TEAM_AGENT_IDS.map((id, i) =>
      db
        .prepare("insert into team_members (team_id, user_id, role, joined_at) values ('bench-team', ?, ?, ?)")
        .bind(id, i === 0 ? "admin" : "agent", now),
    ),
  ]);
  for (const [n, id] of TEAM_AGENT_IDS.entries()) {
    const owner = `'${id}'`;
    await db.prepare(contactsSql(v.teamContactsEach, owner, `tc${n}`, now)).run();
    await db.prepare(dealsSql(v.teamDealsEach, owner, `td${n}`, `printf('tc${n}-%08d', 1 + (i * 3) % ${v.teamContactsEach})`)).run();
    await db
      .prepare(activitiesSql(v.teamActivitiesEach, owner, `ta${n}`, `printf('tc${n}-%08d', 1 + (i * 7) % ${v.teamContactsEach})`, "null", now))
      .run();
  }
  const agents = JSON.stringify(TEAM_AGENT_IDS);
  const agentOf = (expr) => `json_extract('${agents}', '$[' || ((${expr}) % ${TEAM_AGENT_IDS.length}) || ']')`;
  await db.batch([
    db.prepare("update teams set lead_mode = 'claim', last_assigned_to = ? where id = 'bench-team'").bind(TEAM_AGENT_IDS[0]),
    db
      .prepare(`${range(v.teamLeadsWaiting)} insert into team_leads (id, team_id, name, phone, source, message, state, offered_until, added_by, created_at)
      select printf('tlw-%08d', i), 'bench-team', printf('Waiting Lead %d', i), printf('(555) 700-%04d', i), 'website', 'Saw the listing online',
        case when i % 2 = 0 then 'offered' else 'pond' end, case when i % 2 = 0 then ${now} + 30 * 86400000 else null end, ?, ${now} - i * 60000 from n`)
      .bind(u.id),
    // Assigned leads point at a contact of their agent's (agent n has contacts tc{n}-…).
    db
      .prepare(`${range(v.teamLeadsAssigned)} insert into team_leads (id, team_id, name, phone, source, state, added_by, assigned_to, assigned_at, assigned_how, contact_id, created_at)
      select printf('tla-%08d', i), 'bench-team', printf('Assigned Lead %d', i), printf('(555) 710-%04d', i % 10000), 'website', 'assigned', ?, ${agentOf("i")},
        ${now} - i * 1036800, 'round robin', printf('tc%d-%08d', i % ${TEAM_AGENT_IDS.length}, 1 + i % ${v.teamContactsEach}), ${now} - i * 1036800 from n`)
      .bind(u.id),
    db
      .prepare(`${range(v.sharedDeals)} insert into deal_shares (deal_id, owner_id, agent_id, share_pct, created_at)
      select printf('bd-%08d', i * 20), ?, ${agentOf("i")}, 25 + (i % 3) * 5, ${now} from n`)
      .bind(u.id),
  ]);
}
