import { Hono } from "hono";
import { ImportRequestSchema, type ImportResponse } from "~/modules/contacts/import";
import { importContacts } from "~/modules/contacts/import.server";
import type { ApiEnv } from "./index";
import { apiSubscriber } from "./session.api";

/**
 * POST /api/contacts/import: the import screen's mapped rows in, a summary out. A JSON endpoint (not a Remix
 * action) so the browser can send it with XMLHttpRequest and show real upload progress.
 */
export const contactsApi = new Hono<ApiEnv>().post("/contacts/import", async (c) => {
  const auth = await apiSubscriber(c);
  if (auth instanceof Response) return auth;
  const parsed = ImportRequestSchema.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return c.json<ImportResponse>({ ok: false, error: parsed.error.issues[0]?.message ?? "That file could not be read." }, 400);
  try {
    return c.json<ImportResponse>({ ok: true, summary: await importContacts(auth.context, auth.user.id, parsed.data) });
  } catch (error) {
    console.error(JSON.stringify({ event: "contact_import_failed", message: String(error) }));
    return c.json<ImportResponse>({ ok: false, error: "The import failed and nothing was saved. Please try again." }, 500);
  }
});
