// The Operations Center's tabs: monitoring, thresholds, backups, the GDPR requests and the account databases. Browser-safe.

export const OPERATIONS_TABS = [
  { id: "monitoring", label: "Monitoring" },
  { id: "thresholds", label: "Thresholds" },
  { id: "backup", label: "Backup" },
  { id: "compliance", label: "Compliance" },
  { id: "databases", label: "Databases" },
] as const;
export type OperationsTab = (typeof OPERATIONS_TABS)[number]["id"];
