import { Hono } from "hono";
import { PICKER_SCOPE } from "~/modules/palette/search";
import { PaletteQuerySchema } from "~/modules/palette/search.schema";
import { paletteSearch, pickerSearch } from "~/modules/palette/search.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * GET /api/search?q=: the signed-in user's own matches for q, the one search endpoint of the app.
 * Without scope, the command palette's contacts and deals (q of at most 100 characters, else 400).
 * With scope=contacts, the contact pickers' { contacts } (up to 8; an empty q gives the most recent).
 */
export const searchApi = new Hono<ApiEnv>().get("/search", async (c) => {
  const auth = await apiSubscriber(c);
  if (auth instanceof Response) return auth;
  if (c.req.query("scope") === PICKER_SCOPE) return c.json(await pickerSearch(auth.context, auth.user.id, c.req.query("q") ?? ""), 200, NO_STORE);
  const parsed = PaletteQuerySchema.safeParse(c.req.query("q") ?? "");
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message ?? "That search is not valid." }, 400, NO_STORE);
  return c.json(await paletteSearch(auth.context, auth.user.id, parsed.data), 200, NO_STORE);
});
