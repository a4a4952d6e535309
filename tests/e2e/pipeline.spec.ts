import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { ACCOUNTS, expect, nyDay, signIn, test } from "./fixtures";

// The pipeline board, deals, stage settings and commissions, as an agent uses them.

async function createDeals(page: Page, deals: Record<string, string>[]) {
  const origin = new URL(page.url()).origin;
  for (const deal of deals) {
    const response = await page.request.post("/pipeline?index", {
      form: { intent: "create", stage: "lead", dealValueCents: "400000", ...deal },
      headers: { Origin: origin },
    });
    expect(response.status()).toBe(200);
  }
}

const column = (page: Page, stage: string) => page.getByRole("list", { name: `${stage} deals` });
const cardTitles = (page: Page, stage: string) => column(page, stage).getByRole("article").getByRole("link");
const moveSaved = (page: Page) => page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/pipeline") && r.status() === 200);

/** A calendar day ("YYYY-MM-DD") as the app shows it to an account with US dates: "Nov 27, 2026". */
const usDay = (day: string) =>
  new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));

/** The toast of a move into a closed stage, with its Undo. */
const closedToast = (page: Page, title: string) =>
  page
    .getByRole("region", { name: /^Notifications/ })
    .getByRole("listitem")
    .filter({ hasText: title });

