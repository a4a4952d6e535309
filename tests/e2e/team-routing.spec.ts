import { randomBytes } from "node:crypto";
import { ACCOUNTS, expect, expectNoViolationsInBothThemes, signedInAt, test } from "./fixtures";

// Lead routing (ADR 0078) on the seeded team (Lena owns Lakeside Lead Realty, Ivy is an agent, Ian its ISA): the owner
// adds the rule "Zillow → Ivy Agent" (or finds it from an earlier run: the spec runs at 375 and 1280 px on one database),
// a Zillow lead added on the Team leads page lands with Ivy by that rule, and Ivy sees it as hers. The ISA (ADR 0080)
// adds a referral, claims it and hands it to Ivy. axe clean in light and dark.

const RULE = /^Rule \d+: Zillow → Ivy Agent$/;

for (const width of [375, 1280]) {
  test(`at ${width} px: the owner routes Zillow leads to Ivy, and a Zillow lead lands with her`, async ({ browser }) => {
    test.setTimeout(120_000);
    const owner = await signedInAt(browser, ACCOUNTS.leadOwner, width);
    await owner.page.goto("/team/leads");
    await owner.page.getByRole("link", { name: "Routing rules" }).click();
    await expect(owner.page.getByRole("heading", { name: "Lead routing", level: 1 })).toBeVisible();
    const rules = owner.page.getByRole("list", { name: "Rules in order" });
    const existing = rules.getByRole("paragraph").filter({ hasText: RULE });
    if ((await existing.count()) === 0) {
      await owner.page.getByText("Add a rule", { exact: true }).click();
      const form = owner.page.getByRole("form", { name: "Add a rule" });
      await form.getByRole("checkbox", { name: "Zillow", exact: true }).check();
      await form.getByRole("radio", { name: "One agent" }).check();
      await form.getByLabel("The agent (one agent)").selectOption({ label: "Ivy Agent" });
      await form.getByRole("button", { name: "Add rule" }).click();
      await expect(owner.page.getByText("Rule added", { exact: true })).toBeVisible();
    }
    const rule = (await rules.getByRole("paragraph").filter({ hasText: RULE }).first().innerText()).match(/^Rule (\d+)/)![1];
    await expectNoViolationsInBothThemes(owner.page, "routing rules");

    // A Zillow lead, added on the Team leads page.
    const name = `Zoe Zillow ${width} ${randomBytes(3).toString("hex")}`;
    await owner.page.goto("/team/leads");
    const add = owner.page.getByRole("form", { name: "Add a lead" });
    await add.getByLabel("Name").fill(name);
    await add.getByLabel("Source").selectOption({ label: "Zillow" });
    await add.getByLabel("Phone").fill("512-555-0142");
    await add.getByLabel("Property address").fill("12 Elm St, Austin, TX 78723");
    await add.getByRole("button", { name: "Add lead" }).click();
    const assigned = owner.page.getByRole("list", { name: "Assigned leads" }).getByRole("listitem", { name });
    await expect(assigned).toContainText(`${name} → Ivy Agent`);
    await expect(assigned).toContainText(`Rule ${rule}: Zillow → Ivy Agent`);
    await expectNoViolationsInBothThemes(owner.page, "routing leads");
    await owner.close();

    // Ivy has it: on the leads page as hers, and among her contacts.
    const ivy = await signedInAt(browser, ACCOUNTS.leadAgent, width);
    await ivy.page.goto("/team/leads");
    await expect(ivy.page.getByRole("list", { name: "Assigned leads" }).getByRole("listitem", { name })).toContainText(`${name} → you`);
    await ivy.page.goto("/team/routing");
    await expect(ivy.page.getByRole("list", { name: "Rules in order" })).toContainText("Zillow → Ivy Agent");
    await expect(ivy.page.getByText("Add a rule", { exact: true })).toHaveCount(0);
    await expectNoViolationsInBothThemes(ivy.page, "routing agent rules");
    await ivy.close();
  });
}

for (const width of [375, 1280]) {
  test(`at ${width} px: the ISA claims a lead and hands it to Ivy, with no team deals of their own to see`, async ({ browser }) => {
    const isa = await signedInAt(browser, ACCOUNTS.leadIsa, width);
    await isa.page.goto("/team/leads");
    await expect(isa.page.getByText("You are the team's inside sales agent")).toBeVisible();
    const name = `Ray Referral ${width} ${randomBytes(3).toString("hex")}`;
    const add = isa.page.getByRole("form", { name: "Add a lead" });
    await add.getByLabel("Name").fill(name);
    await add.getByLabel("Source").selectOption({ label: "Referral" });
    await add.getByLabel("Phone").fill("512-555-0177");
    await add.getByRole("button", { name: "Add lead" }).click();
    // No rule matches a referral: it waits in the pond, with its phone for the ISA to call.
    const waiting = isa.page.getByRole("list", { name: "Waiting leads" }).getByRole("listitem", { name });
    await expect(waiting).toContainText("512-555-0177");
    await waiting.getByRole("button", { name: `Claim ${name}` }).click();
    const assigned = isa.page.getByRole("list", { name: "Assigned leads" }).getByRole("listitem", { name });
    await expect(assigned).toContainText(`${name} → you`);
    await expectNoViolationsInBothThemes(isa.page, "ISA leads");
    await assigned.getByLabel(`Hand ${name} to`).selectOption({ label: "Ivy Agent" });
    await assigned.getByRole("button", { name: "Hand to agent" }).click();
    await expect(isa.page.getByRole("list", { name: "Assigned leads" }).getByRole("listitem", { name })).toContainText(`${name} → Ivy Agent`);
    await expect(isa.page.getByRole("list", { name: "Assigned leads" }).getByRole("listitem", { name })).toContainText(
      "Handed on by Ian Isa (inside sales)",
    );
    // The team's deals are not an ISA's: no team pipeline in the menu, and the page is not there.
    if (width >= 1280) await expect(isa.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team pipeline" })).toHaveCount(0);
    expect((await isa.page.goto("/team/pipeline"))?.status()).toBe(404);
    await isa.close();
  });
}
