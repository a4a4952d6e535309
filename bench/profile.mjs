// `npm run bench:profile -- /contacts`: where a route's CPU time goes. Serves the bench's seeded, not-minified
// bundle (bench/server.mjs), loads the route with 10 connections while the V8 sampling profiler runs inside
// workerd (through its inspector), and prints the functions with the most samples, self and inclusive.
// The raw profile is written to bench/results/<route>.cpuprofile (open it in Chrome DevTools > Performance).
import autocannon from "autocannon";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import { root, step } from "../scripts/lib.mjs";
import { buildBundle, startSeededServer } from "./server.mjs";

const route = process.argv[2] ?? "/contacts";
const INSPECTOR_PORT = 9230;
const workerPath = await buildBundle({ minify: false });
const { mf, origin, sessionCookie } = await startSeededServer(workerPath, { inspectorPort: INSPECTOR_PORT });

const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json();
const target = targets.find((t) => t.title.includes("core:user"));
if (!target) throw new Error(`no user worker among the inspector targets: ${targets.map((t) => t.title).join(", ")}`);
const socket = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => (socket.once("open", resolve), socket.once("error", reject)));
let nextId = 0;
const pending = new Map();
socket.on("message", (raw) => {
  const message = JSON.parse(raw);
  pending.get(message.id)?.(message);
  pending.delete(message.id);
});
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const id = ++nextId;
    pending.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
const load = () =>
  new Promise((resolve, reject) =>
    autocannon({ url: `${origin}${route}`, connections: 10, duration: 6, headers: { Cookie: sessionCookie } }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

step(`Warming ${route} up, then profiling it for 6 s at 10 connections`);
await load();
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 200 });
await send("Profiler.start");
const result = await load();
const { profile } = (await send("Profiler.stop")).result;
socket.close();
await mf.dispose();
if (result.non2xx || result.errors)
  throw new Error(`${route}: ${result.non2xx} non-2xx answers and ${result.errors} errors: the profile would describe an error page`);

mkdirSync(path.join(root, "bench/results"), { recursive: true });
const file = path.join(root, "bench/results", `${route.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "root"}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((child) => [child, n.id])));
const hits = new Map();
for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
const label = (n) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url ? `${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : ""}`.trim();
const self = new Map();
const inclusive = new Map();
for (const [id, count] of hits) {
  self.set(label(nodes.get(id)), (self.get(label(nodes.get(id))) ?? 0) + count);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = label(nodes.get(at));
    if (seen.has(name)) continue;
    inclusive.set(name, (inclusive.get(name) ?? 0) + count);
    seen.add(name);
  }
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, count]) => `  ${((100 * count) / profile.samples.length).toFixed(1).padStart(5)}%  ${name}`)
    .join("\n");
console.log(
  `\n${route}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (not minified); ${profile.samples.length} samples`,
);
console.log(`\nSelf time:\n${top(self, 25)}\n\nInclusive time:\n${top(inclusive, 40)}\n\nProfile written to ${path.relative(root, file)}`);
