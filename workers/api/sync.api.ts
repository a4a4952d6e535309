import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { fieldSync } from "~/modules/sync/field-copy.server";
import { QueuedChangesSchema } from "~/modules/sync/queued-changes.schema";
import { applyQueuedChanges } from "~/modules/sync/queued-changes.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * The phone's field copy (ADR 0031).
 * GET /api/sync?cursor=: the signed-in agent's copy, whole or what changed since the cursor (an unreadable cursor
 * gets the whole copy).
 * POST /api/sync/changes { changes: [...] }: changes queued offline, applied in order, each answered (applied,
 * conflict, rejected) and applied once per key however often it is sent.
 */
export const syncApi = new Hono<ApiEnv>()
  .get("/sync", async (c) => {
    const auth = await apiSubscriber(c);
    if (auth instanceof Response) return auth;
    return c.json(await fieldSync(auth.context, auth.user.id, c.req.query("cursor") ?? null), 200, NO_STORE);
  })
  .post("/sync/changes", async (c) => {
    const auth = await apiSubscriber(c);
    if (auth instanceof Response) return auth;
    const parsed = QueuedChangesSchema.safeParse(await readJson(c.req.raw));
    if (!parsed.success) return c.json({ ok: false, error: parsed.error.issues[0]?.message ?? "Send the changes as a list." }, 400, NO_STORE);
    return c.json({ ok: true, results: await applyQueuedChanges(auth.context, auth.user.id, parsed.data.changes) }, 200, NO_STORE);
  });
