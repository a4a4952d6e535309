// The load run (`BENCH_ONLY=load npm run bench`, not CI): LOAD_SESSIONS signed-in sessions of the bench's seeded
// accounts, each doing what an agent does (the contact list, a contact's page, a call logged from the phone, a deal
// moved a stage, the field app's sync) with a think time between actions, for LOAD_SECONDS (five minutes by default).
// Paced for a 2-core machine: each session waits LOAD_THINK_MS (a random time in that range) between actions, and at
// most LOAD_IN_FLIGHT requests are in flight at once (a request waits for a free slot; its latency is counted from
// when it is sent). Prints the errors (any answer but the route's expected status, or a failed fetch: must be 0) and
// p50 / p95 per route, and the machine's load average while it ran.
//
// Sessions: the large account (signed in through /auth) and the seeded agents with an active subscription, each given
// a session the way sign-in makes one (a KV record under the hash of a random cookie value; the seeded agents have no
// password to sign in with). Each session is checked with a GET /dashboard first.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";

export const LOAD_SESSIONS = Number(process.env.LOAD_SESSIONS ?? 200);
export const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 300);
const [THINK_MIN_MS, THINK_MAX_MS] = (process.env.LOAD_THINK_MS ?? "4000-12000").split("-").map(Number);
const IN_FLIGHT = Number(process.env.LOAD_IN_FLIGHT ?? 6);
/** The share of actions each kind takes (weights). */
const MIX = { contactList: 25, contactProfile: 30, logCall: 15, moveDeal: 10, sync: 20 };
const ROUTES = {
  contactList: "GET /contacts",
  contactProfile: "GET /contacts/:id",
  logCall: "POST /api/sync/changes (log a call)",
  moveDeal: "POST /pipeline (move a deal)",
  sync: "GET /api/sync?cursor",
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

/** At most `limit` holders at once; the others wait in order. */
function slots(limit) {
  let free = limit;
  const waiting = [];
  return {
    async take() {
      if (free > 0) free--;
      else await new Promise((resolve) => waiting.push(resolve));
    },
    give() {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

/** A session for each seeded agent with an active subscription, made as sign-in makes one: cookies. */
async function agentSessions(mf, count) {
  const db = await mf.getD1Database("DB");
  const kv = await mf.getKVNamespace("KV");
  const { results } = await db
    .prepare(
      `select u.id, u.session_version as version from users u join subscribers s on s.user_id = u.id
       where u.id like 'u-%' and s.subscription_status = 'active' order by u.id limit ?`,
    )
    .bind(count)
    .all();
  const now = Date.now();
  const cookies = [];
  for (const user of results) {
    const id = randomBytes(32).toString("base64url");
    const key = `session:${createHash("sha256").update(id).digest("base64url")}`;
    await kv.put(key, JSON.stringify({ userId: user.id, version: user.version, createdAt: now, lastSeenAt: now }), { expirationTtl: 3600 });
    cookies.push(`porchlight_session=${id}`);
  }
  return cookies;
}

/** What a session works on: one of its contacts, one of its open deals, its field copy's cursor and today. */
async function prepare(origin, cookie) {
  const headers = { Cookie: cookie };
  const dashboard = await fetch(`${origin}/dashboard`, { headers, redirect: "manual" });
  await dashboard.arrayBuffer();
  if (dashboard.status !== 200) return null;
  const sync = await fetch(`${origin}/api/sync`, { headers });
  if (sync.status !== 200) return null;
  const copy = await sync.json();
  const deal = copy.deals.all.find((d) => d.stage === "qualified" || d.stage === "showing");
  return {
    cookie,
    cursor: copy.cursor,
    today: copy.today,
    contactId: copy.contacts.upsert[0]?.id ?? null,
    deal: deal ? { id: deal.id, stage: deal.stage } : null,
  };
}

function pick(session) {
  const allowed = Object.entries(MIX)
    .filter(([kind]) => (kind !== "contactProfile" && kind !== "logCall") || session.contactId !== null)
    .filter(([kind]) => kind !== "moveDeal" || session.deal !== null);
  let roll = Math.random() * allowed.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [kind, weight] of allowed) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return allowed.at(-1)[0];
}

/** The request for an action: [url, init]. */
function request(origin, session, kind) {
  const headers = { Cookie: session.cookie };
  const post = (path, body, type) => [
    `${origin}${path}`,
    { method: "POST", headers: { ...headers, Origin: origin, "Content-Type": type }, body, redirect: "manual" },
  ];
  switch (kind) {
    case "contactList":
      return [`${origin}/contacts`, { headers }];
    case "contactProfile":
      return [`${origin}/contacts/${session.contactId}`, { headers }];
    case "logCall": {
      const change = {
        key: crypto.randomUUID(),
        type: "log_activity",
        activity: { type: "call", contactId: session.contactId, date: session.today, time: "12:00", outcome: "Connected", notes: "Load run" },
      };
      return post("/api/sync/changes", JSON.stringify({ changes: [change] }), "application/json");
    }
    case "moveDeal": {
      const to = session.deal.stage === "qualified" ? "showing" : "qualified";
      const form = new URLSearchParams({ intent: "move", id: session.deal.id, stage: to, fromStage: session.deal.stage });
      session.deal.stage = to;
      return post("/pipeline?index", form, "application/x-www-form-urlencoded");
    }
    default:
      return [`${origin}/api/sync?cursor=${encodeURIComponent(session.cursor)}`, { headers }];
  }
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

export async function benchLoad(mf, origin, benchCookie) {
  const cookies = [benchCookie, ...(await agentSessions(mf, LOAD_SESSIONS * 2))];
  const sessions = [];
  for (const cookie of cookies) {
    if (sessions.length === LOAD_SESSIONS) break;
    const session = await prepare(origin, cookie);
    if (session) sessions.push(session);
  }
  if (sessions.length < LOAD_SESSIONS) throw new Error(`only ${sessions.length} of ${LOAD_SESSIONS} sessions could be signed in`);

  const times = Object.fromEntries(Object.keys(ROUTES).map((kind) => [kind, []]));
  const errors = [];
  const gate = slots(IN_FLIGHT);
  const loads = [loadAverage()];
  const sampler = setInterval(() => loads.push(loadAverage()), 5_000);
  const started = Date.now();
  const deadline = started + LOAD_SECONDS * 1000;
  const think = () => THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS);

  await Promise.all(
    sessions.map(async (session) => {
      // Sessions start spread over one think time, as people do, not all in the same second.
      await sleep(Math.random() * THINK_MAX_MS);
      while (Date.now() < deadline) {
        const kind = pick(session);
        const [url, init] = request(origin, session, kind);
        await gate.take();
        const sent = performance.now();
        try {
          const response = await fetch(url, init);
          await response.arrayBuffer();
          times[kind].push(performance.now() - sent);
          if (response.status !== 200) errors.push(`${ROUTES[kind]} answered ${response.status}`);
        } catch (error) {
          errors.push(`${ROUTES[kind]} failed: ${error instanceof Error ? error.message : error}`);
        } finally {
          gate.give();
        }
        await sleep(think());
      }
    }),
  );
  clearInterval(sampler);
  loads.push(loadAverage());
  const seconds = (Date.now() - started) / 1000;
  const total = Object.values(times).reduce((sum, list) => sum + list.length, 0);
  const counted = new Map();
  for (const error of errors) counted.set(error, (counted.get(error) ?? 0) + 1);
  const byError = [...counted].map(([error, count]) => `${count} × ${error}`);
  return [
    `Load run: ${sessions.length} signed-in sessions for ${Math.round(seconds)} s, ${THINK_MIN_MS / 1000}–${THINK_MAX_MS / 1000} s think time, ` +
      `at most ${IN_FLIGHT} requests in flight; ${n(total)} requests (${(total / seconds).toFixed(1)}/s), ${errors.length} errors. ` +
      `Machine: ${os.cpus().length} cores, load average (1 min) ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}, ` +
      `mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2)} while it ran (shared with other work).`,
    "",
    "| route | requests | p50 ms | p95 ms |",
    "| --- | ---: | ---: | ---: |",
    ...Object.entries(ROUTES).map(([kind, route]) => {
      const sorted = [...times[kind]].sort((a, b) => a - b);
      return `| ${route} | ${n(sorted.length)} | ${Math.round(percentile(sorted, 0.5))} | ${Math.round(percentile(sorted, 0.95))} |`;
    }),
    ...(byError.length ? ["", "Errors:", ...byError.map((line) => `  ${line}`)] : []),
  ].join("\n");
}

const n = (value) => value.toLocaleString("en-US");
