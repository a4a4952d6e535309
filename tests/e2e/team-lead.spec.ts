import { ACCOUNTS, expect, expectNoSideways, expectNoViolationsInBothThemes, signedInAt, test } from "./fixtures";

// A team lead's day one (a seeded team: Lena owns it, Omar is an admin, Ivy an agent with the demo book): the owner lets
// admins see every member's contacts (and finds the change in the audit log), the admin opens Ivy's contact with its
// timeline and tasks, and the team board shows everyone's deals in the team's stages with whose each is. At 375 and 1280 px, axe clean in light and dark.

for (const width of [375, 1280]) {
  test(`at ${width} px: the owner lets admins see members' contacts, an admin opens an agent's contact, and the team board`, async ({ browser }) => {
    test.setTimeout(120_000);
    const owner = await signedInAt(browser, ACCOUNTS.leadOwner, width);
    await owner.page.goto("/team");
    const setting = owner.page.getByRole("region", { name: "Members' contacts" });
    await setting.getByRole("radio", { name: /See every member's contacts/ }).check();
    await setting.getByRole("button", { name: "Save" }).click();
    await expect(owner.page.getByText("What the owner and admins may do with members' contacts.", { exact: true }).first()).toBeVisible();
    await expect(setting.getByRole("radio", { name: /See every member's contacts/ })).toBeChecked();
    await expectNoSideways(owner.page);
    await expectNoViolationsInBothThemes(owner.page, "team lead team page, owner");
    // The change is in the team's audit log, with who made it.
    await owner.page.goto("/team/audit");
    await expect(
      owner.page
        .getByRole("list", { name: "Audit log, newest first" })
        .getByText("Lena Lakeside changed what admins may do with members' contacts from only what is shared to see them"),
    ).toBeVisible();
    await expectNoSideways(owner.page);
    await expectNoViolationsInBothThemes(owner.page, "team lead audit log");
    await owner.close();

    const admin = await signedInAt(browser, ACCOUNTS.leadAdmin, width);
    await admin.page.goto("/team");
    await admin.page.getByRole("link", { name: "Team contacts" }).click();
    await expect(admin.page.getByRole("heading", { name: "Team contacts", level: 1 })).toBeVisible();
    await admin.page.getByLabel("Agent").selectOption({ label: "Ivy Agent" });
    await admin.page.getByRole("button", { name: "Show contacts" }).click();
    const list = admin.page.getByRole("list", { name: "Ivy Agent's contacts" });
    await expect(list.getByRole("link", { name: /Priya Lindqvist/ })).toBeVisible();
    await expectNoSideways(admin.page);
    await expectNoViolationsInBothThemes(admin.page, "team lead team contacts");
    await list.getByRole("link", { name: /Priya Lindqvist/ }).click();
    await expect(admin.page.getByRole("heading", { name: "Priya Lindqvist", level: 1 })).toBeVisible();
    await expect(admin.page.getByText("Ivy Agent's contact · you can see it")).toBeVisible();
    await expect(admin.page.getByRole("list", { name: "Activity timeline" }).getByRole("listitem").first()).toBeVisible();
    // Seeing is not editing: no edit, log or task forms.
    await expect(admin.page.getByRole("link", { name: "Edit details" })).toHaveCount(0);
    await expect(admin.page.getByRole("heading", { name: "Log an activity" })).toHaveCount(0);
    await expectNoSideways(admin.page);
    await expectNoViolationsInBothThemes(admin.page, "team lead an agent's contact, admin");

    // The team board: everyone's deals in the team's stages, each card naming its agent.
    await admin.page.goto("/team/pipeline");
    await expect(admin.page.getByRole("heading", { name: "The team's board", level: 2 })).toBeVisible();
    const card = admin.page.getByRole("article", { name: "14 Birch Lane purchase" });
    await expect(card).toBeVisible();
    await expect(card.getByText("Ivy Agent", { exact: true })).toBeVisible();
    await expect(admin.page.getByRole("heading", { name: /^Offer/, level: 2 })).toBeVisible();
    await expectNoViolationsInBothThemes(admin.page, "team lead team board");
    await admin.close();
  });
}
