import { ACCOUNTS, expect, signIn, test } from "./fixtures";

// The Content-Security-Policy forbids eval. zod v4 used to probe `new Function` to compile fast parsers, which
// the browser reported as a CSP violation on every page that loads a schema (Lighthouse best-practices 96).
// app/lib/zod.ts sets zod jitless before any schema is built; this holds it on the pages that parse input.

test("pages that validate input in the browser cause no CSP violation", async ({ page, context }) => {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

  await page.goto("/auth");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Please enter a valid email address.").first()).toBeVisible();
  expect(await violations()).toEqual([]);

  await signIn(page, ACCOUNTS.csp);
  for (const path of ["/contacts", "/tasks", "/pipeline", "/settings", "/ai-assistant"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    expect(await violations(), path).toEqual([]);
  }
});
