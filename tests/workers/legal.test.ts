import { describe, expect, it } from "vitest";
import { TestBrowser } from "../factories/browser";

/** The page as text: without React's text-boundary comments and with apostrophes decoded. */
const pageText = async (path: string) => (await (await new TestBrowser().get(path)).text()).replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");

describe("legal pages", () => {
  it("state the business constants and their real revision date", async () => {
    const terms = await pageText("/terms");
    // Revised when it began saying what happens to the data of a lapsed subscription and a deleted account.
    expect(terms).toContain("Last updated Nov 25, 2026");
    for (const fact of [
      "one free trial of 14 days",
      "$40 per month",
      "$384 per year",
      "30 days' notice",
      "kept for 30 days",
      "within 30 days of the charge",
      "12 months",
      "the State of Delaware",
      "end of the billing period",
    ]) {
      expect(terms, fact).toContain(fact);
    }
    const privacy = await pageText("/privacy");
    expect(terms).toContain("When you delete your account, your data is kept for 30 days");
    expect(privacy).toContain("Last updated Nov 25, 2026");
    expect(privacy).toContain("kept for up to 90 days");
    expect(privacy).toContain("never stored by us");
    for (const html of [terms, privacy]) {
      expect(html).toContain('aria-label="Breadcrumb"');
      expect(html).toContain("Back to Home");
    }
  });
});
