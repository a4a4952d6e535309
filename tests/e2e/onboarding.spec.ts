import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { GUIDE_DIALOGS, type GuidePage } from "../../app/modules/guides/guide-dialogs";
import { TOUR_STEPS } from "../../app/modules/onboarding/tour";
import { ACCOUNTS, expect, isPhone, signIn, test } from "./fixtures";

// Spec "Guide dialog and onboarding tour" and section 4 "Onboarding": the welcome dialog on /dashboard
// for a new account, the 8-step tour across pages, Skip, Complete Onboarding, reset in Settings, and the
// Guide dialog of each page.

const welcome = (page: Page) => page.getByRole("dialog", { name: "Take a quick tour?", exact: true });
// Whether the server rendered the welcome dialog at all (it opens only once the page is interactive).
const welcomeRendered = (page: Page) => page.locator("dialog[aria-labelledby='onboarding-welcome-title']");
const tour = (page: Page) => page.getByRole("dialog").filter({ has: page.getByRole("progressbar", { name: "Onboarding progress" }) });
const onPath = (path: string) => new RegExp(`${path.replace(/\//g, "\\/")}$`);

async function expectStep(page: Page, step: number, path: string) {
  const panel = tour(page);
  await expect(panel.getByText(`Step ${step} of 8`, { exact: true })).toBeVisible();
  await expect(panel.getByRole("heading", { name: TOUR_STEPS[step - 1]!.title })).toBeVisible();
  await expect(panel.getByRole("progressbar")).toHaveAttribute("aria-valuenow", String(step));
  await expect(panel.getByRole("progressbar")).toHaveAttribute("aria-valuemax", "8");
  await expect(page).toHaveURL(onPath(path));
  // The element the step describes is outlined and in view, and nothing else is.
  const target = TOUR_STEPS[step - 1]!.target;
  const active = page.locator("[data-tour-active]");
  if (target) {
    await expect(active).toHaveCount(1);
    await expect(active).toHaveAttribute("data-tour", target);
    await expect(active).toBeInViewport();
    expect(await active.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
  } else await expect(active).toHaveCount(0);
}

const next = (page: Page) => tour(page).getByRole("button", { name: "Next" }).click();
const previous = (page: Page) => tour(page).getByRole("button", { name: "Previous" }).click();

test("a new account is offered the tour on the dashboard, walks it with Next and Previous, and completes it for good", async ({ page }) => {
  await signIn(page, ACCOUNTS.onboardingTour);
  await expect(welcome(page)).toBeVisible();
  await welcome(page).getByRole("button", { name: "Start tour" }).click();
  await expect(welcome(page)).toBeHidden();

  await expectStep(page, 1, "/dashboard");
  await expect(tour(page).getByRole("heading", { name: TOUR_STEPS[0]!.title })).toBeFocused();
  await expect(tour(page).getByRole("button", { name: "Previous" })).toBeDisabled();
  // The panel fits the screen, a 375 px phone included.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

  await next(page);
  await expectStep(page, 2, "/dashboard");
  await next(page);
  await expectStep(page, 3, "/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  await previous(page);
  await expectStep(page, 2, "/dashboard");
  // Back on the dashboard mid-tour: the welcome dialog stays away.
  await expect(welcome(page)).toBeHidden();
  await next(page);
  await expectStep(page, 3, "/contacts");
  await next(page);
  await expectStep(page, 4, "/pipeline");
  await next(page);
  await expectStep(page, 5, "/ai-assistant");
  // The tour outlives a reload.
  await page.reload();
  await expectStep(page, 5, "/ai-assistant");
  await next(page);
  await expectStep(page, 6, "/contacts");
  await next(page);
  await expectStep(page, 7, "/tasks");
  await next(page);
  await expectStep(page, 8, "/tasks");
  await expect(tour(page).getByRole("button", { name: "Next" })).toHaveCount(0);
  await expect(tour(page).getByRole("button", { name: "Skip" })).toHaveCount(0);

  await tour(page).getByRole("button", { name: "Complete Onboarding" }).click();
  await expect(page).toHaveURL(onPath("/dashboard"));
  await expect(page.getByText("Onboarding complete", { exact: true }).first()).toBeVisible();
  await expect(tour(page)).toHaveCount(0);
  await expect(welcome(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(welcomeRendered(page)).toHaveCount(0);

  await page.goto("/settings");
  await expect(page.getByRole("region", { name: "Onboarding" })).toContainText(/Completed on [A-Z][a-z]{2} \d{1,2}, \d{4}\./);
});

test("skipping from the dialog or the tour is remembered, and a reset in Settings offers the tour again", async ({ page }) => {
  // A dozen navigations and reloads: it ran past 30 s on a busy 2-core machine.
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.onboardingSkip);
  await welcome(page).getByRole("button", { name: "Skip" }).click();
  await expect(page.getByText("Tour skipped", { exact: true }).first()).toBeVisible();
  await expect(welcome(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(welcomeRendered(page)).toHaveCount(0);

  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Onboarding" });
  await expect(section).toContainText(/Skipped on [A-Z][a-z]{2} \d{1,2}, \d{4}\./);
  await section.getByRole("button", { name: "Reset onboarding" }).click();
  await expect(page.getByText("Onboarding reset", { exact: true }).first()).toBeVisible();
  await expect(section).toContainText("Not finished.");

  await page.goto("/dashboard");
  await expect(welcome(page)).toBeVisible();
  await welcome(page).getByRole("button", { name: "Start tour" }).click();
  await next(page);
  await next(page);
  await expectStep(page, 3, "/contacts");
  await tour(page).getByRole("button", { name: "Skip" }).click();
  await expect(page).toHaveURL(onPath("/dashboard"));
  await expect(page.getByText("Tour skipped", { exact: true }).first()).toBeVisible();
  await expect(tour(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(welcomeRendered(page)).toHaveCount(0);
  await expect(tour(page)).toHaveCount(0);

  // Settings can start the tour straight away, whatever the account holds.
  await page.goto("/settings");
  await page.getByRole("button", { name: "Take the tour" }).click();
  await expect(page).toHaveURL(onPath("/dashboard"));
  await expectStep(page, 1, "/dashboard");
  await expect(welcome(page)).toHaveCount(0);
  await tour(page).getByRole("button", { name: "Skip" }).click();
  await expect(tour(page)).toHaveCount(0);
});

test("each page's Guide opens by keyboard, lists its 4 steps and closes with 'Got it!'", async ({ page }) => {
  await signIn(page, ACCOUNTS.onboardingGuide);
  const pages: [string, GuidePage][] = [
    ["/dashboard", "dashboard"],
    ["/contacts", "contacts"],
    ["/tasks", "tasks"],
    ["/pipeline", "pipeline"],
    ["/ai-assistant", "ai-assistant"],
    ["/reports", "reports"],
  ];
  for (const [path, key] of pages) {
    const guide = GUIDE_DIALOGS[key];
    await page.goto(path);
    // On a phone the contact list keeps its Guide in the header's More menu; closing gives focus back to More.
    const more = page.getByRole("button", { name: "More", exact: true });
    const inMenu = path === "/contacts" && isPhone(page);
    if (inMenu) await more.click();
    const button = page.getByRole("button", { name: "Guide", exact: true });
    await button.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: guide.title });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(guide.description);
    await expect(dialog.getByRole("listitem")).toHaveCount(4);
    await expect(dialog.getByRole("listitem")).toContainText([...guide.steps]);
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Got it!" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(inMenu ? more : button).toBeFocused();
  }
  // Esc closes it too.
  await page.getByRole("button", { name: "Guide", exact: true }).click();
  await expect(page.getByRole("dialog", { name: GUIDE_DIALOGS.reports.title })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: GUIDE_DIALOGS.reports.title })).toBeHidden();
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the welcome dialog, the tour and a guide have no axe violations, light and dark", async ({ page }) => {
    // Several full-page axe scans: past 30 s on a busy 2-core machine.
    test.setTimeout(60_000);
    await signIn(page, ACCOUNTS.a11yOnboarding);
    const check = async (label: string) => {
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    };
    for (const theme of ["light", "dark"]) {
      // A tour left running is only in this tab's session storage: clearing it brings the welcome back.
      await page.evaluate((t) => {
        localStorage.setItem("porchlight-theme", t);
        sessionStorage.clear();
      }, theme);
      await page.goto("/dashboard");
      await expect(page.locator("html")).toHaveClass(new RegExp(theme === "dark" ? "dark" : "^(?!.*dark)"));
      await expect(welcome(page)).toBeVisible();
      await check(`welcome dialog (${theme})`);
      await welcome(page).getByRole("button", { name: "Start tour" }).click();
      await expectStep(page, 1, "/dashboard");
      await check(`tour step 1 (${theme})`);
      await next(page);
      await next(page);
      await expectStep(page, 3, "/contacts");
      await check(`tour on /contacts (${theme})`);
      await page.getByRole("button", { name: "Guide", exact: true }).click();
      await expect(page.getByRole("dialog", { name: GUIDE_DIALOGS.contacts.title })).toBeVisible();
      await check(`contacts guide (${theme})`);
      await page.keyboard.press("Escape");
    }
  });
});
