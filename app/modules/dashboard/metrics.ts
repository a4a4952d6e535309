import type { ActivityType, ContactSource, ContactStatus, TaskPriority, TaskType } from "~/db/enums";
import { addDays, addMonths } from "~/lib/dates";
import type { DisplayPreferences } from "~/lib/format";
import { FIGURE_WORDS, WAITING_SHOWN } from "~/modules/reports/figures";
import type { ColumnChart } from "./charts";
import type { PerformanceMonth } from "./performance";

// The dashboard's figures (the dashboard guide's "command center"): what each one counts, in one
// place for the page's definitions and the tests, and the pure rules that turn the one batch of SQL
// aggregates into them. Browser-safe: no drizzle, no d3.

/** Hot and warm contacts with no activity for this many days need a follow-up. */
export const FOLLOW_UP_DAYS = 14;
/** "Recent" activity: dated within this many days. */
export const RECENT_ACTIVITY_DAYS = 7;
/** Sphere growth compares two windows of this many days. */
export const SPHERE_DAYS = 30;
/** The performance charts cover this many months, this one included. */
export const CHART_MONTHS = 12;
/** How many rows each list on the page shows. */
export const LIST_SIZES = { closings: 5, tasks: 6, activities: 8, followUps: 5 } as const;

export interface MetricDefinition {
  label: string;
  definition: string;
}

/** Every figure on the dashboard and exactly what it counts. The page shows these; the tests hold the numbers to them. */
export const METRIC_DEFINITIONS = {
  totalContacts: { label: "Total contacts", definition: "Every contact in your CRM, whatever its status (hot, warm or cold)." },
  activeDeals: {
    label: "Active deals",
    definition:
      "Deals in an open stage of your pipeline, that is every stage except your Closed Won and Closed Lost stages. The amount is the sum of their deal values.",
  },
  tasksDue: {
    label: "Tasks due",
    definition:
      "Open tasks due today or earlier, where today is the date in your timezone (Settings). Overdue counts the open tasks due before today.",
  },
  recentActivity: {
    label: "Recent activity",
    definition: `${FIGURE_WORDS.logged} Counted when dated in the last ${RECENT_ACTIVITY_DAYS} days (${RECENT_ACTIVITY_DAYS} × 24 hours back from now), as Reports counts activities logged.`,
  },
  newLeads: {
    label: "New leads this month",
    definition: `New leads that arrived since midnight on the 1st of this month in your timezone. ${FIGURE_WORDS.lead} Reports counts them the same way for any period.`,
  },
  leadsWaiting: {
    label: "New leads waiting for you",
    definition: `${WAITING_SHOWN} ${FIGURE_WORDS.waiting} ${FIGURE_WORDS.lead} Reports lists the waiting leads of any period the same way, and the daily digest these.`,
  },
  followUp: {
    label: "Follow-up required",
    definition: `Hot or warm contacts with no activity in the last ${FOLLOW_UP_DAYS} days: their latest activity (or, with none, the day they were added) is more than ${FOLLOW_UP_DAYS} × 24 hours ago.`,
  },
  hotProspects: { label: "Hot prospects", definition: "Contacts whose status is set to Hot, whenever they were added." },
  sphereGrowth: {
    label: "Sphere growth",
    definition: `Contacts added in the last ${SPHERE_DAYS} days (${SPHERE_DAYS} × 24 hours back from now), compared with the contacts added in the ${SPHERE_DAYS} days before that.`,
  },
  speedToLead: {
    label: "Speed to lead",
    definition: `The median time from a new lead arriving to your first call, text, e-mail sent or meeting with them (of an even number, the lower middle one), for the new leads of the last ${SPHERE_DAYS} days (${SPHERE_DAYS} × 24 hours back from now). Reports counts it the same way for any period.`,
  },
  pipeline: {
    label: "Pipeline overview",
    definition:
      "Each open stage in your pipeline's order: how many deals are in it and the sum of their deal values. Weighted is the sum of each deal's value × its probability.",
  },
  upcomingClosings: {
    label: "Upcoming closings",
    definition: `Open deals whose closing date (or, when none is set, expected close date) is today or later in your timezone, soonest first; the next ${LIST_SIZES.closings}. Agent net is what the deal pays you after your plan's splits and fees if it closes as planned.`,
  },
  taskReminders: {
    label: "Task reminders",
    definition: `Your open tasks in due order (date, then time; tasks without a time first), so overdue tasks lead; the first ${LIST_SIZES.tasks}.`,
  },
  recentActivityList: {
    label: "Latest activity",
    definition: `The latest ${LIST_SIZES.activities} activities on your contacts and deals, newest first, including the stage changes and lead assignments Porchlight records.`,
  },
  followUpList: {
    label: "Follow up next",
    definition: `Hot and warm contacts with no activity in the last ${FOLLOW_UP_DAYS} days, the longest waiting first; the first ${LIST_SIZES.followUps}.`,
  },
  closedVolume: {
    label: "Closed volume by month",
    definition: `The sum of the deal values (sale prices) of deals in your Closed Won stage, by the month of their closed date, for the last ${CHART_MONTHS} months including this one.`,
  },
  agentNet: {
    label: "Agent net by month",
    definition: `What those same closed deals paid you: gross commission less referral fee, brokerage split (up to your annual cap, in closed-date order), team split and fees, as your commission plan and each deal's overrides say; Reports' Income counts the same. ${FIGURE_WORDS.shared}`,
  },
  leadSources: { label: "Lead sources", definition: "All your contacts by the source recorded on each contact." },
  smartInsights: {
    label: "Smart Insights",
    definition:
      "The most pressing of: under-contract deals expected to close within 15 days; hot contacts with no activity for more than 7 days (with 3% of their maximum budget as the commission at stake); open deals at risk (close date or a key date passed or near, more than 30 days in one stage, or no activity for 14 days); your weighted pipeline; and the area most of your hot and warm contacts want. High priority first; the AI Assistant shows up to 5.",
  },
} as const satisfies Record<string, MetricDefinition>;
export type MetricKey = keyof typeof METRIC_DEFINITIONS;

