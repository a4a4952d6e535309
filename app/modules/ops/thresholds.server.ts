import { HOUR_MS, MINUTE_MS } from "~/lib/dates";
import { and, asc, desc, eq, gte, inArray, isNull, lte, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { probeResults, systemAlerts, systemThresholds, userPreferences, users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { DEFAULT_DISPLAY_PREFERENCES, formatDateTimeWithZone, type DisplayPreferences } from "~/lib/format";
import { escapeHtml, sendEmail } from "~/lib/mailer.server";
import { emailDeliveryFigures } from "~/modules/email/dead-letters.server";
import type { DeliveryFigures } from "~/modules/outgoing/queue-delivery.server";
import { pushDeliveryFigures } from "~/modules/push/push-delivery.server";
import { rememberedAppOrigin } from "./app-origin.server";

import { CORE_COMPONENTS, errorRatePct, readMetric, readUptime, type Reading } from "./readings.server";
import { CHECK_WINDOW_MINUTES, THRESHOLD_INFO, thresholdLevel, thresholdOrderProblem, type ThresholdMetric } from "./thresholds";

// check_system_thresholds (spec section 5): every five minutes the cron reads each enabled metric,
// opens an alert when a reading passes its threshold, keeps that one alert (its level and reading updated)
// while the condition holds, and resolves it when it clears. Admins get one e-mail when an alert opens, one
// when an alert that opened as a warning becomes critical, and one when it resolves, through the outbox, each
// with the Operations Center's full address and its times in the reader's own zone. A metric with no reading
// (nothing measured yet) neither opens nor resolves anything.

type Mailer = Pick<RequestContext, "db" | "config"> & {
  /** The origin the check was asked for at (a person pressing "Check thresholds now"), for the e-mails' link. */
  origin?: string | null;
  /** The app's KV, which keeps the origin an admin last opened the Operations Center at (the cron has no request). */
  kv?: KVNamespace;
};

export type Readings = Record<ThresholdMetric, number | null>;

/** What the readings are made of; a caller that has read some of it already (the Monitoring tab) hands it over. */
export interface ReadingParts {
  request: Reading;
  load: Reading;
  render: Reading;
  heap: Reading;
  uptime24h: number | null;
  latest: (typeof probeResults.$inferSelect)[];
  aiRuns: { ok: boolean }[];
  email: DeliveryFigures;
  push: DeliveryFigures;
}

/**
 * The current value of every metric a threshold can watch: the one definition of each, used by the alert check and
 * by the Monitoring tab's cards. Request and browser readings cover the last CHECK_WINDOW_MINUTES.
 */
export async function readThresholdMetrics(
  db: Db,
  /** Every account database (ADR 0060): the e-mail and push readings are summed over them. */
  accounts: readonly Db[],
  now: number,
  have: Partial<ReadingParts> = {},
): Promise<Readings> {
  const windowFrom = now - CHECK_WINDOW_MINUTES * MINUTE_MS;
  const dayFrom = now - 24 * HOUR_MS;
  const overall = async (metric: "request" | "load" | "render" | "heap") => (await readMetric(db, metric, windowFrom, now)).overall;
  const [request, load, render, heap, uptime, latest, aiRuns, email, push] = await Promise.all([
    have.request ?? overall("request"),
    have.load ?? overall("load"),
    have.render ?? overall("render"),
    have.heap ?? overall("heap"),
    have.uptime24h !== undefined ? have.uptime24h : readUptime(db, dayFrom, now),
    have.latest ?? latestProbeRun(db, now),
    have.aiRuns ??
      db
        .select({ ok: probeResults.ok })
        .from(probeResults)
        .where(and(eq(probeResults.component, "ai"), gte(probeResults.at, dayFrom), lte(probeResults.at, now))),
    have.email ?? emailDeliveryFigures(accounts, now),
    have.push ?? pushDeliveryFigures(accounts, now),
  ]);
  const probe = (component: string) => latest.find((p) => p.component === component) ?? null;
  const core = latest.filter((p) => (CORE_COMPONENTS as readonly string[]).includes(p.component));
  return {
    ai_failure_rate: aiRuns.length === 0 ? null : (aiRuns.filter((r) => !r.ok).length / aiRuns.length) * 100,
    api_response_p95: request.p95,
    cron_lateness: probe("cron")?.value ?? null,
    dead_emails_24h: email.dead24h,
    dead_pushes_24h: push.dead24h,
    error_rate: errorRatePct(request),
    memory_p75: heap.p75,
    outbox_backlog: probe("outbox")?.value ?? null,
    page_load_p75: load.p75,
    probe_latency: core.length === 0 ? null : Math.max(...core.map((p) => p.ms)),
    render_p75: render.p75,
    uptime_24h: uptime,
    webhook_lag: probe("webhooks")?.value ?? null,
  };
}

/** The results of the cron's latest probe run (within the last hour). */
export async function latestProbeRun(db: Db, now: number) {
  const last = await db
    .select({ at: probeResults.at })
    .from(probeResults)
    .where(and(gte(probeResults.at, now - HOUR_MS), lte(probeResults.at, now)))
    .orderBy(desc(probeResults.at))
    .limit(1);
  if (!last[0]) return [];
  return db.select().from(probeResults).where(eq(probeResults.at, last[0].at));
}

export interface CheckResult {
  alerts_triggered: number;
  alerts: { metric_name: string; level: "warning" | "critical"; reading: number; threshold: number; opened_at: number }[];
}

type Alert = typeof systemAlerts.$inferSelect;

/**
 * Checks the thresholds (from system_thresholds unless given) against the readings (read now unless given:
 * tests pass their own, under metric names of their own, so they never meet the real ones).
 */
export async function checkSystemThresholds(
  /** With every account database (ADR 0060), for the readings summed over them. */
  context: Mailer & { accounts: readonly Db[] },
  now: number,
  given: { thresholds?: (typeof systemThresholds.$inferSelect)[]; readings?: Record<string, number | null> } = {},
): Promise<CheckResult> {
  const { db } = context;
  const [thresholds, open, readings] = await Promise.all([
    given.thresholds ?? db.select().from(systemThresholds),
    db.select().from(systemAlerts).where(isNull(systemAlerts.resolvedAt)),
    given.readings ?? readThresholdMetrics(db, context.accounts, now),
  ]);
  const opened: Alert[] = [];
  const escalated: Alert[] = [];
  const resolved: Alert[] = [];
  for (const t of thresholds) {
    const metric = t.metricName;
    const current = open.find((a) => a.metricName === metric);
    // A threshold with nothing to read (a metric this version does not know) is left alone.
    const reading = (readings as Record<string, number | null>)[metric] ?? null;
    const level = thresholdLevel(t, reading);
    if (level && reading !== null) {
      const threshold = level === "critical" ? t.criticalThreshold : t.warningThreshold;
      if (current) {
        await db.update(systemAlerts).set({ level, reading, threshold, lastSeenAt: now }).where(eq(systemAlerts.id, current.id));
        if (level === "critical" && current.mailedLevel !== "critical") {
          // Became critical after opening as a warning: one more e-mail, claimed here so that two checks running
          // at once, or an alert going back and forth across the critical line, never send it twice.
          const [row] = await db
            .update(systemAlerts)
            .set({ mailedLevel: "critical" })
            .where(
              and(
                eq(systemAlerts.id, current.id),
                isNull(systemAlerts.resolvedAt),
                or(isNull(systemAlerts.mailedLevel), eq(systemAlerts.mailedLevel, "warning")),
              ),
            )
            .returning();
          if (row) escalated.push(row);
        }
      } else {
        // The partial unique index keeps one open alert per metric even if two checks overlap.
        const [row] = await db
          .insert(systemAlerts)
          .values({ metricName: metric, level, reading, threshold, openedAt: now, lastSeenAt: now, mailedLevel: level })
          .onConflictDoNothing()
          .returning();
        if (row) opened.push(row);
      }
    } else if (current && (reading !== null || !t.enabled)) {
      // Cleared (or no longer watched): resolved. With no reading at all, an open alert stays as it was.
      const [row] = await db
        .update(systemAlerts)
        .set({ resolvedAt: now })
        .where(and(eq(systemAlerts.id, current.id), isNull(systemAlerts.resolvedAt)))
        .returning();
      if (row) resolved.push(row);
    }
  }
  if (opened.length > 0 || escalated.length > 0 || resolved.length > 0) await mailAdmins(context, { opened, escalated, resolved }, readings, now);
  const watched = new Set(thresholds.map((t) => t.metricName));
  const stillOpen = (await db.select().from(systemAlerts).where(isNull(systemAlerts.resolvedAt)).orderBy(asc(systemAlerts.metricName))).filter((a) =>
    watched.has(a.metricName),
  );
  return {
    alerts_triggered: opened.length,
    alerts: stillOpen.map((a) => ({ metric_name: a.metricName, level: a.level, reading: a.reading, threshold: a.threshold, opened_at: a.openedAt })),
  };
}

const describe = (metric: string, value: number) => {
  const info = THRESHOLD_INFO[metric as ThresholdMetric];
  return info ? `${info.label}: ${formatReading(value)} ${info.unit}` : `${metric}: ${formatReading(value)}`;
};
const formatReading = (value: number) => (Math.abs(value) >= 100 ? Math.round(value).toLocaleString("en-US") : String(Math.round(value * 10) / 10));
const labelOf = (metric: string) => THRESHOLD_INFO[metric as ThresholdMetric]?.label ?? metric;

/** Everyone who runs the product, with how they read dates: admin accounts (their own display settings) and the addresses in ADMIN_EMAILS (UTC, unless they have an account). */
async function adminRecipients(context: Pick<Mailer, "db" | "config">): Promise<{ email: string; prefs: DisplayPreferences }[]> {
  const listed = context.config.ADMIN_EMAILS;
  const rows = await context.db
    .select({
      email: users.email,
      dateFormat: userPreferences.dateFormat,
      timeFormat: userPreferences.timeFormat,
      timezone: userPreferences.timezone,
      currency: userPreferences.currency,
    })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(or(eq(users.role, "admin"), listed.length ? inArray(users.email, listed) : undefined));
  const byEmail = new Map<string, DisplayPreferences>();
  for (const r of rows) {
    byEmail.set(
      r.email.toLowerCase(),
      r.timezone
        ? { dateFormat: r.dateFormat!, timeFormat: r.timeFormat!, timezone: r.timezone, currency: r.currency! }
        : DEFAULT_DISPLAY_PREFERENCES,
    );
  }
  for (const email of listed) if (!byEmail.has(email)) byEmail.set(email, { ...DEFAULT_DISPLAY_PREFERENCES, timezone: "UTC" });
  return [...byEmail].map(([email, prefs]) => ({ email, prefs })).sort((a, b) => a.email.localeCompare(b.email));
}

/** Everyone who runs the product: admin accounts and the addresses in ADMIN_EMAILS. */
export async function adminAddresses(context: Pick<Mailer, "db" | "config">): Promise<string[]> {
  return (await adminRecipients(context)).map((r) => r.email);
}

/** The Operations Center's full address for e-mails, or null when this deployment's address is not known yet. */
export async function operationsUrl(context: Mailer): Promise<string | null> {
  const origin = context.config.PUBLIC_URL ?? context.origin ?? (context.kv ? await rememberedAppOrigin(context.kv) : null);
  return origin ? `${origin.replace(/\/+$/, "")}/operations` : null;
}

async function mailAdmins(
  context: Mailer,
  changes: { opened: Alert[]; escalated: Alert[]; resolved: Alert[] },
  readings: Record<string, number | null>,
  now: number,
) {
  const [to, url] = await Promise.all([adminRecipients(context), operationsUrl(context)]);
  const where = url ? `See the Operations Center: ${url}` : "Sign in to Porchlight and open the Operations Center.";
  const send = async (kind: string, subject: string, lines: (prefs: DisplayPreferences) => string[]) => {
    for (const { email, prefs } of to) {
      const paragraphs = [...lines(prefs), where];
      const html = paragraphs
        .map((p) => `<p>${p === where && url ? `See the <a href="${escapeHtml(url)}">Operations Center</a>: ${escapeHtml(url)}` : escapeHtml(p)}</p>`)
        .join("");
      await sendEmail(context, { kind, to: email, subject, text: paragraphs.join("\n\n"), html });
    }
  };
  for (const alert of changes.opened) {
    await send("ops_alert", `Porchlight alert (${alert.level}): ${labelOf(alert.metricName)}`, (prefs) => [
      `${describe(alert.metricName, alert.reading)}, past the ${alert.level} threshold of ${formatReading(alert.threshold)}.`,
      `Opened ${formatDateTimeWithZone(alert.openedAt, prefs)}.`,
    ]);
  }
  for (const alert of changes.escalated) {
    await send("ops_alert_escalated", `Porchlight alert now critical: ${labelOf(alert.metricName)}`, (prefs) => [
      `${describe(alert.metricName, alert.reading)}, past the critical threshold of ${formatReading(alert.threshold)}.`,
      `The alert opened as a warning ${formatDateTimeWithZone(alert.openedAt, prefs)} and became critical ${formatDateTimeWithZone(now, prefs)}.`,
    ]);
  }
  for (const alert of changes.resolved) {
    const reading = readings[alert.metricName] ?? null;
    await send("ops_alert_resolved", `Resolved: ${labelOf(alert.metricName)}`, (prefs) => [
      `${reading === null ? `The threshold for ${labelOf(alert.metricName)} is no longer checked` : `${describe(alert.metricName, reading)}, back within its thresholds`}.`,
      `The alert opened ${formatDateTimeWithZone(alert.openedAt, prefs)} and was resolved ${formatDateTimeWithZone(alert.resolvedAt ?? now, prefs)}.`,
    ]);
  }
}

/** The thresholds, ordered by metric name (spec section 5). */
export function listThresholds(db: Db) {
  return db.select().from(systemThresholds).orderBy(asc(systemThresholds.metricName));
}

/** Applies one edit; returns the problem when it cannot be saved (and changes nothing). */
export async function updateThreshold(
  db: Db,
  edit: { id: number; field: "enabled" | "warning" | "critical"; value: number | "true" | "false" },
  now: number,
): Promise<string | null> {
  const [t] = await db.select().from(systemThresholds).where(eq(systemThresholds.id, edit.id));
  if (!t) return "That threshold does not exist.";
  if (edit.field === "enabled") {
    await db
      .update(systemThresholds)
      .set({ enabled: edit.value === "true", updatedAt: new Date(now) })
      .where(eq(systemThresholds.id, t.id));
    return null;
  }
  const warning = edit.field === "warning" ? Number(edit.value) : t.warningThreshold;
  const critical = edit.field === "critical" ? Number(edit.value) : t.criticalThreshold;
  const problem = thresholdOrderProblem(warning, critical, t.comparisonOperator);
  if (problem) return problem;
  await db
    .update(systemThresholds)
    .set({ warningThreshold: warning, criticalThreshold: critical, updatedAt: new Date(now) })
    .where(eq(systemThresholds.id, t.id));
  return null;
}
