import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { ACCOUNTS, expect, expectNoSideways, test, type Account } from "./fixtures";

// The Team plan: an owner switches from Solo, invites two agents by e-mail (the development mailbox), and
// each joins from the link; the team page counts members and seats. The owner reads the leaderboard and an agent's
// Reports and moves an agent's deal on the team pipeline; an agent sees only their own board and net. A Solo account
// has no team page and no link. The owner distributes leads (first to claim; one assigned by hand, one claimed by an
// agent, one sent through the team's public lead form), and an agent shares a deal with a teammate, who sees it on
// their Pipeline. Ownership is offered and withdrawn.

const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

async function axeClean(page: Page, label: string) {
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.reload();
    const results = await new AxeBuilder({ page }).include("main").withTags(WCAG).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${label} (${theme})`,
    ).toEqual([]);
  }
  await page.evaluate(() => localStorage.setItem("porchlight-theme", "light"));
}

/** The open dialog, in the theme the page has (a reload, as axeClean does for both themes, would close it). */
async function axeCleanDialog(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).include("dialog[open]").withTags(WCAG).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    label,
  ).toEqual([]);
}

/** Screenshots of what is on screen now, light and dark (dialogs stay open: the theme class is set, not reloaded). */
async function look(page: Page, name: string) {
  for (const dark of [false, true]) {
    await page.evaluate((d) => {
      document.documentElement.classList.toggle("dark", d);
      document.documentElement.style.colorScheme = d ? "dark" : "light";
    }, dark);
    // Buttons ease their colours in (transition-colors): a screenshot at once would catch them half-way.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    await page.screenshot({ path: `test-results/screenshots/${test.info().project.name}-${name}-${dark ? "dark" : "light"}.png`, fullPage: true });
  }
  await page.evaluate(() => {
    document.documentElement.classList.remove("dark");
    document.documentElement.style.colorScheme = "light";
  });
}

async function signInHere(page: Page, account: Account) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The invited agent, on their own device: the link from the mailbox, sign in, join. */
async function joinFromMailbox(browser: Browser, account: Account, teamName: string, ip: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": ip }, viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  await page.goto("/dev/mailbox");
  const message = page
    .getByRole("article", { name: new RegExp(`invited you to ${teamName} on Porchlight`) })
    .filter({ hasText: account.email })
    .first();
  await message.getByRole("link", { name: /\/team\/join\?token=/ }).click();
  await expect(page.getByRole("heading", { name: `Join ${teamName}`, level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Sign in to accept" }).click();
  await signInHere(page, account);
  await page.waitForURL(/\/team\/join\?token=/);
  await page.getByRole("button", { name: `Join ${teamName}` }).click();
  await page.waitForURL("**/team");
  await expect(page.getByText(`Welcome to ${teamName}`, { exact: true }).first()).toBeVisible();
  return { page, close: () => context.close() };
}

/** A member on a device of their own, signed in. */
async function signedIn(browser: Browser, account: Account, ip: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": ip }, viewport: test.info().project.use.viewport ?? undefined });
  const page = await context.newPage();
  await page.goto("/auth");
  await signInHere(page, account);
  await page.waitForURL("**/dashboard");
  return { page, close: () => context.close() };
}

test("an owner switches to the Team plan, invites two agents who join by e-mail, and the seats follow", async ({ page, browser }) => {
  // A whole team's first day in one journey: a dozen sign-ins and forms across four browsers.
  test.setTimeout(240_000);
  const owner = ACCOUNTS.teamOwner;
  const teamName = `Harbor Homes ${test.info().project.name}`;
  await page.goto("/auth");
  await signInHere(page, owner);
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" })).toHaveCount(0);

  await page.goto("/settings?tab=billing");
  await expect(page.getByRole("heading", { name: "Team plan" })).toBeVisible();
  await page.getByLabel("Team name").fill(teamName);
  // The switch says what it costs before it happens.
  await page.getByRole("button", { name: "Switch to the Team plan…" }).click();
  const confirmSwitch = page.getByRole("dialog", { name: "Switch to the Team plan?" });
  await expect(
    confirmSwitch.getByText("the Team plan costs $35 a seat per month, at least 2 seats: $70 a month instead of $40 a month", { exact: false }),
  ).toBeVisible();
  await axeCleanDialog(page, "the Team plan switch's confirmation");
  await look(page, "team-switch-dialog");
  await confirmSwitch.getByRole("button", { name: "Switch to the Team plan" }).click();
  await page.waitForURL("**/team");
  await expect(page.getByText(`${teamName} · 1 member · 2 seats paid`)).toBeVisible();

  const invite = page.getByRole("form", { name: "Invite a member" });
  for (const agent of [ACCOUNTS.teamAgentA, ACCOUNTS.teamAgentB]) {
    await invite.getByLabel("E-mail").fill(agent.email);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByRole("list", { name: "Pending invitations" }).getByText(agent.email)).toBeVisible();
  }
  await expectNoSideways(page);
  await axeClean(page, "/team");

  const a = await joinFromMailbox(browser, ACCOUNTS.teamAgentA, teamName, "10.121.0.1");
  await expect(a.page.getByText(`${teamName} · 2 members · 2 seats paid`)).toBeVisible();
  // On the team's plan, the agent has the whole app, and the team page has no invitations for them.
  await a.page.goto("/dashboard");
  await expect(a.page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await a.page.goto("/team");
  await expect(a.page.getByRole("form", { name: "Invite a member" })).toHaveCount(0);
  await expect(a.page.getByRole("button", { name: `Leave ${teamName}` })).toBeVisible();
  await a.close();

  const b = await joinFromMailbox(browser, ACCOUNTS.teamAgentB, teamName, "10.121.0.2");
  await axeClean(b.page, "/team as an agent");
  // An agent's team board has their own deals (and those shared with them); a teammate's board is not found; the
  // leaderboard keeps a teammate's agent net private.
  await b.page.goto("/team/pipeline");
  await expect(b.page.getByRole("heading", { name: "Your deals and those shared with you", level: 2 })).toBeVisible();
  expect((await b.page.goto(`/team/pipeline?agent=${ACCOUNTS.teamAgentA.id}`))?.status()).toBe(404);
  await b.page.goto("/team/leaderboard?period=last-12-months");
  // The phone gets a list and the desktop a table: one of the two shows.
  await expect(b.page.getByText("Amara Osei", { exact: true }).filter({ visible: true })).toBeVisible();
  await expect(b.page.getByText("Private", { exact: true }).filter({ visible: true }).first()).toBeVisible();
  await axeClean(b.page, "/team/leaderboard as an agent");
  await b.close();

  // The owner's leaderboard: Amara (demo data, with deals closed in the last 12 months) links to her Reports, and
  // every agent net shows.
  await page.goto("/team/leaderboard?period=last-12-months");
  await expect(page.getByRole("link", { name: "Amara Osei: reports" })).toBeVisible();
  await expect(page.getByText("Private", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Bea Lindqvist: reports" })).toBeVisible();
  await expectNoSideways(page);
  await axeClean(page, "/team/leaderboard");
  await page.getByRole("link", { name: "Amara Osei: reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports: Amara Osei", level: 1 })).toBeVisible();

  // The team pipeline: every member's open deals; the owner moves one of Amara's.
  await page.goto("/team/pipeline?view=list");
  const deals = page.getByRole("list", { name: "Open deals" });
  const item = deals.getByRole("listitem").filter({ hasText: "Amara Osei" }).first();
  const title = (await item.getByRole("heading", { level: 3 }).textContent())!;
  const current = await item.getByLabel("Move to").inputValue();
  const [target, targetName] = current === "offer" ? ["showing", "Showing"] : ["offer", "Offer"];
  await item.getByLabel("Move to").selectOption(target);
  await item.getByRole("button", { name: `Move ${title}` }).click();
  const moved = deals.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, level: 3 }) });
  await expect(moved.locator("dd").first()).toHaveText(targetName);
  await expectNoSideways(page);
  await axeClean(page, "/team/pipeline as a list");
  await page.goto(`/team/pipeline?agent=${ACCOUNTS.teamAgentA.id}`);
  await expect(page.getByRole("heading", { name: "Amara Osei's board", level: 2 })).toBeVisible();
  await expect(page.getByRole("article", { name: title })).toBeVisible();
  await axeClean(page, "/team/pipeline, an agent's board");

  // The team's pages are one tap away on a phone too: the header's More pages menu (the side rail from md up).
  await page.goto("/dashboard");
  if (test.info().project.name === "mobile") {
    await page.getByRole("button", { name: "More pages", exact: true }).click();
    await look(page, "team-more-menu");
  }
  await page.getByRole("link", { name: "Team", exact: true }).click();
  await page.waitForURL("**/team");
  await expect(page.getByText(`${teamName} · 3 members · 3 seats paid`)).toBeVisible();
  // The brokerage's default plan, for members without one of their own.
  const plan = page.getByRole("region", { name: "Team commission plan" });
  await plan.getByLabel("Brokerage split (%)").fill("20");
  await plan.getByLabel("Transaction fee").fill("500");
  await plan.getByRole("button", { name: "Save plan" }).click();
  await expect(page.getByText("Team plan saved", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Team commission plan" }).getByLabel("Brokerage split (%)")).toHaveValue("20");
  await expect(page.getByRole("list", { name: "Pending invitations" })).toHaveCount(0);
  // Removing a member asks first, and says what moves to whom; cancelled, nothing changes. Then ownership is offered
  // to Amara, and withdrawn.
  await page.getByRole("button", { name: "Remove Amara Osei from the team…" }).click();
  const removal = page.getByRole("dialog", { name: "Remove Amara Osei?" });
  await expect(removal.getByLabel("Amara Osei's data")).toHaveValue("");
  await expect(removal.getByRole("status")).toContainText("Amara Osei keeps their account and everything in it");
  await removal.getByLabel("Amara Osei's data").selectOption({ label: "Goes to you" });
  await expect(removal.getByRole("status")).toContainText("contacts");
  await expect(removal.getByRole("status")).toContainText("move to you");
  await expect(removal.getByRole("button", { name: "Remove and move their work to you" })).toBeVisible();
  await axeCleanDialog(page, "the removal's confirmation");
  await look(page, "team-remove-dialog");
  await removal.getByRole("button", { name: "Cancel" }).click();
  await expect(removal).toBeHidden();
  await expect(page.getByText(`${teamName} · 3 members · 3 seats paid`)).toBeVisible();
  const ownership = page.getByRole("region", { name: "Transfer ownership" });
  await ownership.getByLabel("New owner").selectOption({ label: "Amara Osei" });
  await ownership.getByRole("button", { name: "Offer ownership" }).click();
  await expect(ownership.getByText("Waiting for their answer.", { exact: false })).toBeVisible();
  await expectNoSideways(page);
  await axeClean(page, "/team with members and an ownership offer");
  await look(page, "team-page");
  await ownership.getByRole("button", { name: "Withdraw offer" }).click();
  await expect(page.getByText("Offer withdrawn", { exact: true }).first()).toBeVisible();
  await page.goto("/settings?tab=billing");
  await expect(page.getByText("To switch back to the Solo plan, remove the other members first.")).toBeVisible();

  // Team leads: first to claim. The owner adds two leads and assigns one to Amara; Bea claims the other below.
  const project = test.info().project.name;
  const [claimed, assigned, raced] = [`Priya Shah ${project}`, `Marco Ruiz ${project}`, `Lena Ortiz ${project}`];
  await page.goto("/team/leads");
  const distribution = page.getByRole("region", { name: "How new leads are distributed" });
  await distribution.getByLabel("Distribution").selectOption("claim");
  await distribution.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Lead settings saved", { exact: true }).first()).toBeVisible();
  for (const [name, phone] of [
    [claimed, "555-0142"],
    [assigned, "555-0143"],
    [raced, "555-0144"],
  ] as const) {
    const add = page.getByRole("form", { name: "Add a lead" });
    await add.getByLabel("Name").fill(name);
    await add.getByLabel("Source").selectOption({ label: "Open house" });
    await add.getByLabel("Phone").fill(phone);
    await add.getByRole("button", { name: "Add lead" }).click();
    await expect(page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name })).toBeVisible();
  }
  const toAssign = page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name: assigned });
  await toAssign.getByLabel(`Assign ${assigned} to`).selectOption({ label: "Amara Osei" });
  await toAssign.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByRole("list", { name: "Assigned leads" }).getByText(`${assigned} → Amara Osei`)).toBeVisible();
  // The website lead form: turned on, its address opened by a visitor who is not signed in; the enquiry waits here.
  const leadForm = page.getByRole("region", { name: "Website lead form" });
  await leadForm.getByRole("button", { name: "Turn the form on" }).click();
  const address = (await leadForm.getByRole("link", { name: /\/inquire\// }).textContent())!;
  const enquirer = `Nadia Brooks ${project}`;
  const visitor = await browser.newContext({
    extraHTTPHeaders: { "CF-Connecting-IP": "10.121.0.9" },
    viewport: test.info().project.use.viewport ?? undefined,
  });
  const form = await visitor.newPage();
  await form.goto(new URL(address).pathname);
  await expect(form.getByRole("heading", { name: `Contact ${teamName}`, level: 1 })).toBeVisible();
  await form.getByLabel("Name").fill(enquirer);
  await form.getByLabel("Phone").fill("555-0177");
  await form.getByLabel("What are you looking for? (optional)").fill("Two-bed condo near the river");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(form.getByText("I agree to be contacted", { exact: false })).toBeVisible();
  await expect(form.getByRole("alert")).toHaveText("Tick the box to let the team contact you about your enquiry.");
  await form.getByLabel(`I agree to be contacted by ${teamName} about my enquiry.`).check();
  await form.getByRole("button", { name: "Send" }).click();
  await expect(form.getByRole("status")).toContainText(`${teamName} has your message`);
  await expectNoSideways(form);
  await form.goto(new URL(address).pathname);
  await axeClean(form, "the team's lead form");
  await visitor.close();
  await page.reload();
  await expect(page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name: enquirer })).toContainText("Website");
  await expectNoSideways(page);
  await axeClean(page, "/team/leads");
  await look(page, "team-leads");

  // A shared deal: Amara adds Bea as a co-agent with 40 % of the side; Bea sees it on her Pipeline with her net.
  const amara = await signedIn(browser, ACCOUNTS.teamAgentA, "10.121.0.1");
  await amara.page.goto(`/team/pipeline?agent=${ACCOUNTS.teamAgentA.id}`);
  await amara.page.getByRole("article", { name: title }).getByRole("link", { name: title }).click();
  await expect(amara.page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  const coAgents = amara.page.getByRole("region", { name: "Co-agents" });
  await coAgents.getByLabel("Teammate").selectOption({ label: "Bea Lindqvist" });
  await coAgents.getByLabel("Share of the side (%)").fill("40");
  await coAgents.getByRole("button", { name: "Add co-agent" }).click();
  await expect(coAgents.getByText("40% of the side")).toBeVisible();
  await expect(coAgents.getByText("You keep 60%.")).toBeVisible();
  await expect(amara.page.getByRole("rowheader", { name: /Co-agents' shares/ })).toBeVisible();
  await expectNoSideways(amara.page);
  await axeClean(amara.page, "a shared deal's page");
  await amara.close();

  const bea = await signedIn(browser, ACCOUNTS.teamAgentB, "10.121.0.2");
  // Bea claims the offered lead: its phone shows once it is hers, in her Contacts.
  await bea.page.goto("/team/leads");
  const offered = bea.page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name: claimed });
  await expect(offered).toBeVisible();
  await expect(offered.getByText("555-0142")).toHaveCount(0);
  await axeClean(bea.page, "/team/leads as an agent");
  // A race Bea loses: while her page shows a lead, the owner gives it to Amara. Her claim is refused and the lead
  // leaves her list (no stale Claim button).
  const race = bea.page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name: raced });
  await expect(race.getByRole("button", { name: `Claim ${raced}` })).toBeVisible();
  await page.goto("/team/leads");
  const toAmara = page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name: raced });
  await toAmara.getByLabel(`Assign ${raced} to`).selectOption({ label: "Amara Osei" });
  await toAmara.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByRole("list", { name: "Assigned leads" }).getByText(`${raced} → Amara Osei`)).toBeVisible();
  await race.getByRole("button", { name: `Claim ${raced}` }).click();
  await expect(bea.page.getByText("Another agent has this lead already.", { exact: true }).first()).toBeVisible();
  await expect(bea.page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name: raced })).toHaveCount(0);
  await offered.getByRole("button", { name: `Claim ${claimed}` }).click();
  await expect(bea.page.getByText(`${claimed} is yours: find them in your Contacts.`, { exact: true }).first()).toBeVisible();
  await bea.page.goto("/contacts");
  await expect(bea.page.getByRole("link", { name: claimed }).filter({ visible: true }).first()).toBeVisible();

  await bea.page.goto("/pipeline");
  const shared = bea.page.getByRole("region", { name: "Shared with you" });
  await expect(shared.getByText(title, { exact: true })).toBeVisible();
  await expect(shared.getByText("Amara Osei's deal", { exact: false })).toBeVisible();
  await expect(shared.getByText("40% of the side")).toBeVisible();
  await expectNoSideways(bea.page);
  await axeClean(bea.page, "Pipeline with a shared deal");
  await bea.close();

  // The owner removes Bea and takes her work: the removal answers at once, and the Handovers card follows the job
  // that moves her rows (read again every 2 s while it runs) until it says what moved.
  await page.goto("/team");
  await page.getByRole("button", { name: "Remove Bea Lindqvist from the team…" }).click();
  const removeBea = page.getByRole("dialog", { name: "Remove Bea Lindqvist?" });
  await removeBea.getByLabel("Bea Lindqvist's data").selectOption({ label: "Goes to you" });
  await expect(removeBea.getByRole("status")).toContainText("move to you");
  await removeBea.getByRole("button", { name: "Remove and move their work to you" }).click();
  await expect(page.getByText("Member removed", { exact: true }).first()).toBeVisible();
  const handovers = page.getByRole("region", { name: "Handovers" });
  await expect(handovers.getByText(/^Bea Lindqvist's work to /)).toBeVisible();
  await expect(handovers.getByText(/^Done: .*contacts?.* moved\.$/)).toBeVisible({ timeout: 30_000 });
  await expectNoSideways(page);
  await axeClean(page, "/team with a handover's result");
  await look(page, "team-handover");
});

test("a Solo account has no team page and no team link", async ({ page }) => {
  await page.goto("/auth");
  await signInHere(page, ACCOUNTS.teamSolo);
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("link", { name: "Team", exact: true })).toHaveCount(0);
  for (const name of ["Team pipeline", "Team leads", "Leaderboard"]) await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
  for (const path of ["/team/pipeline", "/team/leads", "/team/leaderboard"]) expect((await page.goto(path))?.status(), path).toBe(404);
  const response = await page.goto("/team");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404", level: 1 })).toBeVisible();
});
