// Spec "Guide dialog": a short guide per signed-in page (title, description, 4 steps, 'Got it!').
// Plain data shared by the browser and tests. Each step names a control that exists on the page, with
// its visible label, so a reader can find it, and never promises a figure the product does not compute.

export const GUIDE_PAGES = ["dashboard", "contacts", "tasks", "pipeline", "ai-assistant", "reports"] as const;
export type GuidePage = (typeof GUIDE_PAGES)[number];

export interface GuideText {
  title: string;
  description: string;
  steps: readonly [string, string, string, string];
}

export const GUIDE_DIALOGS: Record<GuidePage, GuideText> = {
  dashboard: {
    title: "Your dashboard",
    description: "Your command center: what needs you today and how your business is going, worked out from your own contacts, deals and tasks.",
    steps: [
      "Start with the quick stats at the top. Each one says how it is counted, so you know what is included in figures such as tasks due or active deals.",
      "Look at the pipeline overview and upcoming closings to see which deals are close to the finish line and what they pay you.",
      "Work through the task reminders: what is overdue and what is due today.",
      "Scan recent activity and the charts to see what happened lately and how your deals are moving. A card with no data says so; nothing is made up.",
    ],
  },
  contacts: {
    title: "Contacts",
    description: "Every lead, client and member of your sphere in one list you can search and filter.",
    steps: [
      "Press Add contact (or the round + button in the corner of any page) and enter a name plus a phone number or an e-mail. Everything else is optional.",
      "Already have a list? Press Import, upload a CSV from a spreadsheet or another CRM, match its columns to Porchlight's fields and choose what happens to duplicates.",
      "Find anyone fast: search by name, e-mail, phone, notes or tags, switch between All, Hot, Warm and Cold, and open Filters and sort for source, property type, tag, budget and location.",
      "Tick several contacts to set their status, add or remove a tag, export or delete them together. Select a name to open the contact's profile.",
    ],
  },
  tasks: {
    title: "Tasks",
    description: "Follow-ups, showings and deadlines, as a list or on a calendar.",
    steps: [
      'Type a task in the quick-add box the way you would say it, for example "Call Maria tomorrow 3pm": the date and time are picked up for you.',
      "Switch between Today, Overdue, Upcoming and Completed, or plan your week on the month and week calendar.",
      "Tick a task to complete it, and press Undo if you ticked the wrong one. Make a task repeat for follow-ups you do every week or month.",
      "Want your tasks in Google Calendar, Outlook or Apple Calendar? Copy your private calendar feed (ICS) link from Settings.",
    ],
  },
  pipeline: {
    title: "Pipeline",
    description: "Your deals by stage, with what each one pays you after referral fees, splits and fees.",
    steps: [
      "Press New deal, pick the contact, the stage and the sale price. Porchlight works out your commission from your plan.",
      "Move a deal by dragging its card to another stage, with the keyboard (Space on the card's handle, the arrow keys, then Space), or with Move to in the card's menu. Moving a deal to Closed Lost asks why.",
      "Switch to List to filter deals by stage, closing month, contact or value, and sort them.",
      "Open Forecast and commissions to enter your splits, fees and cap and see your weighted net by month. Use Stage settings to rename, recolour, reorder or add stages.",
    ],
  },
  "ai-assistant": {
    title: "AI Assistant",
    description: "Drafts and advice written from your own contacts and deals. Each answer says which engine wrote it.",
    steps: [
      "Add contacts and deals first: the assistant works only from what is in your CRM, so an empty account gives it nothing to go on.",
      "Once there is data, Smart Insights lists up to five suggestions from it, such as a hot lead nobody has contacted lately, high priority first.",
      "Ask the AI Coach: pick a quick action or type your question, then press Get AI Advice.",
      "Treat drafts as a starting point: follow-ups and listing descriptions use the names, budgets, places, stages and dates you entered (and a listing the bedrooms, bathrooms, size, price and features you type), so read them before you send.",
    ],
  },
  reports: {
    title: "Reports",
    description: "Income after splits and cap, which lead source pays you, speed to lead, pipeline conversion and activity, for any period.",
    steps: [
      "Choose a period (This month, Last month, This quarter, Year to date, Last 12 months) or your own dates; the summary figures and each table's totals compare it with the same span one step back.",
      "Income shows closed volume, GCI and agent net by month with the same commission plan and cap as your deals, your year to date against the goal set in Settings → Goals, and your cap progress.",
      "Lead sources and speed to lead show, per source, conversion, agent net, cost and return on spend, and how fast you answered new contacts, with the leads still waiting.",
      "Pipeline and activity show where deals stall and what you did each week. Every report has a CSV download of its table, and Print gives a clean page.",
    ],
  },
};
