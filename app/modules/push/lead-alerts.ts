// Speed to lead (ADR 0032), shared by the server and the dashboard.

/** Minutes after a new lead arrives without a response when the cron sends its one reminder. */
export const LEAD_REMINDER_MINUTES = 5;
