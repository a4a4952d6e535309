import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, nyDay, signIn, test } from "./fixtures";

// Tasks (lists, quick add, complete/undo, repeat, calendar), timelines on contacts and deals, the
// recent-activity feed and the private calendar feed, as an agent uses them. Accounts use the default
// timezone, America/New_York, so "today" is computed there.

async function post(page: Page, path: string, form: Record<string, string>) {
  // A fresh connection each time: a kept-alive one that the local server has just closed resets the request.
  const response = await page.request.post(path, { form, headers: { Origin: new URL(page.url()).origin, Connection: "close" } });
  expect(response.status()).toBe(200);
  return response;
}
const createTask = (page: Page, fields: Record<string, string>) =>
  post(page, "/tasks", { intent: "create", type: "call", priority: "medium", dueTime: "", repeat: "", ...fields });
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const undo = (page: Page) => page.getByRole("button", { name: "Undo" }).first();

test("quick add reads the date, and a task is completed, undone, edited, deleted and restored", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksQuick);
  await page.goto("/tasks?view=upcoming");
  await expect(page.getByText("No tasks coming up.")).toBeVisible();
  const box = page.getByLabel("Quick add a task");
  await expect(page.getByRole("button", { name: "Add task" })).toBeDisabled();
  await box.fill("Call Jane Park tomorrow 3pm");
  await expect(page.getByText("Call: “Call Jane Park”, due Tomorrow 3:00 PM")).toBeVisible();
  await box.press("Enter");
  await expect(toastText(page, "Task added")).toBeVisible();
  await expect(box).toHaveValue("");
  const list = page.getByRole("list", { name: "Upcoming tasks" });
  const row = list.getByRole("listitem").filter({ hasText: "Call Jane Park" });
  await expect(row).toContainText("Due Tomorrow 3:00 PM");
  await expect(page.getByRole("link", { name: /Upcoming/ })).toContainText("1");

  // Bad input in the full form: a clear message and nothing saved.
  await page.getByRole("button", { name: "New task" }).click();
  const dialog = page.getByRole("dialog", { name: "Add task" });
  await dialog.getByLabel("Title").fill("   ");
  await dialog.getByRole("button", { name: "Add task" }).click();
  await expect(dialog.getByText("Enter a task title.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(1);

  // Complete, then undo.
  await page.getByRole("button", { name: "Complete task: Call Jane Park" }).click();
  await expect(toastText(page, "Task completed")).toBeVisible();
  await expect(page.getByText("No tasks coming up.")).toBeVisible();
  await undo(page).click();
  await expect(toastText(page, "Task reopened")).toBeVisible();
  await expect(row).toBeVisible();

  // Edit: move it to a later day with another time and priority.
  await page.getByRole("button", { name: "Edit task: Call Jane Park" }).click();
  const edit = page.getByRole("dialog", { name: "Edit task" });
  await edit.getByLabel("Due date").fill(nyDay(5));
  await edit.getByLabel("Time (optional)").fill("09:30");
  await edit.getByLabel("Priority").selectOption("high");
  await edit.getByRole("button", { name: "Save task" }).click();
  await expect(toastText(page, "Task saved")).toBeVisible();
  await expect(row).toContainText("9:30 AM");
  await expect(row).toContainText("High");

  // Delete, then undo.
  await page.getByRole("button", { name: "Delete task: Call Jane Park" }).click();
  await expect(toastText(page, "Task deleted")).toBeVisible();
  await expect(page.getByText("No tasks coming up.")).toBeVisible();
  await undo(page).click();
  await expect(toastText(page, "Task restored")).toBeVisible();
  await expect(row).toContainText("High");
});

