import type { LeadMode } from "~/db/enums";

// What the team leads page says about each way of distributing leads (ADR 0038).

export const LEAD_MODE_LABELS: Record<LeadMode, string> = {
  pond: "Keep them in the pond",
  round_robin: "Round robin",
  claim: "First to claim",
};

export const LEAD_MODE_HELP: Record<LeadMode, string> = {
  pond: "New leads wait in the pond. Any available member claims one, or the owner, admins or an ISA assigns it.",
  round_robin: "Each new lead goes at once to the next available member, in turn.",
  claim: "Each new lead is offered to every available member; the first to claim it gets it. When the claim window passes, round robin takes it.",
};

/** A CSV file of leads: at most this many rows (each may become a contact in the same request) and bytes. */
export const LEAD_IMPORT_ROWS = 100;
export const LEAD_IMPORT_MAX_BYTES = 1_000_000;
