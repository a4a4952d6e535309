import type { Portal } from "./portal";
import { withLabels } from "./read";

// Homes.com's lead notifications ("You have a new lead from Homes.com"): sent from homes.com, the lead's details as
// labelled rows, the listing linked on homes.com. Fixtures: tests/fixtures/intake/homes-com-*.eml.
export const homesCom: Portal = {
  format: "homes_com",
  source: "homes_com",
  label: "Homes.com",
  domains: ["homes.com"],
  listingHosts: ["homes.com"],
  labels: withLabels({}),
};