/** Cuts the account's pipeline to Lead, Under Contract, Closed Won and Closed Lost, so a 1280 px board shows Closed Won. */
async function shortPipeline(page: Page) {
  const stages = [
    { key: "lead", name: "Lead", probability: 10, kind: "open" },
    { key: "under_contract", name: "Under Contract", probability: 90, kind: "open" },
    { key: "closed_won", name: "Closed Won", probability: 100, kind: "won" },
    { key: "closed_lost", name: "Closed Lost", probability: 0, kind: "lost" },
  ];
  const response = await page.request.post("/pipeline/stages", {
    data: { stages: stages.map((stage) => ({ ...stage, color: "#445566" })) },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(200);
}

/** Press on the card's handle, move in steps (dnd-kit starts after 5 px), release over the target. */
async function drag(page: Page, handle: Locator, target: Locator, offsetY = 0) {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 8, from.y + from.height / 2 + 8, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + Math.min(to.height / 2, 40) + offsetY, { steps: 20 });
  await page.mouse.move(to.x + to.width / 2, to.y + Math.min(to.height / 2, 40) + offsetY + 2, { steps: 2 });
  await page.mouse.up();
}

test("a deal is created from the dialog with a searched contact, shows its net on the board, its breakdown, and on the contact", async ({ page }) => {
  await signIn(page, ACCOUNTS.pipelineDeal);
  const origin = new URL(page.url()).origin;
  await page.request.post("/contacts?index", {
    form: { intent: "create", name: "Priya Lindqvist", email: "priya@example.com" },
    headers: { Origin: origin },
  });
  await page.goto("/pipeline");
  await expect(page.getByRole("heading", { name: "No deals yet" })).toBeVisible();
  await page.getByRole("button", { name: "New deal" }).click();
  const dialog = page.getByRole("dialog", { name: "Create deal" });
  const create = dialog.getByRole("button", { name: "Create deal" });
  await expect(create).toBeDisabled();
  await dialog.getByLabel("Title").fill("14 Birch Lane");
  await dialog.getByRole("combobox", { name: "Contact" }).fill("lindq");
  await dialog.getByRole("option", { name: /Priya Lindqvist/ }).click();
  await expect(dialog.getByText("Linked to Priya Lindqvist.")).toBeVisible();
  await dialog.getByLabel("Stage").selectOption({ label: "Offer" });
  await expect(dialog.getByLabel("Probability (%)")).toHaveAttribute("placeholder", "Stage default: 60");
  // Bad input: a clear message, nothing saved, the form stays filled.
  await dialog.getByLabel("Deal value (sale price)").fill("5,00");
  await create.click();
  await expect(dialog.getByText("Enter the deal value (the sale price), e.g. 650,000.")).toBeVisible();
  await expect(dialog.getByLabel("Title")).toHaveValue("14 Birch Lane");
  await dialog.getByLabel("Deal value (sale price)").fill("$500,000");
  await create.click();
  await expect(page.getByText("Deal created", { exact: true }).first()).toBeVisible();
  await expect(dialog).toBeHidden();

  const card = column(page, "Offer").getByRole("article", { name: "14 Birch Lane" });
  await expect(card).toContainText("Priya Lindqvist");
  await expect(card).toContainText("$500,000");
  // The default plan: 3 %, nothing taken off.
  await expect(card).toContainText("$15,000.00");
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Offer" }) })).toContainText("weighted $300,000");

  await card.getByRole("link", { name: "14 Birch Lane" }).click();
  await expect(page.getByRole("heading", { name: "14 Birch Lane", level: 1 })).toBeVisible();
  const breakdown = page.getByRole("table", { name: "Commission breakdown for 14 Birch Lane" });
  await expect(breakdown.getByRole("row", { name: /Gross commission/ })).toContainText("$15,000.00");
  await expect(breakdown.getByRole("row", { name: /Agent net/ })).toContainText("$15,000.00");
  await page.getByRole("link", { name: "Priya Lindqvist" }).click();
  await expect(page.getByRole("region", { name: "Deals" }).getByRole("link", { name: "14 Birch Lane" })).toBeVisible();
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("cards move by mouse between stages and within a column, survive a reload, and Closed Lost asks why", async ({ page }) => {
    // Eight drags, two reloads and a dialog: about 20 s on an idle machine, so the default 30 s ran out on a
    // loaded one (load average 10 on 2 cores) at the last drag. The budget fits the journey, not the machine's mood.
    test.setTimeout(60_000);
    await signIn(page, ACCOUNTS.pipelineBoard);
    await createDeals(page, [{ title: "Alpha" }, { title: "Bravo" }, { title: "Charlie" }]);
    await page.goto("/pipeline");
    await expect(cardTitles(page, "Lead")).toHaveText(["Alpha", "Bravo", "Charlie"]);

    const saved = moveSaved(page);
    await drag(page, page.getByRole("button", { name: "Move Alpha" }), column(page, "Qualified"));
    await saved;
    await expect(cardTitles(page, "Qualified")).toHaveText(["Alpha"]);
    await expect(cardTitles(page, "Lead")).toHaveText(["Bravo", "Charlie"]);

    // Charlie above Bravo, within the column.
    const reordered = moveSaved(page);
    await drag(page, page.getByRole("button", { name: "Move Charlie" }), column(page, "Lead").getByRole("article", { name: "Bravo" }), -20);
    await reordered;
    await expect(cardTitles(page, "Lead")).toHaveText(["Charlie", "Bravo"]);

    await page.reload();
    await expect(cardTitles(page, "Lead")).toHaveText(["Charlie", "Bravo"]);
    await expect(cardTitles(page, "Qualified")).toHaveText(["Alpha"]);
    // Qualified's probability (25 %) on a $400,000 deal: weighted $100,000.
    await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Qualified" }) })).toContainText("weighted $100,000");

    // Closed Lost (out of sight at the far end of the board: moved from the card's menu): the reason first;
    // cancelling puts the card back.
    await page.getByLabel("Actions for Bravo").click();
    await page.getByRole("button", { name: "Closed Lost" }).click();
    const ask = page.getByRole("dialog", { name: "Move Bravo to Closed Lost" });
    await expect(ask).toBeVisible();
    await ask.getByRole("button", { name: "Cancel" }).click();
    await expect(cardTitles(page, "Lead")).toHaveText(["Charlie", "Bravo"]);
    await page.getByLabel("Actions for Bravo").click();
    await page.getByRole("button", { name: "Closed Lost" }).click();
    await ask.getByLabel("Why was it lost?").fill("Chose a new build");
    const lost = moveSaved(page);
    await ask.getByRole("button", { name: "Mark as lost" }).click();
    await lost;
    await page.reload();
    await expect(cardTitles(page, "Closed Lost")).toHaveText(["Bravo"]);
    await page.getByRole("link", { name: "Bravo" }).click();
    await expect(page.getByRole("region", { name: "Stage history" })).toContainText("Lead → Closed Lost");
    await expect(page.getByRole("region", { name: "Stage history" })).toContainText("Reason: Chose a new build");

    // A move the server refuses rolls back: here Showing is deleted (in another tab) while this board shows it.
    await page.goto("/pipeline");
    const stages = ["lead", "qualified", "offer", "under_contract", "closed_won", "closed_lost"];
    const defaults = {
      lead: ["Lead", 10],
      qualified: ["Qualified", 25],
      offer: ["Offer", 60],
      under_contract: ["Under Contract", 90],
      closed_won: ["Closed Won", 100],
      closed_lost: ["Closed Lost", 0],
    } as const;
    const withoutShowing = await page.request.post("/pipeline/stages", {
      data: {
        stages: stages.map((key) => ({
          key,
          name: defaults[key as keyof typeof defaults][0],
          color: "#445566",
          probability: defaults[key as keyof typeof defaults][1],
          kind: key === "closed_won" ? "won" : key === "closed_lost" ? "lost" : "open",
        })),
      },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(withoutShowing.status()).toBe(200);
    await drag(page, page.getByRole("button", { name: "Move Charlie" }), column(page, "Showing"));
    await expect(page.getByText("The deal could not be moved, so it is back where it was.").first()).toBeVisible();
    await expect(cardTitles(page, "Lead")).toHaveText(["Charlie"]);
  });

  test("cards move from the keyboard: Space picks up, arrows move, Space drops", async ({ page }) => {
    await signIn(page, ACCOUNTS.pipelineKeys);
    await createDeals(page, [{ title: "Delta" }, { title: "Echo" }]);
    await page.goto("/pipeline");
    await expect(cardTitles(page, "Lead")).toHaveText(["Delta", "Echo"]);
    // Each key waits for the board to say what it did (dnd-kit's live region), as a screen reader hears it.
    const said = (text: string) => expect(page.locator('[id^="DndLiveRegion"]')).toHaveText(text);
    // Down within the column.
    await page.getByRole("button", { name: "Move Delta" }).focus();
    await page.keyboard.press("Space");
    await said("Delta is in Lead, position 1 of 2.");
    await page.keyboard.press("ArrowDown");
    await said("Delta is in Lead, position 2 of 2.");
    const within = moveSaved(page);
    await page.keyboard.press("Space");
    await within;
    await expect(cardTitles(page, "Lead")).toHaveText(["Echo", "Delta"]);
    // Right, into the next stage.
    await page.getByRole("button", { name: "Move Echo" }).focus();
    await page.keyboard.press("Space");
    await said("Echo is in Lead, position 1 of 2.");
    await page.keyboard.press("ArrowRight");
    await said("Echo is in Qualified, position 1 of 1.");
    const across = moveSaved(page);
    await page.keyboard.press("Space");
    await across;
    await page.reload();
    await expect(cardTitles(page, "Qualified")).toHaveText(["Echo"]);
    await expect(cardTitles(page, "Lead")).toHaveText(["Delta"]);
    // Escape cancels a move.
    await page.getByRole("button", { name: "Move Delta" }).focus();
    await page.keyboard.press("Space");
    await said("Delta is in Lead, position 1 of 1.");
    await page.keyboard.press("ArrowRight");
    await said("Delta is in Qualified, position 1 of 2.");
    await page.keyboard.press("Escape");
    await said("Move of Delta cancelled. It is back where it was.");
    await expect(cardTitles(page, "Lead")).toHaveText(["Delta"]);
  });
});

test.describe("closing a deal on a desktop board", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a deal moved to Closed Won by keyboard or by drag asks the day it closed, shows that day, and Undo puts it back", async ({ page }) => {
    test.setTimeout(60_000);
    await signIn(page, ACCOUNTS.pipelineClose);
    await shortPipeline(page);
    await createDeals(page, [
      { title: "Hotel", stage: "under_contract", expectedCloseDate: nyDay(30) },
      { title: "India", stage: "under_contract", expectedCloseDate: nyDay(45) },
    ]);
    await page.goto("/pipeline");
    await expect(cardTitles(page, "Under Contract")).toHaveText(["Hotel", "India"]);
    const card = (stage: string, title: string) => column(page, stage).getByRole("article", { name: title });
    await expect(card("Under Contract", "Hotel")).toContainText(`Closes ${usDay(nyDay(30))}`);

    // The keyboard: Space, right into Closed Won, Space. The day it closed is asked, today (New York) unless changed.
    const said = (text: string) => expect(page.locator('[id^="DndLiveRegion"]')).toHaveText(text);
    await page.getByRole("button", { name: "Move Hotel" }).focus();
    await page.keyboard.press("Space");
    await said("Hotel is in Under Contract, position 1 of 2.");
    await page.keyboard.press("ArrowRight");
    await said("Hotel is in Closed Won, position 1 of 1.");
    await page.keyboard.press("Space");
    const ask = page.getByRole("dialog", { name: "Move Hotel to Closed Won" });
    await expect(ask.getByLabel("Closed on")).toHaveValue(nyDay(0));
    await ask.getByLabel("Closed on").fill(nyDay(-2));
    const saved = moveSaved(page);
    await ask.getByRole("button", { name: "Move to Closed Won" }).click();
    await saved;
    await expect(card("Closed Won", "Hotel")).toContainText(`Closed ${usDay(nyDay(-2))}`);
    const toast = closedToast(page, "Hotel moved to Closed Won");
    await expect(toast).toContainText(`Closed ${usDay(nyDay(-2))}.`);
    // Undo: back in Under Contract, in its place, with its expected close.
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByText("Hotel is back in Under Contract").first()).toBeVisible();
    await expect(cardTitles(page, "Under Contract")).toHaveText(["Hotel", "India"]);
    await expect(card("Under Contract", "Hotel")).toContainText(`Closes ${usDay(nyDay(30))}`);
    await expect(cardTitles(page, "Closed Won")).toHaveCount(0);

    // A drag: cancelling the question puts the card back; confirming closes it today.
    await drag(page, page.getByRole("button", { name: "Move India" }), column(page, "Closed Won"));
    const askIndia = page.getByRole("dialog", { name: "Move India to Closed Won" });
    await askIndia.getByRole("button", { name: "Cancel" }).click();
    await expect(cardTitles(page, "Under Contract")).toHaveText(["Hotel", "India"]);
    await drag(page, page.getByRole("button", { name: "Move India" }), column(page, "Closed Won"));
    await expect(askIndia.getByLabel("Closed on")).toHaveValue(nyDay(0));
    const dropped = moveSaved(page);
    await askIndia.getByRole("button", { name: "Move to Closed Won" }).click();
    await dropped;
    await page.reload();
    await expect(card("Closed Won", "India")).toContainText(`Closed ${usDay(nyDay(0))}`);
    // The list shows the day it closed, not the day it was expected to.
    await page.goto("/pipeline?view=list");
    await expect(page.getByRole("row", { name: /India/ })).toContainText(`Closed ${usDay(nyDay(0))}`);
    await expect(page.getByRole("row", { name: /Hotel/ })).toContainText(usDay(nyDay(30)));
  });
});