test("overdue, today and completed lists, and the month and week calendar with a repeating task", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksCalendar);
  await createTask(page, { title: "Send disclosures", dueDate: nyDay(-2) });
  await createTask(page, { title: "Open house prep", dueDate: nyDay(0) });
  await createTask(page, { title: "Weekly market email", type: "email", dueDate: nyDay(1), dueTime: "08:00", repeat: "weekly" });
  await page.goto("/tasks?view=overdue");
  await expect(page.getByRole("list", { name: "Overdue tasks" })).toContainText("Send disclosures");
  await expect(page.getByRole("list", { name: "Overdue tasks" }).getByText(/^Overdue: /)).toBeVisible();
  await page.getByRole("link", { name: /Today/ }).first().click();
  await expect(page.getByRole("list", { name: "Today tasks" })).toContainText("Open house prep");

  await page.getByRole("link", { name: "Month" }).click();
  await expect(page).toHaveURL(/view=month/);
  // Tomorrow's month: on the last day of a month ending on a Saturday, this month's grid has no cell for it.
  await page.goto(`/tasks?view=month&date=${nyDay(1)}`);
  // Tomorrow's cell names what it holds; choosing it lists the day's tasks below the month.
  await page.getByRole("link", { name: /Tomorrow: 1 open task/ }).click();
  await expect(page.getByRole("heading", { name: /Tomorrow$/ })).toBeVisible();
  const day = page.getByRole("list", { name: "Tasks on Tomorrow" });
  await expect(day).toContainText("Weekly market email");
  await expect(day).toContainText("Every week");

  await page.getByRole("link", { name: "Week", exact: true }).click();
  await page.goto(`/tasks?view=week&date=${nyDay(1)}`);
  await expect(page.getByRole("list", { name: "Tasks on Tomorrow" })).toContainText("Weekly market email");
  // Completing the repeating task schedules the next one a week later.
  await page.getByRole("button", { name: "Complete task: Weekly market email" }).click();
  await expect(toastText(page, "Task completed")).toBeVisible();
  await page.goto("/tasks?view=upcoming");
  const upcoming = page.getByRole("list", { name: "Upcoming tasks" });
  await expect(upcoming.getByRole("listitem").filter({ hasText: "Weekly market email" })).toHaveCount(1);
  await expect(upcoming).not.toContainText("Tomorrow 8:00 AM");
  await page.goto("/tasks?view=completed");
  await expect(page.getByRole("list", { name: "Completed tasks" })).toContainText("Weekly market email");
});

test("tasks and activities on a contact and a deal; the recent-activity feed", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksLinked);
  await post(page, "/contacts?index", { intent: "create", name: "Noor Haddad", email: "noor@example.com" });
  await page.goto("/contacts");
  await page.getByRole("link", { name: "Noor Haddad" }).first().click();
  await expect(page.getByRole("heading", { name: "Noor Haddad" })).toBeVisible();
  const contactUrl = page.url();

  await page.getByLabel("Quick add a task for this contact").fill("Call Noor about financing friday 10am");
  await page.getByLabel("Quick add a task for this contact").press("Enter");
  await expect(toastText(page, "Task added")).toBeVisible();
  const tasks = page.getByRole("list", { name: "Tasks" });
  await expect(tasks).toContainText("Call Noor about financing");

  // Complete it and log what happened.
  await page.getByRole("button", { name: "Complete and log activity…" }).click();
  const log = page.getByRole("dialog", { name: "Complete and log activity" });
  await expect(log.getByLabel("Activity")).toHaveValue("call");
  await log.getByLabel("Outcome (optional)").fill("Left voicemail");
  await log.getByRole("button", { name: "Complete and log" }).click();
  await expect(toastText(page, "Task completed")).toBeVisible();
  const timeline = page.getByRole("list", { name: "Activity timeline" });
  await expect(timeline.getByRole("listitem").first()).toContainText("Call · Left voicemail");

  // An e-mail task logs an e-mail by default, every time the dialog opens, whatever was picked before.
  await page.getByLabel("Quick add a task for this contact").fill("Email Noor the lender list friday");
  await page.getByLabel("Quick add a task for this contact").press("Enter");
  await expect(tasks).toContainText("Email Noor the lender list");
  await page.getByRole("button", { name: "Complete and log activity…" }).click();
  await expect(log.getByLabel("Activity")).toHaveValue("email_sent");
  await log.getByLabel("Activity").selectOption("call");
  await log.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Complete and log activity…" }).click();
  await expect(log.getByLabel("Activity")).toHaveValue("email_sent");
  await log.getByRole("button", { name: "Cancel" }).click();
  // Edited into a showing: the dialog follows the task's kind as it is now.
  await page.getByRole("button", { name: "Edit task: Email Noor the lender list" }).click();
  const editDialog = page.getByRole("dialog", { name: "Edit task" });
  await editDialog.getByLabel("Type").selectOption("showing");
  await editDialog.getByRole("button", { name: "Save task" }).click();
  await expect(toastText(page, "Task saved")).toBeVisible();
  await page.getByRole("button", { name: "Complete and log activity…" }).click();
  await expect(log.getByLabel("Activity")).toHaveValue("showing");
  await log.getByRole("button", { name: "Cancel" }).click();

  // Log a showing by hand; bad input first.
  await page.getByRole("button", { name: "Log activity", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Log activity" });
  await dialog.getByLabel("What happened").selectOption("showing");
  await dialog.getByLabel("Date").fill("");
  await dialog.getByRole("button", { name: "Log activity", exact: true }).click();
  await expect(dialog.getByText("Choose a due date.").or(dialog.getByText("Choose a date."))).toBeVisible();
  await dialog.getByLabel("Date").fill(nyDay(-1));
  await dialog.getByLabel("Time").fill("18:00");
  await dialog.getByLabel("Outcome (optional)").fill("Loved the kitchen");
  await dialog.getByRole("button", { name: "Log activity", exact: true }).click();
  await expect(toastText(page, "Activity logged")).toBeVisible();
  // Newest first: yesterday's showing comes after today's call.
  await expect(timeline.getByRole("listitem").nth(1)).toContainText("Showing · Loved the kitchen");
  await expect(timeline.getByRole("listitem").nth(1)).toContainText("6:00 PM");
  await expect(page.getByText(/last activity/)).toBeVisible();

  // Filter by type.
  await page.getByLabel("Show", { exact: true }).selectOption("offer");
  await expect(page.getByText("No offer activity yet.")).toBeVisible();
  await page.getByLabel("Show", { exact: true }).selectOption("call");
  await expect(timeline.getByRole("listitem")).toHaveCount(1);

  // A deal of this contact: its own tasks and timeline; activity there shows on the contact too.
  await post(page, "/pipeline?index", {
    intent: "create",
    title: "22 Cedar Court",
    stage: "showing",
    dealValueCents: "450000",
    contactId: contactUrl.split("/").pop()!,
  });
  await page.goto("/pipeline?view=list");
  await page.getByRole("link", { name: "22 Cedar Court" }).click();
  await page.getByLabel("Quick add a task for this deal").fill("Order inspection tomorrow");
  await page.getByLabel("Quick add a task for this deal").press("Enter");
  await expect(page.getByRole("list", { name: "Tasks" })).toContainText("Order inspection");
  await page.getByRole("button", { name: "Log activity", exact: true }).click();
  await page.getByRole("dialog", { name: "Log activity" }).getByLabel("What happened").selectOption("offer");
  await page.getByRole("dialog", { name: "Log activity" }).getByLabel("Outcome (optional)").fill("Offer at asking");
  await page.getByRole("dialog", { name: "Log activity" }).getByRole("button", { name: "Log activity", exact: true }).click();
  await expect(page.getByRole("list", { name: "Activity timeline" }).getByRole("listitem").first()).toContainText("Offer · Offer at asking");

  await page.goto("/activities");
  const feed = page.getByRole("region", { name: "Activity feed" });
  await expect(feed.getByRole("listitem")).toHaveCount(3);
  await expect(feed.getByRole("listitem").first()).toContainText("Offer at asking");
  await expect(feed).toContainText("22 Cedar Court");
  await page.getByLabel("Show", { exact: true }).selectOption("showing");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(feed.getByRole("listitem")).toHaveCount(1);
});

