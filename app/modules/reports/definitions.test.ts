import { describe, expect, it } from "vitest";
import { ascending, nearestRank, responseSummary, responseSummaryOf } from "./definitions";

// A team's speed to lead is taken over many agents' and sources' lists of response times without merging them
// (responseSummaryOf). It must give exactly what one sorted list gives (responseSummary over nearestRank).

/** A deterministic stream of numbers (a linear congruential generator), so the test is the same on every run. */
function numbers(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const MIN = 60_000;

describe("speed to lead over several lists", () => {
  it("equals the summary of the lists merged: medians, 90th percentiles and the counts within 5 and 60 minutes", () => {
    const next = numbers(7);
    for (let round = 0; round < 200; round++) {
      const lists = Array.from({ length: 1 + Math.floor(next() * 12) }, () =>
        ascending(
          Array.from({ length: Math.floor(next() * 40) }, () => {
            const r = next();
            // Whole milliseconds mostly, some repeated, some fractional, spread from seconds to days.
            if (r < 0.2) return 5 * MIN;
            if (r < 0.3) return Math.round(next() * 90) * MIN + 0.5;
            return Math.round(next() ** 3 * 3 * 86_400_000);
          }),
        ),
      );
      expect(responseSummaryOf(lists)).toEqual(responseSummary(ascending(lists.flat())));
    }
  });

  it("is the nearest rank of the merged values, lower middle of an even count, and empty for no answer", () => {
    expect(
      responseSummaryOf([
        [1 * MIN, 3 * MIN],
        [2 * MIN, 10 * MIN],
      ]),
    ).toEqual({
      answered: 4,
      p50Minutes: 2,
      p90Minutes: 10,
      fast: 3,
      hour: 4,
    });
    expect(nearestRank([1, 2, 3, 10], 50)).toBe(2);
    expect(responseSummaryOf([[], []])).toEqual({ answered: 0, p50Minutes: null, p90Minutes: null, fast: 0, hour: 0 });
    expect(responseSummaryOf([])).toEqual({ answered: 0, p50Minutes: null, p90Minutes: null, fast: 0, hour: 0 });
  });
});