/** What the dashboard loader returns (dates as epoch milliseconds or "YYYY-MM-DD"). */
export interface Dashboard {
  prefs: DisplayPreferences;
  /** The user's today ("YYYY-MM-DD") in their timezone. */
  today: string;
  onboarding: boolean;
  /** No contact, deal, task, activity or deal shared with the agent yet: the page shows how to start instead of zeros. */
  empty: boolean;
  stats: {
    totalContacts: number;
    byStatus: Record<ContactStatus, number>;
    activeDeals: { count: number; valueCents: number };
    tasksDue: { due: number; overdue: number };
    recentActivity: number;
    newLeads: number;
    followUp: number;
    hotProspects: number;
    sphere: { added: number; before: number; changePct: number | null };
    /** New leads of the last SPHERE_DAYS days: how many were answered, and the median minutes to that. */
    speedToLead: { leads: number; answered: number; medianMinutes: number | null };
  };
  pipeline: { key: string; name: string; color: string; count: number; valueCents: number; weightedCents: number; barPct: number }[];
  closings: {
    id: string;
    title: string;
    closeOn: string;
    dealValueCents: number;
    netCents: number;
    stageName: string;
    contactId: string | null;
    contactName: string | null;
  }[];
  tasks: {
    id: string;
    title: string;
    type: TaskType;
    priority: TaskPriority;
    dueDate: string;
    dueTime: string | null;
    contactId: string | null;
    contactName: string | null;
    dealId: string | null;
    dealTitle: string | null;
  }[];
  activities: {
    id: string;
    type: ActivityType;
    occurredAt: number;
    outcome: string | null;
    notes: string | null;
    from: string | null;
    to: string | null;
    contactId: string | null;
    contactName: string | null;
    dealId: string | null;
    dealTitle: string | null;
  }[];
  followUps: { id: string; name: string; status: ContactStatus; lastActivity: number }[];
  performance: { months: PerformanceMonth[]; volumeChart: ColumnChart; netChart: ColumnChart };
  sources: { source: ContactSource; count: number; barPct: number }[];
}

// ---- Days, months and the user's timezone ---------------------------------------------------------------

/** The months of the charts: the CHART_MONTHS months ending with today's, oldest first ("YYYY-MM"). */
export function chartMonths(today: string): string[] {
  const current = today.slice(0, 7);
  return Array.from({ length: CHART_MONTHS }, (_, i) => addMonths(current, i - CHART_MONTHS + 1));
}

// ---- Small derived figures -------------------------------------------------------------------------------

/** Sphere growth: added in the last window and the one before, with the change in percent (null when there is nothing to compare with). */
export function sphereGrowth(added: number, before: number): { added: number; before: number; changePct: number | null } {
  return { added, before, changePct: before === 0 ? null : Math.round(((added - before) / before) * 100) };
}

/** Lists of upcoming closings read for each possible today (disjoint date ranges), merged into the next `limit` from `today` on. */
export function upcomingFrom<T extends { id: string; closeOn: string | null }>(
  rows: readonly T[],
  today: string,
  limit: number,
): (T & { closeOn: string })[] {
  return rows
    .filter((r): r is T & { closeOn: string } => r.closeOn !== null && r.closeOn >= today)
    .sort((a, b) => (a.closeOn === b.closeOn ? (a.id < b.id ? -1 : 1) : a.closeOn < b.closeOn ? -1 : 1))
    .slice(0, limit);
}

/** Lead sources in a fixed order, biggest first, zero counts left out. */
export function leadSources(rows: readonly { source: ContactSource; n: number }[]): { source: ContactSource; count: number }[] {
  return rows
    .filter((r) => r.n > 0)
    .map((r) => ({ source: r.source, count: r.n }))
    .sort((a, b) => b.count - a.count || (a.source < b.source ? -1 : 1));
}

/** How a task's due day reads against the user's today. */
export function dueWhen(dueDate: string, today: string): "overdue" | "today" | "tomorrow" | "later" {
  if (dueDate < today) return "overdue";
  if (dueDate === today) return "today";
  return dueDate === addDays(today, 1) ? "tomorrow" : "later";
}
