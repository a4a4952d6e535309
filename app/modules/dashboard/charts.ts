import { scaleBand, scaleLinear, type ScaleLinear } from "d3-scale";

// Chart geometry with d3-scale (ADR 0016). Computed on the server, in the loader, so the SVG is complete in
// the first HTML (no layout shift) and d3 never ships to the browser: the components only draw rectangles.

export interface Column {
  key: string;
  label: string;
  value: number;
}

export interface ColumnChart {
  /** viewBox size; the SVG scales to its container's width. */
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  /** y of the value 0. */
  zeroY: number;
  bars: { key: string; label: string; value: number; x: number; y: number; width: number; height: number; labelX: number }[];
  ticks: { value: number; y: number }[];
}

/** Room for tick labels like "$1.25M" at the chart's font size (12 units). */
const MARGIN = { left: 52, right: 6, top: 10, bottom: 22 };

/**
 * A column per entry (months), the y axis "nice" and starting at zero; negative values hang below it. `counts`: the
 * values are whole things (activities), so the axis has whole-number ticks only (never "0.5 activities").
 */
export function columnChart(
  columns: readonly Column[],
  { counts = false, size = { width: 360, height: 200 } }: { counts?: boolean; size?: { width: number; height: number } } = {},
): ColumnChart {
  const plot = { left: MARGIN.left, right: size.width - MARGIN.right, top: MARGIN.top, bottom: size.height - MARGIN.bottom };
  const values = columns.map((c) => c.value);
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const y = scaleLinear()
    .domain(min === 0 && max === 0 ? [0, 1] : [min, max])
    .range([plot.bottom, plot.top])
    .nice(4);
  const x = scaleBand()
    .domain(columns.map((c) => c.key))
    .range([plot.left, plot.right])
    .paddingInner(0.25)
    .paddingOuter(0.1);
  const zeroY = y(0);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    width: size.width,
    height: size.height,
    plot,
    zeroY: round(zeroY),
    bars: columns.map((c) => {
      const top = Math.min(y(c.value), zeroY);
      const x0 = x(c.key) ?? plot.left;
      return {
        key: c.key,
        label: c.label,
        value: c.value,
        x: round(x0),
        y: round(top),
        width: round(x.bandwidth()),
        height: round(Math.abs(y(c.value) - zeroY)),
        labelX: round(x0 + x.bandwidth() / 2),
      };
    }),
    ticks: ticksOf(y, counts).map((value) => ({ value, y: round(y(value)) })),
  };
}

/** About four ticks; for counts, no more ticks than whole numbers in the domain, so each step is at least 1. */
function ticksOf(y: ScaleLinear<number, number>, counts: boolean): number[] {
  if (!counts) return y.ticks(4);
  const [low, high] = y.domain() as [number, number];
  return y.ticks(Math.max(1, Math.min(4, Math.floor(high - low)))).filter((value) => Number.isInteger(value));
}

/** Bar lengths in percent of the longest (horizontal bar lists: pipeline stages, lead sources). */
export function barPercents(values: readonly number[]): number[] {
  const max = Math.max(0, ...values);
  if (max === 0) return values.map(() => 0);
  const x = scaleLinear().domain([0, max]).range([0, 100]).clamp(true);
  return values.map((v) => Math.round(x(v) * 10) / 10);
}
