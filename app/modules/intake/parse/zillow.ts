import type { Portal } from "./portal";
import { withLabels } from "./read";

// Zillow's lead notifications ("New Contact: Jane Doe is requesting information about 12 Oak St"): sent from
// zillow.com addresses with the lead in Reply-To, the lead's details as labelled rows, the listing linked on
// zillow.com/homedetails. Fixtures: tests/fixtures/intake/zillow-*.eml.
/** Zillow Group's subject line naming the lead ("New Contact: Jane Doe is requesting information about …"), Trulia's too. */
export const ZILLOW_GROUP_SUBJECT =
  /^(?:new (?:contact|lead)[^:]*:\s*)?(.+?)\s+(?:is requesting information|wants to (?:see|tour)|is interested in|has a question|requested)/i;

export const zillow: Portal = {
  format: "zillow",
  source: "zillow",
  label: "Zillow",
  domains: ["zillow.com", "zillowmail.com"],
  listingHosts: ["zillow.com"],
  labels: withLabels({ message: ["Their message", "Message from buyer"] }),
  subjectName: ZILLOW_GROUP_SUBJECT,
};
