import { Hono } from "hono";
import { createRequestContext } from "~/lib/context.server";
import { leadApiDocument } from "~/modules/intake/lead-api-doc.server";
import { receiveApiLead } from "~/modules/intake/lead-api.server";
import type { ApiEnv } from "./api-env";

/**
 * The lead API (ADR 0066): POST /api/v1/leads with a key from Settings → Lead sources, and its OpenAPI document at
 * GET /api/v1/openapi.json.
 */
export const leadsApi = new Hono<ApiEnv>()
  .get("/v1/openapi.json", (c) => {
    const context = createRequestContext(c.env, c.executionCtx, "");
    return c.json(leadApiDocument(context.config.PUBLIC_URL ?? new URL(c.req.url).origin), 200, { "Cache-Control": "public, max-age=300" });
  })
  .post("/v1/leads", async (c) => {
    const answer = await receiveApiLead(createRequestContext(c.env, c.executionCtx, ""), c.req.raw);
    return c.json(answer.body, answer.status as 200, { "Cache-Control": "no-store", ...answer.headers });
  });
