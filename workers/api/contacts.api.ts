import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { logError } from "~/lib/log.server";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE, ImportRequestSchema, type ImportResponse } from "~/modules/contacts/import";
import type { ContactOption } from "~/modules/contacts/contact.schema";
import { listContacts } from "~/modules/contacts/contacts.server";
import { importContacts } from "~/modules/contacts/import.server";
import { SUBMISSION_KEY_HEADER } from "~/modules/sync/submission-key";
import { readSubmissionKey } from "~/modules/sync/submissions.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

/**
 * GET /api/contacts/search?q=: up to 8 of the user's contacts matching q (full-text, as the list searches),
 * for pickers such as the deal dialog's. An empty q gives the most recent contacts.
 */
const search = new Hono<ApiEnv>().get("/contacts/search", async (c) => {
  const auth = await apiSubscriber(c);
  if (auth instanceof Response) return auth;
  const q = (c.req.query("q") ?? "").slice(0, 100);
  const page = await listContacts(auth.context, auth.user.id, { filters: q.trim() ? { search: q } : {}, sort: q.trim() ? "name" : "newest", limit: 8 });
  const options: ContactOption[] = page.contacts.map((contact) => ({ id: contact.id, name: contact.name, detail: contact.email ?? contact.phone }));
  return c.json({ contacts: options }, 200, { "Cache-Control": "private, no-store" });
});

/**
 * POST /api/contacts/import: the import screen's mapped rows in, a summary out. A JSON endpoint (not a Remix
 * action) so the browser can send it with XMLHttpRequest and show real upload progress.
 */
const importer = new Hono<ApiEnv>().post("/contacts/import", async (c) => {
  const auth = await apiSubscriber(c);
  if (auth instanceof Response) return auth;
  const parsed = ImportRequestSchema.safeParse(await readJson(c.req.raw, { maxBytes: IMPORT_MAX_BYTES, tooLargeMessage: IMPORT_TOO_LARGE }));
  if (!parsed.success) return c.json<ImportResponse>({ ok: false, error: parsed.error.issues[0]?.message ?? "That file could not be read." }, 400);
  // The import screen sends a submission key: a retry of the same import is answered with the first's summary.
  const submission = readSubmissionKey(c.req.header(SUBMISSION_KEY_HEADER));
  if ("error" in submission) return c.json<ImportResponse>({ ok: false, error: submission.error }, 400);
  try {
    return c.json<ImportResponse>({ ok: true, summary: await importContacts(auth.context, auth.user.id, parsed.data, submission.key) });
  } catch (error) {
    logError("contact_import_failed", c.req.routePath, error);
    return c.json<ImportResponse>({ ok: false, error: "The import failed and nothing was saved. Please try again." }, 500);
  }
});

export const contactsApi = new Hono<ApiEnv>().route("/", search).route("/", importer);
