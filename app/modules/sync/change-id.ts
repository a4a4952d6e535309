/**
 * The row id a queued change creates (ADR 0031): the same for a retry of the same key, different for every
 * agent. Shaped like every other id (a UUID: version 8, the RFC 9562 form for ids derived by the application). The
 * server makes the row under this id; the phone computes the same id offline, so a task added to a contact made
 * offline can name it before either reaches the server.
 */
export async function changeRowId(userId: string, key: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${userId}:${key}`))).slice(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
