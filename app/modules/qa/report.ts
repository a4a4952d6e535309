// The QA Dashboard's verdict and "Summary Report": the same verdict on the page, in the run's last
// event, in Copy Report and in the dated markdown download.

export interface ReportResult {
  suite: string;
  name: string;
  critical: boolean;
  status: "passed" | "failed" | "skipped";
  details: string;
  ms: number;
}

export interface ReportRun {
  startedAt: number;
  finishedAt: number | null;
  host: string;
}

const STATUS_MARK = { passed: "PASS", failed: "FAIL", skipped: "SKIP" } as const;

export interface ResultCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Critical checks that failed. */
  critical: number;
  /** Critical checks that could not run here. */
  criticalSkipped: number;
  total: number;
}

export function countResults(results: readonly ReportResult[]): ResultCounts {
  const counts = { passed: 0, failed: 0, skipped: 0, critical: 0, criticalSkipped: 0, total: results.length };
  for (const r of results) {
    counts[r.status] += 1;
    if (r.critical && r.status === "failed") counts.critical += 1;
    if (r.critical && r.status === "skipped") counts.criticalSkipped += 1;
  }
  return counts;
}

/**
 * What a run of the system checks says about releasing. Only a run in which every critical check ran and passed
 * can call a release safe: a critical check that failed blocks it, and one that was skipped leaves it unverified
 * (the check says why it could not run, and nothing stands in for it).
 */
export type VerdictKind = "blocked" | "unverified" | "warnings" | "safe";
export interface Verdict {
  kind: VerdictKind;
  /** One line for the page's status and the toast. */
  headline: string;
  /** The report's sentence. */
  sentence: string;
}

const checks = (n: number) => `${n} critical ${n === 1 ? "check" : "checks"}`;

export function releaseVerdict(counts: Pick<ResultCounts, "failed" | "critical" | "criticalSkipped">): Verdict {
  if (counts.critical > 0) {
    const alsoSkipped = counts.criticalSkipped > 0 ? `; ${counts.criticalSkipped} more could not run` : "";
    return {
      kind: "blocked",
      headline: `Release blocked: ${checks(counts.critical)} failed`,
      sentence: `**Release blocked:** ${checks(counts.critical)} failed${alsoSkipped}.`,
    };
  }
  if (counts.criticalSkipped > 0) {
    return {
      kind: "unverified",
      headline: `Release not verified: ${checks(counts.criticalSkipped)} skipped`,
      sentence: `**Release not verified:** ${checks(counts.criticalSkipped)} could not run here, so this run cannot say the release is safe.`,
    };
  }
  if (counts.failed > 0) {
    const n = counts.failed;
    return {
      kind: "warnings",
      headline: "Safe to release, with warnings",
      sentence: `**Safe to release, with warnings:** every critical check passed; ${n} other ${n === 1 ? "check" : "checks"} failed.`,
    };
  }
  return {
    kind: "safe",
    headline: "Safe to release: every critical check passed",
    sentence: "**Safe to release:** every critical check passed and no check failed.",
  };
}

export function reportFileName(startedAt: number) {
  return `porchlight-qa-report-${new Date(startedAt).toISOString().slice(0, 10)}.md`;
}

export function buildReport(run: ReportRun, results: readonly ReportResult[]): string {
  const counts = countResults(results);
  const lines = [
    `# Porchlight QA report — ${run.host}`,
    "",
    `System checks, run ${new Date(run.startedAt).toISOString().replace("T", " ").slice(0, 16)} UTC${run.finishedAt ? `, ${((run.finishedAt - run.startedAt) / 1000).toFixed(1)} s` : ""}.`,
    "",
    releaseVerdict(counts).sentence,
    "",
    `${counts.passed} passed, ${counts.failed} failed (${counts.critical} critical), ${counts.skipped} skipped (${counts.criticalSkipped} critical), ${counts.total} in all.`,
  ];
  for (const suite of [...new Set(results.map((r) => r.suite))]) {
    lines.push("", `## ${suite}`, "", "| Result | Check | Time | Details |", "| --- | --- | ---: | --- |");
    for (const r of results.filter((x) => x.suite === suite)) {
      const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
      lines.push(`| ${STATUS_MARK[r.status]}${r.critical ? " (critical)" : ""} | ${cell(r.name)} | ${r.ms} ms | ${cell(r.details)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** "75% passed (3 of 4": a run's pass rate over the checks that ran, the caller closing the parenthesis. */
export const passRate = (passed: number, ran: number) => `${ran > 0 ? Math.round((passed / ran) * 100) : 0}% passed (${passed} of ${ran}`;
