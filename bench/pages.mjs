// The routes `npm run bench` loads. Later features add their pages (and seed volumes in bench/seed.mjs).
// `floor` touches no binding: every other route is reported as a ratio to it.
export const PAGES = [
  { name: "floor /api/ping", path: "/api/ping", floor: true },
  { name: "/api/health (D1 + KV)", path: "/api/health" },
  { name: "public /auth", path: "/auth" },
  { name: "signed-in /dashboard", path: "/dashboard", auth: true },
  { name: "signed-in /settings (heaviest)", path: "/settings", auth: true },
  { name: "signed-in /settings?tab=billing", path: "/settings?tab=billing", auth: true },
];
