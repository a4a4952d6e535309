import { ACTIVITY_TYPES, isSystemActivity, type LoggableActivityType } from "~/db/enums";

// The figures the dashboard, Reports (page and CSV), the leaderboard and the daily digest share: what a lead is, when it
// arrived, when it is waiting, and which activities count as logged. The SQL is in figures.server.ts; these are the
// words each screen shows beside the figure, so the page, the file and the e-mail say the same thing. Browser-safe.

/** Activities the agent logged: every type but those Porchlight writes itself (stage changes, lead assignments, sync conflicts). */
export const LOGGED_TYPES = ACTIVITY_TYPES.filter((t): t is LoggableActivityType => !isSystemActivity(t));

/** A lead still unanswered after this long leaves the dashboard's timer and the digest (it stays waiting in Reports). */
export const LEAD_WAIT_SHOWN_HOURS = 24;

/** The sentences every screen builds its definition from. */
export const FIGURE_WORDS = {
  lead: "A new lead is a contact that arrived as one: added one at a time (Add contact, or from your phone), an imported row marked New, or a team lead given to you. Other imported contacts are not new leads. A lead deleted and restored from the trash is the lead it was.",
  waiting:
    "A lead is waiting until you log the first call, text, e-mail sent or meeting with them; a note or another kind of activity does not end the wait.",
  shared:
    "A deal a teammate shares with you counts in your GCI and agent net for your share of the side, priced by your own plan and cap; the deal and its volume count for its own agent.",
  logged:
    "Activities you logged: calls, e-mails, texts, showings, meetings, notes and the rest. Entries Porchlight writes itself (stage changes, lead assignments and offline changes it could not make) are left out.",
} as const;

/** The digest's and the dashboard's waiting leads, in one sentence. */
export const WAITING_SHOWN = `New leads from the last ${LEAD_WAIT_SHOWN_HOURS} hours with no call, text, e-mail sent or meeting logged yet.`;
