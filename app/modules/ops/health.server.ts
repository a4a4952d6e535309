export interface Probe {
  ok: boolean;
  ms: number;
  error?: string;
}

async function probe(run: () => Promise<unknown>): Promise<Probe> {
  const started = performance.now();
  try {
    await run();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) };
  }
}

/** Live round trips to D1 and KV, timed. Used by /api/health and the Operations Center. */
export async function probeStorage(env: { DB: D1Database; KV: KVNamespace }) {
  const [d1, kv] = await Promise.all([probe(() => env.DB.prepare("select 1").first()), probe(() => env.KV.get("health:probe"))]);
  return { d1, kv, ok: d1.ok && kv.ok };
}
