import type { ColumnChart } from "../charts";

const TONES = {
  brand: "fill-brand-600 dark:fill-brand-400",
  green: "fill-emerald-600 dark:fill-emerald-400",
} as const;

/**
 * A column chart drawn from geometry the loader computed (charts.ts): SVG complete in the server's HTML.
 * The drawing is hidden from assistive technology; `table` is its text alternative, with every figure.
 */
export function ColumnChartFigure({
  chart,
  label,
  tone,
  formatTick,
  table,
}: {
  chart: ColumnChart;
  label: string;
  tone: keyof typeof TONES;
  formatTick: (value: number) => string;
  table: { caption: string; headers: string[]; rows: string[][] };
}) {
  const { plot } = chart;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        className="h-auto w-full overflow-visible"
        aria-hidden="true"
        focusable="false"
        data-chart={label}
      >
        {chart.ticks.map((tick) => (
          <g key={tick.value}>
            <line x1={plot.left} x2={plot.right} y1={tick.y} y2={tick.y} className="stroke-stone-200 dark:stroke-stone-700" strokeWidth={1} />
            <text x={plot.left - 6} y={tick.y} dy="0.35em" textAnchor="end" fontSize={12} className="fill-stone-600 dark:fill-stone-400">
              {formatTick(tick.value)}
            </text>
          </g>
        ))}
        {chart.bars.map((bar) => (
          <rect
            key={bar.key}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            rx={2}
            className={bar.value < 0 ? "fill-red-600 dark:fill-red-400" : TONES[tone]}
          />
        ))}
        <line x1={plot.left} x2={plot.right} y1={chart.zeroY} y2={chart.zeroY} className="stroke-stone-500 dark:stroke-stone-400" strokeWidth={1} />
        {chart.bars
          .filter((bar) => bar.label !== "")
          .map((bar, i) => (
            // Every other label on a phone: twelve do not fit at that size. Bars without a label (weeks inside a month) have none.
            <text
              key={bar.key}
              x={bar.labelX}
              y={plot.bottom + 16}
              textAnchor="middle"
              fontSize={12}
              className={`fill-stone-600 dark:fill-stone-400 ${i % 2 === 1 ? "max-sm:hidden" : ""}`}
            >
              {bar.label}
            </text>
          ))}
      </svg>
      {/* The wrapper is the visually hidden box: a table ignores width: 1px and would widen the page. */}
      <div className="sr-only">
        <table>
          <caption>{table.caption}</caption>
          <thead>
            <tr>
              {table.headers.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row[0]}>
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={i}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
