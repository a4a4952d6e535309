// The QA Dashboard's "Summary Report" (issue 19): the same text on the page, in Copy Report and in the dated
// markdown download.

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

export function countResults(results: readonly ReportResult[]) {
  const counts = { passed: 0, failed: 0, skipped: 0, critical: 0, total: results.length };
  for (const r of results) {
    counts[r.status] += 1;
    if (r.critical && r.status === "failed") counts.critical += 1;
  }
  return counts;
}

export function reportFileName(startedAt: number) {
  return `porchlight-qa-report-${new Date(startedAt).toISOString().slice(0, 10)}.md`;
}

export function buildReport(run: ReportRun, results: readonly ReportResult[]): string {
  const counts = countResults(results);
  const verdict =
    counts.critical > 0
      ? `**Release blocked:** ${counts.critical} critical ${counts.critical === 1 ? "check" : "checks"} failed.`
      : counts.failed > 0
        ? `**Safe to release, with warnings:** no critical check failed; ${counts.failed} other ${counts.failed === 1 ? "check" : "checks"} failed.`
        : "**Safe to release:** no check failed.";
  const lines = [
    `# Porchlight QA report — ${run.host}`,
    "",
    `Run ${new Date(run.startedAt).toISOString().replace("T", " ").slice(0, 16)} UTC${run.finishedAt ? `, ${((run.finishedAt - run.startedAt) / 1000).toFixed(1)} s` : ""}.`,
    "",
    verdict,
    "",
    `${counts.passed} passed, ${counts.failed} failed (${counts.critical} critical), ${counts.skipped} skipped, ${counts.total} in all.`,
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
