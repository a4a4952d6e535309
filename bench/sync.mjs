// The field copy of the bench's large account (ADR 0031): GET /api/sync whole, then with the cursor it
// gave and nothing changed, then after one change. Times are one request at a time, end to end (the JSON read
// included); sizes are the body as sent and gzipped (what a phone downloads when the response is compressed).
import { gzipSync } from "node:zlib";

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const p50 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, text, body: JSON.parse(text) };
}

export async function benchSync(origin, sessionCookie, runs = 7) {
  const headers = { Cookie: sessionCookie };
  const whole = [];
  for (let i = 0; i < runs; i++) whole.push(await timed(`${origin}/api/sync`, headers));
  const copy = whole.at(-1).body;
  const activities = copy.contacts.upsert.reduce((n, c) => n + c.activities.length, 0);
  const same = [];
  for (let i = 0; i < runs; i++) same.push(await timed(`${origin}/api/sync?cursor=${encodeURIComponent(copy.cursor)}`, headers));
  // One activity logged on a contact in the copy, as a phone would send it after a call.
  const contact = copy.contacts.upsert[0];
  const day = copy.today;
  const change = {
    key: crypto.randomUUID(),
    type: "log_activity",
    activity: { type: "call", contactId: contact.id, date: day, time: "12:00", outcome: "Connected", notes: "Bench call" },
  };
  const sent = await fetch(`${origin}/api/sync/changes`, {
    method: "POST",
    headers: { ...headers, Origin: origin, "Content-Type": "application/json" },
    body: JSON.stringify({ changes: [change] }),
  });
  if (sent.status !== 200) throw new Error(`/api/sync/changes answered ${sent.status}`);
  const after = await timed(`${origin}/api/sync?cursor=${encodeURIComponent(copy.cursor)}`, headers);
  const size = (r) => `${kib(r.text.length)} (${kib(gzipSync(r.text).length)} gzip)`;
  return [
    `Field copy of the large account (GET /api/sync, ${runs} runs each, one at a time): whole copy p50 ${Math.round(p50(whole.map((r) => r.ms)))} ms, ` +
      `${size(whole.at(-1))}: ${copy.contacts.upsert.length.toLocaleString("en-US")} contacts${copy.truncated.contacts ? " (cap reached)" : ""}, ` +
      `${activities.toLocaleString("en-US")} activities, ${copy.tasks.upsert.length.toLocaleString("en-US")} tasks${copy.truncated.tasks ? " (cap reached)" : ""}, ` +
      `${copy.deals.all.length.toLocaleString("en-US")} open deals${copy.truncated.deals ? " (cap reached)" : ""}.`,
    `Sync with nothing changed: p50 ${Math.round(p50(same.map((r) => r.ms)))} ms, ${size(same.at(-1))}. After one call logged: ${Math.round(after.ms)} ms, ${size(after)}, ` +
      `${after.body.contacts.upsert.length} contact sent again with its activities.`,
  ].join("\n");
}
