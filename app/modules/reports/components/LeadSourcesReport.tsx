import { Link } from "@remix-run/react";
import type { Reports } from "../build.server";
import { Bars, ReportEmpty, ReportSection, ReportTableView } from "./ReportParts";

const link = "font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400";

/** The lead sources report: agent net by source, what each source brought, the stages reached, and new leads by month. */
export function LeadSourcesReport({
  sources,
  agent,
  query,
}: {
  sources: Reports["sources"];
  agent: { id: string; name: string } | null;
  query: string;
}) {
  return (
    <ReportSection id="sources" definition="sources" query={query} downloads={sources.empty ? [] : [sources.table, sources.reach, sources.months]}>
      {sources.empty ? (
        <ReportEmpty>
          No contacts added and no deals closed in this period. Record where each contact came from when you{" "}
          <Link to="/contacts" className="font-medium underline underline-offset-4">
            add or import them
          </Link>
          , and this shows which source pays you.
        </ReportEmpty>
      ) : (
        <>
          <Bars rows={sources.bars} label="Agent net by lead source" tone="emerald" />
          <ReportTableView table={sources.table} />
          {sources.hasCosts ? null : (
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Enter what each source costs you under{" "}
              <Link to="/settings?tab=goals" className={link}>
                Settings → Goals
              </Link>{" "}
              to see cost per lead and return on spend.
            </p>
          )}
          <ReportTableView table={sources.reach} />
          {sources.hasLeads || sources.toReview > 0 ? (
            <ReportTableView table={sources.months} />
          ) : (
            <p className="text-sm">No new lead arrived in this period.</p>
          )}
          {sources.toReview > 0 ? (
            <p className="text-sm text-stone-700 dark:text-stone-300">
              {`${sources.toReview.toLocaleString("en-US")} lead ${sources.toReview === 1 ? "e-mail" : "e-mails"} of this period could not be read as a lead and ${sources.toReview === 1 ? "waits" : "wait"} for review`}
              {/* The review list is its agent's own: a teammate viewing their reports sees the count, not a link to their own settings. */}
              {agent ? (
                "."
              ) : (
                <>
                  {" in "}
                  <Link to="/settings?tab=leads" className={link}>
                    Settings → Lead sources
                  </Link>
                  .
                </>
              )}
            </p>
          ) : null}
        </>
      )}
    </ReportSection>
  );
}
