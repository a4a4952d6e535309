// Speed to lead (ADR 0032), shared by the server and the dashboard.

/** Minutes after a new lead arrives without a response when the cron sends its one reminder. */
export const LEAD_REMINDER_MINUTES = 5;
/** A lead still unanswered after this long leaves the dashboard's timer (figures.ts, with the digest). */
export { LEAD_WAIT_SHOWN_HOURS } from "~/modules/reports/figures";
