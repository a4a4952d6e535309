import { describe, expect, it } from "vitest";
import { GUIDE_DIALOGS, GUIDE_PAGES } from "~/modules/guides/guide-dialogs";
import { onboardingDue } from "./onboarding";
import { TOUR_LENGTH, TOUR_STEP_IDS, TOUR_STEPS, tourDestination } from "./tour";

const none = { contacts: 0, deals: 0, tasks: 0 };
const open = { onboardingCompleted: false, onboardingSkipped: false };

describe("when onboarding is due (spec section 4)", () => {
  it("is due for an empty account that has neither completed nor skipped it", () => {
    expect(onboardingDue(none, open)).toBe(true);
    // No preferences row yet counts as not finished.
    expect(onboardingDue(none, null)).toBe(true);
    expect(onboardingDue(none, undefined)).toBe(true);
  });

  it("is not due once there is any contact, deal or task", () => {
    expect(onboardingDue({ ...none, contacts: 1 }, open)).toBe(false);
    expect(onboardingDue({ ...none, deals: 1 }, open)).toBe(false);
    expect(onboardingDue({ ...none, tasks: 1 }, open)).toBe(false);
  });

  it("is not due once completed or skipped, even for an empty account", () => {
    expect(onboardingDue(none, { ...open, onboardingCompleted: true })).toBe(false);
    expect(onboardingDue(none, { ...open, onboardingSkipped: true })).toBe(false);
    expect(onboardingDue(none, { onboardingCompleted: true, onboardingSkipped: true })).toBe(false);
  });
});

describe("the tour (spec 'Onboarding tour')", () => {
  it("has the 8 steps in the spec's order, with their pages", () => {
    expect(TOUR_LENGTH).toBe(8);
    expect(TOUR_STEPS.map((s) => s.id)).toEqual([...TOUR_STEP_IDS]);
    expect(TOUR_STEPS.map((s) => s.route ?? null)).toEqual([
      null,
      "/dashboard",
      "/contacts",
      "/pipeline",
      "/ai-assistant",
      "/contacts",
      "/tasks",
      null,
    ]);
    for (const step of TOUR_STEPS) {
      expect(step.title, step.id).not.toBe("");
      expect(step.body, step.id).not.toBe("");
    }
  });

  it("moves to the step's page, stays on the dashboard for the dashboard step, and never goes to the public '/'", () => {
    expect(tourDestination(2, "/dashboard")).toBeNull();
    expect(tourDestination(3, "/dashboard")).toBe("/contacts");
    expect(tourDestination(2, "/contacts")).toBe("/dashboard");
    expect(tourDestination(6, "/ai-assistant")).toBe("/contacts");
    expect(tourDestination(6, "/contacts")).toBeNull();
    expect(tourDestination(1, "/contacts")).toBeNull();
    expect(tourDestination(8, "/tasks")).toBeNull();
    expect(TOUR_STEPS.map((_, i) => tourDestination(i + 1, "/settings"))).not.toContain("/");
  });
});

describe("guide dialogs", () => {
  it("has a title, a description and 4 steps for each of the six pages", () => {
    expect(Object.keys(GUIDE_DIALOGS).sort()).toEqual([...GUIDE_PAGES].sort());
    for (const page of GUIDE_PAGES) {
      const guide = GUIDE_DIALOGS[page];
      expect(guide.title, page).not.toBe("");
      expect(guide.description, page).not.toBe("");
      expect(guide.steps, page).toHaveLength(4);
      for (const step of guide.steps) expect(step.trim(), page).not.toBe("");
    }
  });
});
