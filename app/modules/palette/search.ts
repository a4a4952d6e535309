import type { ContactOption } from "~/modules/contacts/contact.schema";

// What the command palette's search, the contact pickers' and GET /api/search agree on. No zod here: the
// palette and the pickers (browser) read it.

/** The longest search the box takes and the API accepts. */
export const PALETTE_QUERY_MAX = 100;
/** At most this many contacts and this many deals per search. */
export const PALETTE_RESULT_LIMIT = 6;
/** At most this many contacts per picker search. */
export const PICKER_RESULT_LIMIT = 8;
/** GET /api/search's `scope` for the contact pickers: contacts only, and the most recent for an empty box. */
export const PICKER_SCOPE = "contacts";

export interface PaletteDeal {
  id: string;
  title: string;
  /** The stage's name as the agent set it up. */
  stage: string;
  contactName: string | null;
}

/** GET /api/search?q= (the palette) */
export interface PaletteSearchResult {
  contacts: ContactOption[];
  deals: PaletteDeal[];
}

/** GET /api/search?scope=contacts&q= (the contact pickers) */
export interface PickerSearchResult {
  contacts: ContactOption[];
}
