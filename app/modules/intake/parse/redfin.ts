import type { Portal } from "./portal";
import { withLabels } from "./read";

// Redfin's partner-agent lead notifications: sent from redfin.com, the buyer as "Client" or "Buyer", the home as
// "Home" with its MLS number, the listing linked on redfin.com. Fixtures: tests/fixtures/intake/redfin-*.eml.
export const redfin: Portal = {
  format: "redfin",
  source: "redfin",
  label: "Redfin",
  domains: ["redfin.com"],
  listingHosts: ["redfin.com"],
  labels: withLabels({ name: ["Client", "Buyer"], address: ["Home"] }),
};
