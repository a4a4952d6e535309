// Spec "Onboarding tour": 8 steps, each optionally tied to a page. The spec's dashboard route is '/';
// here '/' is the public landing page and the dashboard lives at /dashboard, so the dashboard step points
// there (the tour never leaves the signed-in app).

export const TOUR_STEP_IDS = ["welcome", "dashboard", "add-contact", "pipeline", "ai-assistant", "contact-profile", "tasks", "completed"] as const;
type TourStepId = (typeof TOUR_STEP_IDS)[number];

export interface TourStep {
  id: TourStepId;
  title: string;
  body: string;
  route?: string;
  /** The element the step describes: the value of its data-tour attribute on the step's page. */
  target?: string;
}

const DASHBOARD_ROUTE = "/dashboard";

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: "welcome",
    title: "A quick look around",
    body: "Here is a quick look at the places you will use every day: your dashboard, contacts, pipeline, AI assistant and tasks. It is short, and you can skip it at any time.",
  },
  {
    id: "dashboard",
    target: "dashboard",
    route: DASHBOARD_ROUTE,
    title: "Your dashboard",
    body: "Your command center. As you add contacts, deals and tasks it shows quick stats, your pipeline at a glance, upcoming closings, task reminders and recent activity. Until then it stays empty rather than showing made-up numbers.",
  },
  {
    id: "add-contact",
    target: "add-contact",
    route: "/contacts",
    title: "Add your first contact",
    body: "Press Add contact to save a lead with a name and a phone number or e-mail, or Import to bring a CSV from a spreadsheet or another CRM.",
  },
  {
    id: "pipeline",
    target: "new-deal",
    route: "/pipeline",
    title: "Track deals in your pipeline",
    body: "Press New deal to start one, then move it from stage to stage by dragging, with the keyboard or from its menu. Each card shows what the deal pays you after splits and fees.",
  },
  {
    id: "ai-assistant",
    target: "ai-assistant",
    route: "/ai-assistant",
    title: "Your AI assistant",
    body: "The assistant writes follow-ups, listing descriptions and advice from your own contacts and deals, and says which engine wrote each answer. It has more to work with once you have added some data.",
  },
  {
    id: "contact-profile",
    target: "contact-list",
    route: "/contacts",
    title: "Every contact has a profile",
    body: "Once you have contacts, select a name in the list to open that person's profile: call, text or e-mail in one tap, edit details and tags, and see their deals, tasks and activity in one place.",
  },
  {
    id: "tasks",
    target: "quick-add",
    route: "/tasks",
    title: "Stay on top of tasks",
    body: 'See what is due today, overdue or coming up, or plan on the calendar. Type something like "Call Sam tomorrow 3pm" in the quick-add box and the date and time are filled in.',
  },
  {
    id: "completed",
    title: "You're all set",
    body: "That's the tour. A good first move is adding a contact or importing your list. Each main page has a Guide button when you want a reminder, and you can take this tour again from Settings.",
  },
];

export const TOUR_LENGTH = TOUR_STEPS.length;

/**
 * Where moving to `step` (1-based) takes the user, or null to stay. Next and Previous go to the step's
 * page; the dashboard step does not navigate when the user is already on it (spec: Next does not navigate
 * for the dashboard, where the tour starts).
 */
export function tourDestination(step: number, currentPath: string): string | null {
  const route = TOUR_STEPS[step - 1]?.route;
  if (!route || route === currentPath) return null;
  return route;
}
