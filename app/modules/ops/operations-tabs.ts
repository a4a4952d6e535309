// The Operations Center's tabs: monitoring, thresholds, backups and the GDPR requests. Browser-safe.

export const OPERATIONS_TABS = [
  { id: "monitoring", label: "Monitoring" },
  { id: "thresholds", label: "Thresholds" },
  { id: "backup", label: "Backup" },
  { id: "compliance", label: "Compliance" },
] as const;
export type OperationsTab = (typeof OPERATIONS_TABS)[number]["id"];
