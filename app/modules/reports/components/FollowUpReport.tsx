import { Link } from "@remix-run/react";
import type { Reports } from "../build.server";
import { ReportEmpty, ReportSection, ReportTableView } from "./ReportParts";

/** Follow-up e-mail: the period's e-mails by template and by action plan, with their replies. */
export function FollowUpReport({ followUp, query }: { followUp: Reports["followUp"]; query: string }) {
  const hasPlans = followUp.plans.rows.length > 0;
  return (
    <ReportSection
      id="follow-up"
      definition="followUp"
      query={query}
      downloads={followUp.empty ? [] : hasPlans ? [followUp.templates, followUp.plans] : [followUp.templates]}
    >
      {followUp.empty ? (
        <ReportEmpty>
          No e-mail sent to a contact and no action plan started in this period. Send one from a{" "}
          <Link to="/contacts" className="font-medium underline underline-offset-4">
            contact's page
          </Link>{" "}
          and this shows which templates get replies, and how fast.
        </ReportEmpty>
      ) : (
        <>
          <ReportTableView table={followUp.templates} />
          {hasPlans ? (
            <ReportTableView table={followUp.plans} />
          ) : (
            <p className="text-sm">No action plan sent an e-mail or started in this period.</p>
          )}
        </>
      )}
    </ReportSection>
  );
}
