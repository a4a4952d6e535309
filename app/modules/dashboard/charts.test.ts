import { describe, expect, it } from "vitest";
import { barPercents, columnChart } from "./charts";

const months = (values: number[]) => values.map((value, i) => ({ key: `2026-${String(i + 1).padStart(2, "0")}`, label: `M${i + 1}`, value }));

describe("chart geometry", () => {
  it("draws columns from a zero baseline on a nice axis", () => {
    const chart = columnChart(months([0, 400_000, 1_000_000, 0]));
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 200_000, 400_000, 600_000, 800_000, 1_000_000]);
    expect(chart.zeroY).toBe(chart.plot.bottom);
    const [empty, mid, top] = chart.bars;
    expect(empty!.height).toBe(0);
    expect(top!.y).toBe(chart.plot.top);
    expect(top!.height).toBe(chart.plot.bottom - chart.plot.top);
    expect(mid!.height).toBeCloseTo(top!.height * 0.4, 0);
    // Columns are evenly spaced, left to right, inside the plot.
    expect(chart.bars[0]!.x).toBeGreaterThanOrEqual(chart.plot.left);
    expect(chart.bars.at(-1)!.x + chart.bars.at(-1)!.width).toBeLessThanOrEqual(chart.plot.right);
  });

  it("hangs negative values below zero and draws an empty axis for all zeros", () => {
    const chart = columnChart(months([-50, 100]));
    expect(chart.zeroY).toBeLessThan(chart.plot.bottom);
    expect(chart.bars[0]!.y).toBe(chart.zeroY);
    expect(chart.bars[1]!.y + chart.bars[1]!.height).toBe(chart.zeroY);
    const zeros = columnChart(months([0, 0, 0]));
    expect(zeros.bars.every((b) => b.height === 0)).toBe(true);
    expect(zeros.zeroY).toBe(zeros.plot.bottom);
  });

  it("gives counts whole-number ticks only, however few there are", () => {
    for (const top of [1, 2, 3, 5, 7, 13]) {
      const ticks = columnChart(months([0, top, 1]), { counts: true }).ticks.map((t) => t.value);
      expect(ticks.every(Number.isInteger), `top ${top}: ${ticks.join(", ")}`).toBe(true);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(top);
    }
    expect(columnChart(months([0, 2, 1]), { counts: true }).ticks.map((t) => t.value)).toEqual([0, 1, 2]);
    expect(columnChart(months([0, 0]), { counts: true }).ticks.map((t) => t.value)).toEqual([0, 1]);
    // Money keeps its finer steps.
    expect(columnChart(months([0, 2])).ticks.map((t) => t.value)).toEqual([0, 0.5, 1, 1.5, 2]);
  });

  it("scales bar lengths to the longest", () => {
    expect(barPercents([50, 200, 0])).toEqual([25, 100, 0]);
    expect(barPercents([0, 0])).toEqual([0, 0]);
  });
});
