// The demo account's sample book of business: contacts, deals, tasks and activities, dated around the day
// it is seeded (in the demo's timezone, America/New_York) so its dashboard, pipeline and tasks have
// something to show. Only the clearly labelled demo account gets this; every row has a fixed id and is
// inserted with OR IGNORE, so seeding again changes nothing the visitor did.

const TZ = "America/New_York";
const DAY = 86_400_000;

function localToday(now) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
function shiftDay(day, days) {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function shiftMonth(month, n) {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
}

const CONTACTS = [
  // name, status, source, budget_min, budget_max, type, beds, baths, location, tags, days since added
  ["Priya Lindqvist", "hot", "referral", 450000, 550000, "house", 3, 2, "Mueller", ["first-time buyer", "pre-approved"], 40],
  ["Marcus Bell", "hot", "website", 600000, 750000, "house", 4, 3, "Circle C", ["relocating"], 25],
  ["Noor Haddad", "warm", "open_house", 350000, 420000, "condo", 2, 2, "East Austin", ["investor"], 60],
  ["The Okafor family", "hot", "referral", 800000, 950000, "house", 5, 4, "Westlake", ["move-up buyer"], 12],
  ["Lena Fischer", "warm", "social_media", 300000, 360000, "townhouse", 2, 2, "Round Rock", [], 75],
  ["Diego Ramos", "cold", "cold_call", null, null, "house", null, null, "Pflugerville", ["seller lead"], 120],
  ["Hannah Cole", "warm", "referral", 500000, 600000, "house", 3, 2, "Allandale", ["past client"], 200],
  ["Sam Whitaker", "cold", "website", 250000, 300000, "condo", 1, 1, "Downtown", [], 90],
  ["Grace Liu", "hot", "open_house", 700000, 820000, "house", 4, 3, "Tarrytown", ["pre-approved"], 8],
  ["Tom and Ana Brooks", "warm", "other", 420000, 480000, "house", 3, 2, "Cedar Park", ["sellers"], 150],
];

/** The demo agent's lead intake key: its address is porchlightdemoagentleads@<INTAKE_DOMAIN> (lower-case base 32, 24 letters). */
export const DEMO_INTAKE_KEY = "porchlightdemoagentleads";

/** The demo's key, or for an end-to-end account given the demo book a key of its own, from its id (hex digits as a to p). */
const intakeKeyOf = (userId) =>
  userId === "00000000-0000-4000-8000-00000000d3e0"
    ? DEMO_INTAKE_KEY
    : [...userId.replace(/-/g, "").slice(-24)].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join("");

const PROPERTIES = [
  // address, MLS number, list price ($), contact index, deal index
  ["14 Birch Ln, Austin, TX 78723", "5482913", 525000, 0, 0],
  ["8 Cedar Ridge Dr, Austin, TX 78739", "7719024", 699000, 1, 1],
  ["2100 Tarry Trl, Austin, TX 78703", "3305871", 789000, 8, 6],
];

const DEALS = [
  // title, contact index, stage, value ($), probability, expected close (days from today), closing/closed day offset
  ["14 Birch Lane purchase", 0, "offer", 515000, 60, 35],
  ["Circle C relocation", 1, "showing", 690000, 40, 60],
  ["Okafor Westlake purchase", 3, "under_contract", 905000, 90, 12],
  ["Haddad East Austin condo", 2, "qualified", 399000, 25, 90],
  ["Cole Allandale listing", 6, "lead", 575000, 10, 120],
  ["Brooks Cedar Park sale", 9, "closed_won", 468000, 100, -20],
  ["Liu Tarrytown purchase", 8, "showing", 780000, 40, 45],
  ["Fischer townhouse", 4, "closed_lost", 340000, 0, -35],
  ["Whitaker downtown condo", 7, "closed_won", 289000, 100, -70],
];

const TASKS = [
  // title, type, priority, due offset, time, contact, deal, repeat, done
  ["Call Priya about the inspection window", "call", "high", 0, "15:00", 0, 0, null, false],
  ["Send Marcus the Circle C comps", "email", "medium", 0, null, 1, 1, null, false],
  ["Confirm appraisal date with the lender", "paperwork", "high", -1, null, 3, 2, null, false],
  ["Showing: 3 homes in Tarrytown with Grace", "showing", "medium", 1, "10:30", 8, 6, null, false],
  ["Follow up with Noor on financing", "follow_up", "medium", 2, null, 2, 3, null, false],
  ["Weekly market update to past clients", "email", "low", 3, "09:00", null, null, "weekly", false],
  ["Listing photos for the Cole home", "other", "medium", 6, null, 6, 4, null, false],
  ["Check in with Diego about selling", "call", "low", -3, null, 5, null, null, false],
  ["Send closing gift to the Brooks", "other", "low", -18, null, 9, 5, null, true],
];

const ACTIVITIES = [
  // type, contact, deal, days ago, hour, outcome, notes
  ["call", 0, 0, 1, 11, "Connected", "Wants to write an offer below asking."],
  ["offer", 0, 0, 1, 16, "Offer at $515,000", "Submitted with a 10-day option period."],
  ["showing", 8, 6, 2, 14, "Loved the second home", null],
  ["email_sent", 1, 1, 3, 9, "Replied", "Sent the relocation guide."],
  ["meeting", 3, 2, 5, 17, null, "Walked through the contract timeline."],
  ["contract", 3, 2, 6, 10, "Executed", null],
  ["text", 2, 3, 9, 12, "Replied", "Waiting on the pre-approval letter."],
  ["call", 6, 4, 21, 15, "Left voicemail", null],
  ["listing", 9, 5, 40, 10, null, "Listed at $475,000."],
  ["note", 4, 7, 35, 13, null, "Bought with another agent."],
  ["email_opened", 7, null, 20, 8, null, "Opened the new listings e-mail."],
];

const OPEN_PATH = ["lead", "qualified", "showing", "offer", "under_contract"];
/** The stages a demo deal passed through before its present one: won deals all the way, the lost one after Showing. */
function stagePath(stage) {
  if (stage === "closed_won") return OPEN_PATH;
  if (stage === "closed_lost") return OPEN_PATH.slice(0, 3);
  return OPEN_PATH.slice(0, OPEN_PATH.indexOf(stage));
}

/** What the demo agent spends on lead sources each month (Settings → Goals), for Reports' return on spend. */
const SOURCE_COSTS = [
  ["website", 25_000],
  ["open_house", 12_000],
  ["social_media", 8_000],
];
const DEMO_INCOME_GOAL_CENTS = 12_000_000;

// The demo account's ids end in d3e0; an end-to-end account given the same book (demoData in
// tests/e2e/accounts.json) gets its own ids from the last four characters of its user id and its id's fourth group.
const idFor = (userId) => (kind, n) => `00000000-0000-4000-${userId.split("-")[3] ?? "8000"}-${userId.slice(-4)}${kind}${String(n).padStart(6, "0")}`;
const q = (value) =>
  value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;

/** The SQL that gives `userId` the demo book of business. */
export function demoDataSql(userId, now = new Date()) {
  const idOf = idFor(userId);
  const today = localToday(now);
  const stmts = [];
  const created = (daysAgo) => now.getTime() - daysAgo * DAY;
  CONTACTS.forEach(([name, status, source, min, max, type, beds, baths, location, tags, daysAgo], i) => {
    const email = `${name
      .toLowerCase()
      .replace(/[^a-z]+/g, ".")
      .replace(/^\.|\.$/g, "")}@example.com`;
    stmts.push(
      // Each arrived as a new lead (lead_at) when it was added, so speed to lead has the whole book to show.
      `INSERT OR IGNORE INTO contacts (id, user_id, name, email, phone, status, source, budget_min, budget_max, property_type, bedrooms, bathrooms, location, tags, notes, last_activity, created_at, updated_at, lead_at) VALUES (${[
        q(idOf("c1", i)),
        q(userId),
        q(name),
        q(email),
        q(`(512) 555-01${String(i).padStart(2, "0")}`),
        q(status),
        q(source),
        q(min),
        q(max),
        q(type),
        q(beds),
        q(baths),
        q(location),
        q(JSON.stringify(tags)),
        q("Demo contact."),
        created(daysAgo),
        created(daysAgo),
        created(daysAgo),
        created(daysAgo),
      ].join(", ")});`,
    );
  });
  DEALS.forEach(([title, contact, stage, value, probability, closeOffset], i) => {
    const closed = stage === "closed_won" || stage === "closed_lost";
    const day = shiftDay(today, closeOffset);
    // A closed deal entered its last stage the day it closed (at noon there), and was opened a month before that.
    const createdAt = closed ? Math.min(created(90 - i * 5), created(-closeOffset + 30)) : created(90 - i * 5);
    const changedAt = closed ? created(-closeOffset) : created(Math.max(1, 20 - i));
    stmts.push(
      `INSERT OR IGNORE INTO deals (id, user_id, contact_id, title, stage, position, deal_value_cents, commission_rate, probability, probability_set, expected_close_date, closing_date, closed_date, lost_reason, side, created_at, updated_at, stage_changed_at) VALUES (${[
        q(idOf("d1", i)),
        q(userId),
        q(idOf("c1", contact)),
        q(title),
        q(stage),
        q(`a${i}`),
        value * 100,
        3,
        probability,
        0,
        q(day),
        q(stage === "under_contract" ? day : null),
        q(closed ? day : null),
        q(stage === "closed_lost" ? "Bought with another agent." : null),
        q(i % 3 === 1 ? "seller" : "buyer"),
        createdAt,
        createdAt,
        changedAt,
      ].join(", ")});`,
    );
    // The stages it went through before (Reports' funnel): inserting the deal recorded only its present stage
    // (migration 0012's trigger), so the earlier stays are added, evenly spaced, once.
    const path = stagePath(stage);
    path.forEach((from, j) => {
      const entered = Math.round(createdAt + ((changedAt - createdAt) * j) / path.length);
      const left = Math.round(createdAt + ((changedAt - createdAt) * (j + 1)) / path.length);
      stmts.push(
        `INSERT INTO deal_stage_history (user_id, deal_id, stage, entered_at, left_at, next_stage) SELECT ${[q(userId), q(idOf("d1", i)), q(from), entered, left, q(path[j + 1] ?? stage)].join(", ")}
          WHERE EXISTS (SELECT 1 FROM deals WHERE id = ${q(idOf("d1", i))} AND user_id = ${q(userId)})
          AND NOT EXISTS (SELECT 1 FROM deal_stage_history WHERE deal_id = ${q(idOf("d1", i))} AND stage = ${q(from)} AND entered_at = ${entered});`,
      );
    });
  });
  TASKS.forEach(([title, type, priority, dueOffset, time, contact, deal, repeat, done], i) => {
    stmts.push(
      `INSERT OR IGNORE INTO crm_tasks (id, user_id, contact_id, deal_id, title, type, priority, status, due_date, due_time, repeat, completed_at, created_at, updated_at) VALUES (${[
        q(idOf("t1", i)),
        q(userId),
        q(contact === null ? null : idOf("c1", contact)),
        q(deal === null ? null : idOf("d1", deal)),
        q(title),
        q(type),
        q(priority),
        q(done ? "completed" : "open"),
        q(shiftDay(today, dueOffset)),
        q(time),
        q(repeat),
        done ? created(-dueOffset) : "NULL",
        created(10),
        created(10),
      ].join(", ")});`,
    );
  });
  ACTIVITIES.forEach(([type, contact, deal, daysAgo, hour, outcome, notes], i) => {
    const at = created(daysAgo) - (now.getUTCHours() - hour - 5) * 3_600_000;
    stmts.push(
      `INSERT OR IGNORE INTO crm_activities (id, user_id, contact_id, deal_id, type, occurred_at, outcome, notes, created_at) VALUES (${[
        q(idOf("a1", i)),
        q(userId),
        q(idOf("c1", contact)),
        q(deal === null ? null : idOf("d1", deal)),
        q(type),
        Math.min(at, now.getTime()),
        q(outcome),
        q(notes),
        created(daysAgo),
      ].join(", ")});`,
    );
  });
  // The demo's lead intake address (README: one curl sends a sample portal e-mail to it), unless the visitor replaced it.
  stmts.push(
    `INSERT INTO lead_intake_addresses (id, user_id, key, created_at) SELECT ${[q(idOf("i1", 0)), q(userId), q(intakeKeyOf(userId)), created(30)].join(", ")}
      WHERE NOT EXISTS (SELECT 1 FROM lead_intake_addresses WHERE user_id = ${q(userId)});`,
  );
  // The properties the demo's buyers asked about, linked to the contact and the deal.
  PROPERTIES.forEach(([address, mls, price, contact, deal], i) => {
    stmts.push(
      `INSERT OR IGNORE INTO properties (id, user_id, contact_id, deal_id, address, mls_number, price_cents, source, created_at, updated_at) VALUES (${[
        q(idOf("p1", i)),
        q(userId),
        q(idOf("c1", contact)),
        q(deal === null ? null : idOf("d1", deal)),
        q(address),
        q(mls),
        price * 100,
        q(CONTACTS[contact][2]),
        created(CONTACTS[contact][10]),
        created(CONTACTS[contact][10]),
      ].join(", ")});`,
    );
  });
  // A year of lead source costs and an income goal, unless the visitor set their own.
  for (let back = 0; back < 12; back++) {
    const month = shiftMonth(today.slice(0, 7), -back);
    for (const [source, cents] of SOURCE_COSTS) {
      stmts.push(
        `INSERT OR IGNORE INTO lead_source_costs (user_id, source, month, cost_cents) VALUES (${[q(userId), q(source), q(month), cents].join(", ")});`,
      );
    }
  }
  stmts.push(`UPDATE user_preferences SET income_goal_cents = ${DEMO_INCOME_GOAL_CENTS} WHERE user_id = ${q(userId)} AND income_goal_cents IS NULL;`);
  return stmts.join("\n");
}