test("the private calendar feed: made in Settings, valid iCalendar, replaced and turned off", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksFeed);
  await createTask(page, { title: "Showing at 9 Elm", type: "showing", dueDate: nyDay(2), dueTime: "16:30" });
  await page.goto("/settings");
  await page.getByRole("button", { name: "Make my feed address" }).click();
  const address = page.getByLabel("Your private address (shown only now)");
  await expect(address).toHaveValue(/\/api\/calendar\/[\w-]{40,}\.ics$/);
  const url = await address.inputValue();
  const feed = await page.request.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toContain("text/calendar");
  const text = await feed.text();
  expect(text).toMatch(/^BEGIN:VCALENDAR/);
  expect(text).toContain("SUMMARY:Showing at 9 Elm");

  // After a reload the address is not shown again, only that a feed is active.
  await page.reload();
  await expect(page.getByText(/A feed address made on .* is active/)).toBeVisible();
  await page.getByRole("button", { name: "Make a new address" }).click();
  const second = await address.inputValue();
  expect(second).not.toBe(url);
  expect((await page.request.get(url)).status()).toBe(404);
  expect((await page.request.get(second)).status()).toBe(200);
  await page.getByRole("button", { name: "Turn the feed off" }).click();
  await expect(toastText(page, "Calendar feed turned off")).toBeVisible();
  expect((await page.request.get(second)).status()).toBe(404);
});

test("task pages have no WCAG 2.2 AA violations in light and dark", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.a11yTasks);
  await createTask(page, { title: "Overdue call", dueDate: nyDay(-1) });
  await createTask(page, { title: "Weekly report", dueDate: nyDay(1), dueTime: "09:00", repeat: "weekly", priority: "high" });
  const check = async (label: string) => {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  };
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const path of ["/tasks?view=overdue", "/tasks?view=upcoming", "/tasks?view=month", "/tasks?view=week", "/activities", "/settings"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(new RegExp(theme === "dark" ? "dark" : "^(?!.*dark)"));
      await check(`${path} (${theme})`);
    }
    await page.goto("/tasks?view=upcoming");
    await page.getByRole("button", { name: "New task" }).click();
    await expect(page.getByRole("dialog", { name: "Add task" })).toBeVisible();
    await check(`add task dialog (${theme})`);
  }
});

