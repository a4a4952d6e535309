import { FOLLOW_UP_DAYS, type MetricDefinition } from "~/modules/dashboard/metrics";
import { FIGURE_WORDS } from "./figures";

// What every figure on /reports counts, in one place for the page's "How is this counted?" notes and
// for the tests that hold the numbers to them. Browser-safe.

/** Speed-to-lead thresholds, in minutes. */
const ANSWERED_FAST_MINUTES = 5;
const ANSWERED_HOUR_MINUTES = 60;
/** How many waiting leads, quiet contacts and lost reasons the page lists. */
export const REPORT_LIST_SIZE = 10;
/** A table by month shows at most this many months of a period, the latest (a custom range can span five years). */
export const REPORT_MONTHS = 12;

export const REPORT_DEFINITIONS = {
  income: {
    label: "Income",
    definition: `Deals in your Closed Won stage by the month of their closed date. Volume is the sum of their sale prices; GCI (gross commission income) is price × commission rate; agent net is what each paid you after referral fee, brokerage split (up to your annual cap, in closed-date order), team split and fees: the same figures the deal pages, the forecast and the dashboard's charts show. ${FIGURE_WORDS.shared}`,
  },
  goal: {
    label: "Income goal",
    definition:
      "Agent net of the deals you closed won from 1 January of this year to today, against the annual goal you set under Settings → Goals. On pace is the goal × the share of the year gone by today.",
  },
  cap: {
    label: "Brokerage cap",
    definition:
      "Brokerage split paid toward your annual cap by deals closed won in the current cap year (it starts on the day your commission plan says). Projected is the expected close date of the open deal that completes the cap when each open deal's split is weighted by its probability, in expected-close order, as the forecast does.",
  },
  sources: {
    label: "Lead sources",
    definition: `Added: contacts added in the period, by the source on each contact. Reached: how many of those contacts have a deal that has been in that stage. Won and conversion: those contacts with a deal in your Closed Won stage, and their share of the contacts added. Deals closed, volume and agent net: deals closed won in the period, by their contact's source; days to close averages the days from the day the contact was added to the closed date. Cost is what you entered under Settings → Goals, each month's cost counted for the share of its days inside the period; cost per lead divides it by contacts added, cost per closed deal by deals closed, and return on spend is agent net ÷ cost. New leads per month: the new leads of each calendar month (in your timezone) the period touches, only its days in the period, by source, as Speed to lead counts them; a period of over ${REPORT_MONTHS} months shows its last ${REPORT_MONTHS}. To review: e-mails to your lead intake address in those months that Porchlight could not read as a lead, still waiting in Settings → Lead sources; not contacts yet, so not in the totals.`,
  },
  speed: {
    label: "Speed to lead",
    definition: `For the new leads that arrived in the period: the time from when the lead arrived to the first call, text, e-mail sent or meeting you logged with them (activities logged before it arrived count as answered at once). ${FIGURE_WORDS.lead} ${FIGURE_WORDS.waiting} Median is the middle time of the answered leads (of an even number, the lower middle one) and 90th percentile the time 9 in 10 were answered within. Within ${ANSWERED_FAST_MINUTES} minutes, within an hour and not answered are shares of every new lead; the dashboard counts new leads and waiting leads the same way.`,
  },
  funnel: {
    label: "Pipeline conversion",
    definition:
      "Each stage in your pipeline's order: deals that entered it during the period (a new deal enters the stage it was created in), how many of those have since moved on to a stage other than a lost one, how many were moved to a lost stage, and the median number of days those that left spent in it. Won to lost compares deals that entered your won and lost stages in the period; average deal size is the average sale price of deals closed won in the period. Lost reasons are those given for deals that entered a lost stage in the period and are still there.",
  },
  followUp: {
    label: "Follow-up e-mail",
    definition:
      "E-mails you sent contacts in the period from Porchlight or your connected Gmail, by the template they started from and by the action plan that sent them. Sent counts every e-mail that left (those that failed to send are left out); bounced, those the contact's mail system returned. Replied: e-mails with at least one reply from the contact, whenever it came; an automatic reply (out of office) does not count, and two replies to one e-mail count once. Reply rate is replied ÷ delivered (sent − bounced). Time to reply runs from the e-mail to its first reply; the median is the middle one of the replied e-mails (of an even number, the lower middle one). Written by hand: e-mails that started from no template. Plans: runs started in the period, and how many of those a reply from the contact stopped.",
  },
  activity: {
    label: "Activity",
    definition: `${FIGURE_WORDS.logged} By week (Monday to Sunday, in your timezone) of the date they happened; the dashboard's recent activity counts the same ones. Tasks: those due in the period, how many were completed and how many are still open after their due date. Follow-up gaps are today's hot and warm contacts with no activity in the last ${FOLLOW_UP_DAYS} days, as on the dashboard.`,
  },
} as const satisfies Record<string, MetricDefinition>;
export type ReportDefinitionKey = keyof typeof REPORT_DEFINITIONS;

