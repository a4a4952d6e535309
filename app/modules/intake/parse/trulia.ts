import type { Portal } from "./portal";
import { withLabels } from "./read";
import { ZILLOW_GROUP_SUBJECT } from "./zillow";

// Trulia's lead notifications (Zillow Group's, laid out as Zillow's): sent from trulia.com, the lead in Reply-To,
// labelled rows, the listing linked on trulia.com. Fixtures: tests/fixtures/intake/trulia-*.eml.
export const trulia: Portal = {
  format: "trulia",
  source: "trulia",
  label: "Trulia",
  domains: ["trulia.com"],
  listingHosts: ["trulia.com"],
  labels: withLabels({}),
  subjectName: ZILLOW_GROUP_SUBJECT,
};
