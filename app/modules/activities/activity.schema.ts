import * as z from "zod";
import { ACTIVITY_TYPES, isSystemActivity, type ActivityType, type LoggableActivityType } from "~/db/enums";
import { optionalText } from "~/lib/schema-fields";
import { dueDateField, dueTimeField } from "~/modules/tasks/task.schema";

export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  call: "Call",
  email_sent: "E-mail sent",
  email_opened: "E-mail opened",
  text: "Text message",
  showing: "Showing",
  meeting: "Meeting",
  listing: "Listing",
  offer: "Offer",
  contract: "Contract",
  note: "Note",
  stage_change: "Stage change",
  assignment: "Lead assigned",
  sync_conflict: "Offline change not made",
  enquiry: "Enquiry received",
  auto_reply: "Instant reply sent",
  email_received: "E-mail reply received",
  plan_email: "Action plan e-mail sent",
};

/** What an agent can log by hand: stage changes, lead assignments and sync conflicts are written by Porchlight itself. */
export const LOGGABLE_ACTIVITY_TYPES = ACTIVITY_TYPES.filter((type) => !isSystemActivity(type)) as LoggableActivityType[];

/** Outcomes offered as suggestions; any short text is accepted. */
export const ACTIVITY_OUTCOME_SUGGESTIONS = [
  "Connected",
  "Left voicemail",
  "No answer",
  "Replied",
  "Showing booked",
  "Offer made",
  "Not interested",
  "Follow up later",
];

export const ACTIVITY_MESSAGES = {
  linkRequired: "Choose a contact or a deal for this activity.",
  contactUnknown: "That contact was not found. Pick one from the list.",
  dealUnknown: "That deal was not found.",
  notFound: "That activity was not found.",
  stageChangeLocked: "Stage changes are the deal's history and cannot be deleted.",
  logged: "Activity logged",
  deleted: "Activity deleted",
  saveFailed: "The activity could not be saved. Please try again.",
} as const;

/** The log-activity form. Date and time are the user's own (their timezone); a blank time means noon. */
export const ActivityInputSchema = z
  .object({
    type: z.enum(LOGGABLE_ACTIVITY_TYPES as [LoggableActivityType, ...LoggableActivityType[]], { error: "Choose what kind of activity this was." }),
    contactId: optionalText(64, "Contact"),
    dealId: optionalText(64, "Deal"),
    date: dueDateField,
    time: dueTimeField,
    outcome: optionalText(200, "Outcome"),
    notes: optionalText(5_000, "Notes"),
  })
  .refine((input) => input.contactId || input.dealId, { message: ACTIVITY_MESSAGES.linkRequired, path: ["contactId"] });
export type ActivityInput = z.infer<typeof ActivityInputSchema>;

/** An activity as timelines show it. */
export interface ActivityItem {
  id: string;
  type: ActivityType;
  occurredAt: number;
  outcome: string | null;
  notes: string | null;
  contactId: string | null;
  contactName: string | null;
  dealId: string | null;
  dealTitle: string | null;
  taskId: string | null;
  meta: Record<string, string | number | null> | null;
}

/** How many activities a timeline shows before "Show more". */
export const TIMELINE_PAGE_SIZE = 20;

/** Where activity forms post and timelines load further pages from. */
export const ACTIVITIES_ACTION = "/activities";