test("the calendar and lists fit the screen, a phone's included", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksPhone);
  await createTask(page, { title: "A task with a rather long title to see that it wraps on a small screen", dueDate: nyDay(0) });
  for (const path of ["/tasks", "/tasks?view=month", "/tasks?view=week"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test("a quick add whose answer never came, sent again after a reload, adds the task once", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksQuick);
  await page.goto("/tasks?view=upcoming");
  const name = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => String.fromCharCode(97 + (b % 26))).join("");
  const text = `Call Rory ${name} tomorrow 9am`;
  const rows = page
    .getByRole("list", { name: "Upcoming tasks" })
    .getByRole("listitem")
    .filter({ hasText: `Call Rory ${name}` });
  // The first send reaches the server, which adds the task, but its answer never reaches the page (a spinner that
  // does not stop); the agent reloads and sends the same line again.
  let reached!: () => void;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  let held = false;
  await page.route(/\/tasks(\.data)?(\?|$)/, async (route) => {
    if (route.request().method() !== "POST" || held) return route.continue();
    held = true;
    await route.fetch();
    reached();
    // The page's own request is never answered (the reload ends it).
    await new Promise(() => {});
  });
  const box = page.getByLabel("Quick add a task");
  await box.fill(text);
  await box.press("Enter");
  await atServer;
  await expect(page.getByRole("button", { name: "Add task" })).toHaveAttribute("aria-busy", "true");
  await page.reload();
  await expect(rows).toHaveCount(1);
  await box.fill(text);
  await box.press("Enter");
  // The server knew the submission: the first task is the answer, and it is there once.
  await expect(toastText(page, "Task added")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(rows).toHaveCount(1);
});

test("quick add links the contact it names and shows where a task for another day went", async ({ page }) => {
  await signIn(page, ACCOUNTS.tasksQuick);
  await post(page, "/contacts?index", { intent: "create", name: "Priya Shah", email: "priya.shah@example.com" });
  await page.goto("/tasks");
  await expect(page.getByRole("heading", { name: "Today", exact: true })).toBeVisible();
  const box = page.getByLabel("Quick add a task");
  await box.fill("call Priya tomorrow 3pm");
  await box.press("Enter");

  // Tomorrow's task is not left out of sight on Today: the page goes to Upcoming and marks it.
  await expect(page).toHaveURL(/view=upcoming&added=/);
  await expect(toastText(page, "Linked to Priya Shah. It is in Upcoming.")).toBeVisible();
  const row = page.getByRole("list", { name: "Upcoming tasks" }).getByRole("listitem").filter({ hasText: "Call Priya" });
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute("data-added", "");
  await expect(row.getByRole("link", { name: "Priya Shah" })).toBeVisible();

  // The one clear match was linked; the agent can undo that, and take it back.
  const panel = page.getByRole("group", { name: "Contact for the new task" });
  await expect(panel).toContainText("“Call Priya” is linked to Priya Shah.");
  await panel.getByRole("button", { name: "Unlink" }).click();
  await expect(toastText(page, "Contact unlinked")).toBeVisible();
  await expect(row.getByRole("link", { name: "Priya Shah" })).toHaveCount(0);
  await panel.getByRole("button", { name: "Link to Priya Shah" }).click();
  await expect(toastText(page, "Linked to Priya Shah")).toBeVisible();
  await expect(row.getByRole("link", { name: "Priya Shah" })).toBeVisible();
  await panel.getByRole("button", { name: "Dismiss" }).click();
  await expect(panel).toHaveCount(0);

  // Two Priyas: nothing is guessed; the agent picks one.
  await post(page, "/contacts?index", { intent: "create", name: "Priya Patel", email: "priya.patel@example.com" });
  await box.fill("text Priya");
  await box.press("Enter");
  await expect(page).toHaveURL(/view=today&added=/);
  const today = page.getByRole("list", { name: "Today tasks" }).getByRole("listitem").filter({ hasText: "Text Priya" });
  await expect(today).toBeVisible();
  await expect(panel).toContainText("Several contacts match “Text Priya”:");
  await panel.getByRole("button", { name: "Link to Priya Patel" }).click();
  await expect(today.getByRole("link", { name: "Priya Patel" })).toBeVisible();
});
