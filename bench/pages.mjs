// The routes `npm run bench` loads. Later features add their pages (and seed volumes in bench/seed.mjs).
// `floor` touches no binding: every other route is reported as a ratio to it.
export const PAGES = [
  { name: "floor /api/ping", path: "/api/ping", floor: true },
  { name: "/api/health (D1 + KV)", path: "/api/health" },
  { name: "public /auth", path: "/auth" },
  // The dashboard on the same large account (100,000 contacts, 2,000 deals, 5,000 tasks, 20,000 activities):
  // every figure from one D1 batch.
  { name: "signed-in /dashboard (large account)", path: "/dashboard", auth: true, serverTiming: true },
  { name: "signed-in /settings (heaviest)", path: "/settings", auth: true },
  { name: "signed-in /settings?tab=billing", path: "/settings?tab=billing", auth: true },
  // Contacts on an account with 100,000 of them (bench/seed.mjs). `serverTiming` pages also report the
  // loader's own time from the Server-Timing header (target < 20 ms for search and filtered lists).
  { name: "signed-in /contacts (100k contacts)", path: "/contacts", auth: true, serverTiming: true },
  { name: "signed-in /contacts search", path: "/contacts?q=lindq", auth: true, serverTiming: true },
  { name: "signed-in /contacts filtered", path: "/contacts?status=hot&tag=buyer&sort=budget&min=400000", auth: true, serverTiming: true },
  // The pipeline on an account with 2,000 deals (bench/seed.mjs): the board, and the forecast over all of them.
  { name: "signed-in /pipeline (2,000 deals)", path: "/pipeline", auth: true, serverTiming: true },
  { name: "signed-in /pipeline/commissions", path: "/pipeline/commissions", auth: true },
  // Tasks on the same account (5,000 tasks): the Upcoming list with its tab counts, and a month of the calendar.
  { name: "signed-in /tasks upcoming (5,000 tasks)", path: "/tasks?view=upcoming", auth: true, serverTiming: true },
  { name: "signed-in /tasks month", path: "/tasks?view=month", auth: true, serverTiming: true },
  // The AI assistant: smart insights from the user's Durable Object (computed from D1 once per data version).
  { name: "signed-in /ai-assistant", path: "/ai-assistant", auth: true },
  // Reports on the large account, each period (one D1 batch, one-connection p50 under 100 ms).
  ...["this-month", "last-month", "this-quarter", "ytd", "last-12-months"].map((period) => ({
    name: `signed-in /reports ${period}`,
    path: `/reports?period=${period}`,
    auth: true,
    serverTiming: true,
  })),
  // The team: the bench agent owns a team of 20 (bench/seed.mjs seedTeam; target one-connection p50 < 150 ms, the team
  // board < 100 ms).
  { name: "signed-in /team/leaderboard (20 agents, 12 months)", path: "/team/leaderboard?period=last-12-months", auth: true, serverTiming: true },
  { name: "signed-in /team/leaderboard.csv (20 agents, 12 months)", path: "/team/leaderboard.csv?period=last-12-months", auth: true },
  // Team reports (ADR 0077): one grouped batch over the 20 members plus each agent's pricing; target one-connection p50 < 100 ms.
  { name: "signed-in /team/reports (20 agents, last 12 months)", path: "/team/reports?period=last-12-months", auth: true, serverTiming: true },
  { name: "signed-in /team/pipeline team board (20 agents)", path: "/team/pipeline", auth: true, serverTiming: true },
  { name: "signed-in /team/pipeline list (20 agents)", path: "/team/pipeline?view=list&agent=all", auth: true, serverTiming: true },
  { name: "signed-in /team/pipeline board (an agent)", path: "/team/pipeline?agent=u-00000001", auth: true, serverTiming: true },
  { name: "signed-in /reports for an agent", path: "/reports?period=ytd&agent=u-00000001", auth: true, serverTiming: true },
  { name: "signed-in /team/leads (150 waiting, 5,000 assigned)", path: "/team/leads", auth: true, serverTiming: true },
];

// The public pages Lighthouse audits after the load run (mobile preset). A page that answers 404 is reported
// as "missing (404)", not audited.
export const PUBLIC_PAGES = [
  "/",
  "/features",
  "/pricing",
  "/about",
  "/contact",
  "/support",
  "/guides/account-setup",
  "/blog",
  "/blog/speed-to-lead",
  "/trial",
  "/terms",
  "/privacy",
  // The sign-in form is the hydrated entry to the app: its ~100 KiB runtime is the one the signed-in pages
  // reuse from cache, so it is listed for its scores and misses the public-site JS budget (ADR 0011).
  "/auth",
];

// The signed-in pages Lighthouse audits with the bench account's session (the large account of the load run).
// Each must score 100 for accessibility and best practices.
export const SIGNED_IN_LIGHTHOUSE_PAGES = [
  "/dashboard",
  "/contacts",
  "/pipeline",
  "/pipeline/commissions",
  "/pipeline/stages",
  "/tasks",
  "/tasks?view=month",
  "/activities",
  "/ai-assistant",
  "/team/leaderboard",
  "/team/pipeline",
  "/settings",
  "/reports?period=last-12-months",
  "/settings?tab=goals",
];
