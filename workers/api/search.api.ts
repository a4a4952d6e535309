import { Hono } from "hono";
import { PaletteQuerySchema } from "~/modules/palette/search.schema";
import { paletteSearch } from "~/modules/palette/search.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

const NO_STORE = { "Cache-Control": "private, no-store" };

/** GET /api/search?q=: the command palette's contacts and deals matching q, the signed-in user's only. */
export const searchApi = new Hono<ApiEnv>().get("/search", async (c) => {
  const auth = await apiSubscriber(c);
  if (auth instanceof Response) return auth;
  const parsed = PaletteQuerySchema.safeParse(c.req.query("q") ?? "");
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message ?? "That search is not valid." }, 400, NO_STORE);
  return c.json(await paletteSearch(auth.context, auth.user.id, parsed.data), 200, NO_STORE);
});
