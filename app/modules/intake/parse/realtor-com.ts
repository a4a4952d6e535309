import type { Portal } from "./portal";
import { withLabels } from "./read";

// Realtor.com's lead notifications ("New realtor.com lead: …"): sent from realtor.com or move.com (its operator),
// the consumer's first and last name on rows of their own, "Comments" for the message, "Property Address", "MLS ID"
// and "List Price" for the listing. Fixtures: tests/fixtures/intake/realtor-com-*.eml.
export const realtorCom: Portal = {
  format: "realtor_com",
  source: "realtor_com",
  label: "Realtor.com",
  domains: ["realtor.com", "move.com"],
  listingHosts: ["realtor.com"],
  labels: withLabels({ message: ["Consumer Comments", "Comments from consumer"] }),
  subjectName: /lead(?: for [^:]+)?:\s*(.+?)(?:\s+(?:is interested|wants|requested).*)?$/i,
};
