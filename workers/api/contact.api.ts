import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { createRequestContext } from "~/lib/context.server";
import { submitContact } from "~/modules/marketing/contact.server";
import type { ApiEnv } from "./api-env";

/** POST /api/contact-submit (spec section 7): JSON in, { ok, error } out (plus field errors). */
export const contactApi = new Hono<ApiEnv>().post("/contact-submit", async (c) => {
  const body = await readJson(c.req.raw);
  if (!body || typeof body !== "object" || Array.isArray(body)) return c.json({ ok: false, error: "Send the form fields as a JSON object." }, 400);
  const result = await submitContact(createRequestContext(c.env, c.executionCtx, ""), c.req.raw, body as Record<string, unknown>);
  if (result.ok) return c.json({ ok: true, error: null });
  return c.json({ ok: false, error: result.error, fieldErrors: result.fieldErrors }, result.status as 400 | 429 | 500);
});
