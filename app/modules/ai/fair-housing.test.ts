import { describe, expect, it } from "vitest";
import type { FairHousingFlag } from "./draft-types";
import { applySuggestion, checkFairHousing } from "./fair-housing";

const flagged = (text: string) => checkFairHousing(text).map((f) => f.phrase.toLowerCase());

describe("checkFairHousing: each category is flagged with a reason and a suggestion", () => {
  const cases: [FairHousingFlag["category"], string, string][] = [
    ["familial_status", "This home is perfect for families.", "perfect for families"],
    ["familial_status", "Ideal for a young couple starting out.", "ideal for a young couple"],
    ["familial_status", "Quiet building, no children.", "no children"],
    ["familial_status", "Adults only community.", "adults only"],
    ["familial_status", "Empty nesters will love the single level.", "empty nesters"],
    ["familial_status", "A lovely family neighborhood.", "family neighborhood"],
    ["familial_status", "Family-friendly street.", "family-friendly"],
    ["religion", "Near churches and shops.", "near churches"],
    ["religion", "Walking distance to synagogue.", "walking distance to synagogue"],
    ["religion", "In a Christian community.", "christian community"],
    ["race_color_national_origin", "An integrated neighborhood.", "integrated neighborhood"],
    ["race_color_national_origin", "Close to ethnic restaurants.", "ethnic"],
    ["race_color_national_origin", "In a Hispanic neighborhood.", "hispanic neighborhood"],
    ["race_color_national_origin", "English-speaking only.", "english-speaking only"],
    ["disability", "No wheelchairs, please.", "no wheelchairs"],
    ["disability", "Able-bodied tenants preferred.", "able-bodied"],
    ["disability", "Not for the mentally ill.", "mentally ill"],
    ["disability", "Handicapped ramp at the side door.", "handicapped"],
    ["sex", "Ideal for a single man.", "ideal for a single man"],
    ["sex", "The ultimate bachelor pad.", "bachelor pad"],
    ["age", "Popular with young professionals.", "young professionals"],
    ["age", "Perfect for retirees.", "perfect for retirees"],
    ["steering", "Located in an exclusive neighborhood.", "exclusive neighborhood"],
    ["steering", "A safe neighborhood close to parks.", "safe neighborhood"],
    ["steering", "A desirable neighborhood.", "desirable neighborhood"],
    ["steering", "Close to good schools.", "good schools"],
  ];

  it.each(cases)("%s: %s", (category, text, phrase) => {
    const flags = checkFairHousing(text);
    const flag = flags.find((f) => f.phrase.toLowerCase() === phrase);
    expect(flag, JSON.stringify(flags)).toBeDefined();
    expect(flag?.category).toBe(category);
    expect(flag?.reason).toMatch(/^["A-Z].+\.$/);
    expect(typeof flag?.suggestion).toBe("string");
    expect(text.slice(flag!.index, flag!.index + flag!.phrase.length)).toBe(flag!.phrase);
    // Applying the suggestion leaves no flag of that phrase behind.
    const fixed = applySuggestion(text, flag!);
    expect(flagged(fixed)).not.toContain(phrase);
  });

  it("suggests describing the property: 'handicapped' becomes 'accessible', 'perfect for families' a description of the space", () => {
    expect(checkFairHousing("Handicapped accessible entry.")[0]?.suggestion).toBe("accessible");
    expect(checkFairHousing("Perfect for families.")[0]?.suggestion).toBe("roomy and flexible");
    expect(checkFairHousing("Families will love it.")[0]?.suggestion).toBe("buyers");
    expect(checkFairHousing("A safe neighborhood.")[0]?.suggestion).toBe("neighborhood");
  });
});

describe("checkFairHousing: no false positives", () => {
  it.each([
    "Cozy family room with a fireplace and built-ins.",
    "Minutes from Fairfax County offices and the Metro.",
    "Single-family home with a mother-in-law suite and a finished basement.",
    "Spacious master bedroom with a walk-in closet.",
    "Bachelor apartment near the university.",
    "A couple of blocks from the park, walking distance to shops.",
    "Integrated appliances and quartz counters.",
    "Near Temple University and Church Street.",
    "Located in Christian County, with a gated community entrance.",
    "Hi Christian, the inspection is on Friday.",
    "Close to schools, parks and the light rail.",
    "Great location on a quiet street.",
    "55+ community with a clubhouse.",
    "Perfect for family gatherings and holidays.",
  ])("%s", (text) => {
    expect(checkFairHousing(text)).toEqual([]);
  });

  it("returns nothing for clean listing copy", () => {
    expect(
      checkFairHousing(
        "Welcome to this 3-bedroom, 2-bathroom home in Maple Grove. Highlights: renovated kitchen, hardwood floors, and a south-facing garden. Schedule your private showing today.",
      ),
    ).toEqual([]);
  });
});

describe("checkFairHousing: order and overlaps", () => {
  it("sorts flags by index and never returns overlapping ones", () => {
    const text = "Safe neighborhood, perfect for young families, near churches, ideal for retirees and young professionals. No children.";
    const flags = checkFairHousing(text);
    expect(flags.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < flags.length; i++) {
      const prev = flags[i - 1]!;
      expect(flags[i]!.index).toBeGreaterThanOrEqual(prev.index + prev.phrase.length);
    }
  });

  it("is case-insensitive and respects word boundaries", () => {
    expect(flagged("PERFECT FOR FAMILIES")).toEqual(["perfect for families"]);
    expect(flagged("unsafe neighborhoods")).toEqual([]);
    expect(flagged("Ethnically")).toEqual([]);
  });
});

describe("applySuggestion", () => {
  it("replaces the phrase, capitalised at a sentence start", () => {
    const text = "Perfect for families! Big yard.";
    expect(applySuggestion(text, checkFairHousing(text)[0]!)).toBe("Roomy and flexible! Big yard.");
  });

  it("keeps the noun when only the judgement goes", () => {
    const text = "Tucked into a safe neighborhood.";
    expect(applySuggestion(text, checkFairHousing(text)[0]!)).toBe("Tucked into a neighborhood.");
  });

  it("removes a phrase with an empty suggestion without leaving double spaces or stray punctuation", () => {
    const text = "Quiet street. No children. Big yard.";
    expect(applySuggestion(text, checkFairHousing(text)[0]!)).toBe("Quiet street. Big yard.");
    const mid = "Walk to shops, ethnic restaurants and parks.";
    expect(applySuggestion(mid, checkFairHousing(mid)[0]!)).toBe("Walk to shops, restaurants and parks.");
  });

  it("finds the phrase again when the text moved, and leaves the text alone when it is gone", () => {
    const flag = checkFairHousing("Perfect for families.")[0]!;
    expect(applySuggestion("Sunny. Perfect for families.", flag)).toBe("Sunny. Roomy and flexible.");
    expect(applySuggestion("Nothing to see.", flag)).toBe("Nothing to see.");
  });
});
