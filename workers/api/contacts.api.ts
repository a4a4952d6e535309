import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { logError } from "~/lib/log.server";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE, ImportRequestSchema, type ImportResponse } from "~/modules/contacts/import";
import { importContacts } from "~/modules/contacts/import.server";
import { SUBMISSION_KEY_HEADER } from "~/modules/sync/submission-key";
import { readSubmissionKey } from "~/modules/sync/submissions.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

/**
 * POST /api/contacts/import: the import screen's mapped rows in, a summary out. A JSON endpoint (not a Remix
 * action) so the browser can send it with XMLHttpRequest and show real upload progress.
 */
export const contactsApi = new Hono<ApiEnv>().post("/contacts/import", async (c) => {
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