test("on a deal's page, moving it to Closed Won asks the day it closed; Undo puts it back; the board shows the day", async ({ page }) => {
  await signIn(page, ACCOUNTS.pipelineCloseDeal);
  await createDeals(page, [{ title: "Juliet", stage: "offer", expectedCloseDate: nyDay(60) }]);
  await page.goto("/pipeline");
  await column(page, "Offer").getByRole("link", { name: "Juliet" }).click();
  await expect(page.getByRole("heading", { name: "Juliet", level: 1 })).toBeVisible();
  const moveTo = async (day: string) => {
    await page.getByLabel("Move to stage").selectOption({ label: "Closed Won" });
    await expect(page.getByLabel("Closed on")).toHaveValue(nyDay(0));
    await page.getByLabel("Closed on").fill(day);
    await page.getByRole("button", { name: "Move", exact: true }).click();
  };
  await moveTo(nyDay(-1));
  const toast = closedToast(page, "Juliet moved to Closed Won");
  await expect(toast).toContainText(`Closed ${usDay(nyDay(-1))}.`);
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Juliet is back in Offer").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Stage history" })).toContainText("Closed Won → Offer");
  // Closed again, for good this time: the board's card shows the day it closed.
  await moveTo(nyDay(-3));
  await expect(closedToast(page, "Juliet moved to Closed Won").last()).toContainText(`Closed ${usDay(nyDay(-3))}.`);
  await page.goto("/pipeline");
  await expect(column(page, "Closed Won").getByRole("article", { name: "Juliet" })).toContainText(`Closed ${usDay(nyDay(-3))}`);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the board opens on the first stage with deals; the list folds its filters, says how many are on, and shows Agent net", async ({ page }) => {
    await signIn(page, ACCOUNTS.pipelineOnPhone);
    await createDeals(page, [
      { title: "Kilo", stage: "offer", expectedCloseDate: nyDay(20) },
      { title: "Lima", stage: "under_contract", expectedCloseDate: nyDay(10) },
    ]);
    await page.goto("/pipeline");
    // Lead, Qualified and Showing are empty: the board starts at Offer, whole on the screen. The board scrolls there once
    // the page is hydrated, so the test waits for that: read at once, the box was the server's page, still at Lead (a
    // failure seen when the app's shell grew and hydration came a little later).
    await expect
      .poll(async () => {
        const offer = (await column(page, "Offer").boundingBox())!;
        return offer.x >= 0 && offer.x + offer.width <= 375;
      })
      .toBe(true);
    await expect(column(page, "Offer").getByRole("article", { name: "Kilo" })).toBeInViewport();
    await expect(column(page, "Lead")).not.toBeInViewport();

    await page.goto("/pipeline?view=list&stage=offer");
    const filters = page.getByRole("button", { name: "Filters and sort (1 filter on)" });
    await expect(filters).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("search", { name: "Filter deals" })).toBeHidden();
    // The first deal is on the first screen, with its agent net.
    const row = page.getByRole("row", { name: /Kilo/ });
    await expect(row).toBeInViewport();
    const net = (await row.getByRole("cell").last().boundingBox())!;
    expect(net.x + net.width).toBeLessThanOrEqual(375);
    await expect(row.getByRole("cell").last()).toHaveText("$12,000.00");
    await expect(row).toContainText("Offer");
    expect(await page.getByRole("table").evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
    // Open: the filters, as set.
    await filters.click();
    await expect(filters).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("search", { name: "Filter deals" }).getByLabel("Stage")).toHaveValue("offer");
    await page.goto("/pipeline?view=list");
    await expect(page.getByRole("button", { name: "Filters and sort (no filter on)" })).toBeVisible();
  });
});

