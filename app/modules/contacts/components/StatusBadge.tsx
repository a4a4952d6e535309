import type { ContactStatus } from "~/db/enums";
import { STATUS_LABELS } from "../contacts.messages";

const STATUS_STYLE: Record<ContactStatus, string> = {
  hot: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  warm: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  cold: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100",
};

/** A contact's status as a coloured word (lists, the field view). */
export function StatusBadge({ status }: { status: ContactStatus }) {
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[status]}`}>{STATUS_LABELS[status]}</span>;
}