/** A figure and the same figure over the comparison period. */
export interface Compared {
  value: number | null;
  previous: number | null;
}

/** The change from `previous` to `value` in percent, rounded; null when there is nothing to compare with. */
export function changePct({ value, previous }: Compared): number | null {
  if (value === null || previous === null || previous === 0) return null;
  return Math.round(((value - previous) / Math.abs(previous)) * 100);
}

/** Minutes as people say them: "under a minute", "4 min", "2 h 5 min", "3 days 4 h". */
export function formatMinutes(minutes: number): string {
  if (minutes < 1) return "under a minute";
  const m = Math.floor(minutes);
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return m % 60 === 0 ? `${hours} h` : `${hours} h ${m % 60} min`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return `${days} ${days === 1 ? "day" : "days"}${rest === 0 ? "" : ` ${rest} h`}`;
}

/** A share as a whole percent; null for a share of nothing. */
export function percentOf(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 100);
}

/**
 * `values` in ascending order, as a new array: a typed array's sort compares numbers natively, several times faster
 * than a comparator over a team's tens of thousands of response times.
 */
export const ascending = (values: readonly number[]): number[] => Array.from(Float64Array.from(values).sort());

/** The nearest-rank percentile of ascending values: the value at rank ⌈p·n⌉ (of an even count, the median is the lower middle one). */
export function nearestRank(sorted: readonly number[], pct: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(1, Math.floor((sorted.length * pct + 99) / 100)) - 1]!;
}

export interface ResponseSummary {
  answered: number;
  p50Minutes: number | null;
  p90Minutes: number | null;
  /** Answered within ANSWERED_FAST_MINUTES and within ANSWERED_HOUR_MINUTES. */
  fast: number;
  hour: number;
}

/** Speed to lead over response times in milliseconds, sorted ascending. */
export function responseSummary(sortedMs: readonly number[]): ResponseSummary {
  return responseSummaryOf([sortedMs]);
}

/** How many values of an ascending list are at most `x` (binary search). */
function countAtMost(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The nearest-rank percentile (as nearestRank) of the union of ascending lists, without merging them: a team's figure
 * over every agent's and source's response times (hundreds of thousands) would otherwise flatten and sort them again
 * for each row. Binary search on the value: the smallest whole v with at least rank values ≤ v, then the exact value
 * among those in (v − 1, v].
 */
function nearestRankOf(lists: readonly (readonly number[])[], total: number, pct: number): number | null {
  if (total === 0) return null;
  const rank = Math.max(1, Math.floor((total * pct + 99) / 100));
  const atMost = (x: number) => lists.reduce((sum, list) => sum + countAtMost(list, x), 0);
  let lo = Math.floor(Math.min(...lists.filter((l) => l.length > 0).map((l) => l[0]!)));
  let hi = Math.ceil(Math.max(...lists.filter((l) => l.length > 0).map((l) => l[l.length - 1]!)));
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (atMost(mid) >= rank) hi = mid;
    else lo = mid + 1;
  }
  // The values in (lo − 1, lo]: of whole milliseconds (SQL's response times), all of them are lo.
  const spans = lists.map((list) => [list, countAtMost(list, lo - 1), countAtMost(list, lo)] as const).filter(([, a, b]) => b > a);
  if (spans.every(([list, a]) => list[a] === lo)) return lo;
  const near = ascending(spans.flatMap(([list, a, b]) => list.slice(a, b)));
  return near[rank - atMost(lo - 1) - 1]!;
}

/** Speed to lead over several lists of response times in milliseconds, each sorted ascending: as one list. */
export function responseSummaryOf(lists: readonly (readonly number[])[]): ResponseSummary {
  const minutes = (ms: number | null) => (ms === null ? null : ms / 60_000);
  const answered = lists.reduce((sum, list) => sum + list.length, 0);
  const within = (limitMinutes: number) => lists.reduce((sum, list) => sum + countAtMost(list, limitMinutes * 60_000), 0);
  return {
    answered,
    p50Minutes: minutes(nearestRankOf(lists, answered, 50)),
    p90Minutes: minutes(nearestRankOf(lists, answered, 90)),
    fast: within(ANSWERED_FAST_MINUTES),
    hour: within(ANSWERED_HOUR_MINUTES),
  };
}