test("the stages scroll sideways inside the board, never the page, and a deal moves from its menu", async ({ page }) => {
  await signIn(page, ACCOUNTS.pipelinePhone);
  await createDeals(page, [{ title: "Foxtrot", stage: "showing" }]);
  await page.goto("/pipeline");
  const board = page.getByRole("list", { name: "Pipeline stages" });
  expect(await board.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  await page.getByLabel("Actions for Foxtrot").click();
  const saved = moveSaved(page);
  await page.getByRole("button", { name: "Under Contract" }).click();
  await saved;
  await page.reload();
  await expect(cardTitles(page, "Under Contract")).toHaveText(["Foxtrot"]);
  // The stage's probability came with it: 90 % of $400,000.
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Under Contract" }) })).toContainText("weighted $360,000");
});

test("stage settings rename, recolour, reorder and add; a stage with deals cannot be deleted", async ({ page }) => {
  await signIn(page, ACCOUNTS.pipelineStages);
  await createDeals(page, [{ title: "Golf", stage: "qualified" }]);
  await page.goto("/pipeline");
  await page.getByRole("link", { name: "Stage settings" }).click();
  await expect(page.getByRole("heading", { name: "Stage settings" })).toBeVisible();
  const stage = (n: number) => page.getByRole("group", { name: `Stage ${n}` });
  await stage(1).getByLabel("Name").fill("New Lead");
  await stage(1).getByLabel("Colour").fill("#123456");
  await stage(3).getByLabel("Probability (%)").fill("45");
  await page.getByRole("button", { name: "Move Showing up" }).click();
  // aria-disabled (it still explains itself when pressed), which Playwright will not click without force.
  await page.getByRole("button", { name: "Delete Qualified" }).click({ force: true });
  await expect(page.getByText("Move this stage's deal to another stage first.").first()).toBeVisible();
  await page.getByRole("button", { name: "Add stage" }).click();
  await expect(page.getByLabel("Name").nth(5)).toBeFocused();
  await page.getByLabel("Name").nth(5).fill("Inspection");
  await page.getByRole("button", { name: "Save stages" }).click();
  await expect(page.getByText("Stages saved", { exact: true }).first()).toBeVisible();

  await page.goto("/pipeline");
  await expect(page.getByRole("list", { name: "Pipeline stages" }).getByRole("heading", { level: 2 })).toHaveText(
    ["New Lead", "Showing", "Qualified", "Offer", "Under Contract", "Inspection", "Closed Won", "Closed Lost"].map((n) => new RegExp(`^${n}`)),
  );
});

test("the commission plan prices every deal, the calculator shows each line, and the forecast counts the cap", async ({ page }) => {
  await signIn(page, ACCOUNTS.pipelineMoney);
  // New Year's Day of the agent's current year (New York): in this cap year and never in the future.
  const year = Number(nyDay(0).slice(0, 4));
  await createDeals(page, [
    { title: "Won early", stage: "closed_won", dealValueCents: "1000000", closedDate: `${year}-01-01` },
    { title: "Offer out", stage: "offer", dealValueCents: "500000", expectedCloseDate: `${year + 1}-01-20` },
  ]);
  await page.goto("/pipeline/commissions");
  const plan = page.getByRole("region", { name: "Your commission plan" });
  await plan.getByLabel("Default commission rate (%)").fill("2.5");
  await plan.getByLabel("Referral fee (%)").fill("25");
  await plan.getByLabel("Brokerage split (%)").fill("30");
  await plan.getByLabel("Annual cap").fill("16,000");
  await plan.getByLabel("Team split (%)").fill("10");
  await plan.getByLabel("Transaction fee").fill("395");
  await plan.getByLabel("E&O fee").fill("50");
  await plan.getByLabel("Franchise fee (% of gross)").fill("6");
  await plan.getByLabel("Cap year starts (MM-DD)").fill("02-30");
  await plan.getByRole("button", { name: "Save plan" }).click();
  await expect(plan.getByText("Enter the day your cap year starts as MM-DD, e.g. 01-01 or 04-15 (not 02-29).")).toBeVisible();
  await plan.getByLabel("Cap year starts (MM-DD)").fill("01-01");
  await plan.getByRole("button", { name: "Save plan" }).click();
  await expect(page.getByText("Commission plan saved", { exact: true }).first()).toBeVisible();
  // Deals keep the rate they were created with (3 %): the won deal's $30,000 gross, 25 % referral → $22,500;
  // 30 % split $6,750 (under the $16,000 cap); team 10 % of $15,750 = $1,575; fees $445; franchise 6 % of gross $1,800.
  // Net: 15,750 − 1,575 − 445 − 1,800 = $11,930.00.
  await expect(page.getByText("$11,930.00")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Cap paid" })).toHaveAttribute("aria-valuenow", "675000");

  // The calculator, prefilled from the plan: the article's example needs $1,500 left to the cap.
  const calculator = page.getByRole("region", { name: "Commission calculator" });
  await calculator.getByLabel("Sale price").fill("500000");
  await calculator.getByLabel("Cap left to pay").fill("1500");
  const lines = calculator.getByRole("table", { name: "Calculator breakdown" });
  await expect(lines.getByRole("row", { name: /Brokerage split/ })).toContainText("only $1,500.00 left to your cap");
  await expect(lines.getByRole("row", { name: /Agent net/ })).toContainText("$5,892.50");
  await calculator.getByLabel("Commission rate (%)").fill("abc");
  await expect(calculator.getByRole("alert")).toContainText("Enter amounts like 650000");
});

test("pipeline pages and the deal dialog have no WCAG 2.2 AA violations in light and dark", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.a11yPipeline);
  await createDeals(page, [{ title: "Hotel", stage: "offer", expectedCloseDate: nyDay(60) }]);
  const check = async (label: string) => {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  };
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const path of ["/pipeline", "/pipeline?view=list", "/pipeline/stages", "/pipeline/commissions"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(new RegExp(theme === "dark" ? "dark" : "^(?!.*dark)"));
      await check(`${path} (${theme})`);
    }
    await page.goto("/pipeline");
    await page.getByRole("button", { name: "New deal" }).click();
    await check(`create deal dialog (${theme})`);
    await page.keyboard.press("Escape");
    await page.getByRole("link", { name: "Hotel" }).click();
    await page.waitForURL(/\/deals\//);
    await check(`deal page (${theme})`);
  }
});
