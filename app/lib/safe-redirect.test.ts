import { describe, expect, it } from "vitest";
import { OPEN_REDIRECT_TRICKS } from "../../tests/factories/open-redirect-tricks";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths, with their query and fragment", () => {
    expect(safeRedirect("/contacts?highlight=1")).toBe("/contacts?highlight=1");
    expect(safeRedirect("/deals/abc#notes")).toBe("/deals/abc#notes");
    expect(safeRedirect("/contacts?q=a b")).toBe("/contacts?q=a%20b");
    expect(safeRedirect("/trial/start")).toBe("/trial/start");
  });

  it("never lets a known open-redirect trick off the site", () => {
    for (const trick of OPEN_REDIRECT_TRICKS) {
      const to = safeRedirect(trick);
      // Whatever comes out is a plain path: one slash, no second slash or backslash, nothing a header cannot hold.
      expect(to, JSON.stringify(trick)).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
      expect(new URL(to, "https://porchlight.app").origin, JSON.stringify(trick)).toBe("https://porchlight.app");
    }
  });

  it("falls back on the tricks that are not plain paths at all", () => {
    for (const trick of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example/x",
      "/\r\n/evil.example",
      "/%2e%2e//evil.example",
      "/..//evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "\uff0f\uff0fevil.example",
      "/\u2028/evil.example",
    ]) {
      expect(safeRedirect(trick), JSON.stringify(trick)).toBe("/dashboard");
    }
    for (const value of [null, undefined, "", "x".repeat(2001)]) expect(safeRedirect(value)).toBe("/dashboard");
    expect(safeRedirect("//evil.example", "/trial/start")).toBe("/trial/start");
  });
});
