import { formatDate, formatTime, type DisplayPreferences } from "~/lib/format";

export interface DataRequestRow {
  id: string;
  /** Shown to admins (Operations Center → Compliance); null once the account has been purged. */
  email?: string | null;
  type: "access" | "portability" | "erasure";
  status: "pending" | "completed" | "cancelled" | "failed";
  description: string;
  createdAt: string;
  completedAt: string | null;
}

export const REQUEST_TYPE_LABELS: Record<DataRequestRow["type"], string> = { access: "Access", portability: "Export", erasure: "Deletion" };
export const REQUEST_STATUS_LABELS: Record<DataRequestRow["status"], string> = {
  pending: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
  failed: "Failed",
};

/** Data requests, newest first: the agent's own in Settings → Data, everyone's (with e-mail) for admins. */
export function DataRequestsTable({
  requests,
  prefs,
  caption,
  withAccount = false,
}: {
  requests: DataRequestRow[];
  prefs: DisplayPreferences;
  caption: string;
  withAccount?: boolean;
}) {
  return (
    <div role="group" aria-label={caption} tabIndex={0} className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-stone-600 dark:text-stone-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Asked
            </th>
            {withAccount ? (
              <th scope="col" className="py-2 pr-3 font-medium">
                Account
              </th>
            ) : null}
            <th scope="col" className="py-2 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 font-medium">
              What
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
          {requests.map((r) => (
            <tr key={r.id}>
              <td className="whitespace-nowrap py-2 pr-3">
                {formatDate(r.createdAt, prefs)} {formatTime(r.createdAt, prefs)}
              </td>
              {withAccount ? <td className="py-2 pr-3">{r.email ?? "Deleted account"}</td> : null}
              <td className="py-2 pr-3">{REQUEST_TYPE_LABELS[r.type]}</td>
              <td className="py-2 pr-3">{REQUEST_STATUS_LABELS[r.status]}</td>
              <td className="py-2">{r.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
