import type { PortalSource } from "~/db/enums";
import type { FieldLabels } from "./read";

/**
 * One listing portal's lead e-mails: how to know them (the sender's domain, also inside a forward) and how they label
 * the lead's fields. The fields themselves are read the same way for every portal (read.ts).
 */
export interface Portal {
  format: PortalSource;
  source: PortalSource;
  label: string;
  /** Domains its lead notifications come from. */
  domains: readonly string[];
  /** Hosts of its listing pages, for the property's link (kept as text, never fetched). */
  listingHosts: readonly string[];
  labels: FieldLabels;
  /** A subject line that names the lead (group 1), when the body does not. */
  subjectName?: RegExp;
}
