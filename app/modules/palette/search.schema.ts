import { z } from "zod";
import { PALETTE_QUERY_MAX } from "./search";

/** The q of GET /api/search. */
export const PaletteQuerySchema = z.string().max(PALETTE_QUERY_MAX, `Search text can be at most ${PALETTE_QUERY_MAX} characters.`);
