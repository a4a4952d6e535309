import { and, count, eq, gte, lt, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { actionPlans, contactEmails, crmTemplates, planRuns } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { personReply } from "~/modules/conversations/replies.server";
import { REPLIED_STOP_REASON } from "~/modules/plans/stop.server";
import { DELETED_TEMPLATE } from "./follow-up";

// Reports' follow-up e-mail, read in two statements for the page's one batch (follow-up.ts turns the rows into its two
// tables, for the page and the CSV files alike):
// - the e-mails the agent sent in the period (not failed), grouped by template and plan, each with the time to its first
//   reply a person wrote (personReply: an out-of-office is not one), as a JSON array of milliseconds for the median. One
//   seek down contact_emails_user_time; each e-mail's replies through contact_emails_replies_to, its run and plan, its
//   template and (for an e-mail whose template is gone) its activity by their primary keys;
// - the plan runs started in the period, and how many of them a reply stopped, off plan_runs_user_started.
// A plan is its id (the run's plan_name when the plan is deleted), named by its name today.

type Db = RequestContext["db"];

/** A plan's key and name, from the run (`run`: plan_runs' SQL name in the statement) and its plan (`plan`). */
const planKey = (run: string) => sql.raw(`coalesce(${run}.plan_id, 'name:' || ${run}.plan_name)`);
const planName = (run: string, plan: string) => sql.raw(`coalesce(${plan}.name, ${run}.plan_name)`);

/** The period's e-mails sent, bounced and replied to, by template and plan. */
export function followUpEmails(db: Db, userId: UserId, range: { lo: number; hi: number }) {
  // The `+` keeps SQLite on the key's own index (ownedByKeys in lib/tenancy.server.ts says why).
  const firstReply: SQL = sql`(select min(reply.occurred_at) from contact_emails reply
      left join crm_activities reply_activity on reply_activity.id = reply.activity_id and +reply_activity.user_id = reply.user_id
      where reply.replies_to = e.id and +reply.user_id = e.user_id and reply.direction = 'in'
        and ${personReply(sql.raw("reply_activity.meta"))})`;
  // A plan's e-mail always came from a template, and an e-mail's activity keeps its template's id: with template_id
  // cleared, the template was deleted.
  const templateKey: SQL = sql`case
      when e.template_id is not null then e.template_id
      when e.plan_run_id is not null
        or (select json_extract(a.meta, '$.templateId') from crm_activities a where a.id = e.activity_id and +a.user_id = e.user_id) is not null
        then ${DELETED_TEMPLATE}
    end`;
  const e = alias(contactEmails, "e");
  const sent = db
    .select({
      status: sql<string>`e.status`.as("status"),
      occurredAt: sql<number>`e.occurred_at`.as("occurred_at"),
      templateKey: sql<string | null>`${templateKey}`.as("template_key"),
      templateName: sql<string | null>`t.name`.as("template_name"),
      planKey: sql<string | null>`${planKey("run")}`.as("plan_key"),
      planName: sql<string | null>`${planName("run", "plan")}`.as("plan_name"),
      firstReply: sql<number | null>`${firstReply}`.as("first_reply"),
    })
    .from(e)
    .leftJoin(alias(crmTemplates, "t"), sql`t.id = e.template_id`)
    .leftJoin(alias(planRuns, "run"), sql`run.id = e.plan_run_id and +run.user_id = e.user_id`)
    .leftJoin(alias(actionPlans, "plan"), sql`plan.id = run.plan_id and +plan.user_id = e.user_id`)
    .where(
      ownedBy(e, userId, gte(e.occurredAt, new Date(range.lo)), lt(e.occurredAt, new Date(range.hi)), eq(e.direction, "out"), ne(e.status, "failed")),
    )
    .as("sent");
  return db
    .select({
      templateKey: sent.templateKey,
      templateName: sql<string | null>`max(${sent.templateName})`.as("template_name_"),
      planKey: sent.planKey,
      planName: sql<string | null>`max(${sent.planName})`.as("plan_name_"),
      sent: count().as("sent_n"),
      bounced: sql<number>`count(*) filter (where ${sent.status} = 'bounced')`.as("bounced"),
      replied: sql<number>`count(${sent.firstReply})`.as("replied"),
      times: sql<string>`json_group_array(max(0, ${sent.firstReply} - ${sent.occurredAt})) filter (where ${sent.firstReply} is not null)`.as("times"),
    })
    .from(sent)
    .groupBy(sql`${sent.templateKey}`, sql`${sent.planKey}`);
}

/** The plan runs started in the period, by plan, and how many of them the contact's reply stopped. */
export function followUpRuns(db: Db, userId: UserId, range: { lo: number; hi: number }) {
  return db
    .select({
      planKey: sql<string>`${planKey("plan_runs")}`.as("plan_key"),
      planName: sql<string>`max(${planName("plan_runs", "action_plans")})`.as("plan_name"),
      runs: count().as("runs"),
      stopped: sql<number>`count(*) filter (where ${planRuns.stopReason} = ${REPLIED_STOP_REASON})`.as("stopped"),
    })
    .from(planRuns)
    .leftJoin(actionPlans, and(eq(actionPlans.id, planRuns.planId), sql`+${actionPlans.userId} = ${planRuns.userId}`))
    .where(ownedBy(planRuns, userId, gte(planRuns.startedAt, new Date(range.lo)), lt(planRuns.startedAt, new Date(range.hi))))
    .groupBy(sql`plan_key`);
}
