// The address this deployment is reached at, for the links of e-mails the cron sends (alerts), where PUBLIC_URL is
// not set and no request is there to ask. The Operations Center remembers the origin an admin opens it at.

const KEY = "ops:app-origin";

/** Keeps `origin` as the app's address (one KV read per call, a write only when it changed). */
export async function rememberAppOrigin(kv: KVNamespace, origin: string): Promise<void> {
  if ((await kv.get(KEY)) !== origin) await kv.put(KEY, origin);
}

export function rememberedAppOrigin(kv: KVNamespace): Promise<string | null> {
  return kv.get(KEY);
}
