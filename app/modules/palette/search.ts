import type { ContactOption } from "~/modules/contacts/contact.schema";

// What the command palette's search and GET /api/search agree on. No zod here: the palette (browser) reads it.

/** The longest search the box takes and the API accepts. */
export const PALETTE_QUERY_MAX = 100;
/** At most this many contacts and this many deals per search. */
export const PALETTE_RESULT_LIMIT = 6;

export interface PaletteDeal {
  id: string;
  title: string;
  /** The stage's name as the agent set it up. */
  stage: string;
  contactName: string | null;
}

/** GET /api/search?q= */
export interface PaletteSearchResult {
  contacts: ContactOption[];
  deals: PaletteDeal[];
}
