// Fixed-bucket histograms for the Operations Center (docs/decisions/0024-operations-monitoring.md).
// A measurement is counted in the bucket whose upper bound is the first power of GROWTH at or above it, so
// every bucket is 10 % wider than the one before: a percentile read back is within 5 % of the true value
// (the middle of its bucket), whatever the scale, and a minute of any traffic is at most ~170 numbers.
// Histograms merge by adding counts, so minutes, shards and hours combine exactly. Browser-safe.

const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);
/** Bucket 0 holds everything at or below 1 (ms, or thousandths for layout shift). */
const MAX_BUCKET = 200;

/** Counts by bucket index (sparse). */
export type Histogram = Record<number, number>;

/** The bucket a non-negative measurement falls in. */
export function bucketOf(value: number): number {
  if (!(value > 1)) return 0;
  return Math.min(MAX_BUCKET, Math.ceil(Math.log(value) / LOG_GROWTH - 1e-9));
}

/** The value a bucket stands for when read back: the geometric middle of its bounds (bucket 0: its bound, 1). */
function bucketValue(bucket: number): number {
  return bucket <= 0 ? 1 : GROWTH ** (bucket - 0.5);
}

export function addTo(histogram: Histogram, value: number, count = 1): void {
  const bucket = bucketOf(value);
  histogram[bucket] = (histogram[bucket] ?? 0) + count;
}

export function merge(into: Histogram, from: Histogram): Histogram {
  for (const [bucket, count] of Object.entries(from)) into[Number(bucket)] = (into[Number(bucket)] ?? 0) + count;
  return into;
}

export function countOf(histogram: Histogram): number {
  let n = 0;
  for (const count of Object.values(histogram)) n += count;
  return n;
}

/**
 * The nearest-rank percentile (pct 0–100) of the measurements counted, as the middle of the bucket it falls
 * in; null when nothing was counted.
 */
export function percentile(histogram: Histogram, pct: number): number | null {
  const total = countOf(histogram);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((total * pct) / 100));
  let seen = 0;
  for (const bucket of Object.keys(histogram)
    .map(Number)
    .sort((a, b) => a - b)) {
    seen += histogram[bucket]!;
    if (seen >= rank) return bucketValue(bucket);
  }
  return null;
}

/** A histogram as stored (JSON text of [bucket, count] pairs), and back; anything unreadable is empty. */
export function encodeHistogram(histogram: Histogram): string {
  return JSON.stringify(
    Object.entries(histogram)
      .filter(([, count]) => count > 0)
      .map(([bucket, count]) => [Number(bucket), count]),
  );
}

export function decodeHistogram(text: string | null | undefined): Histogram {
  const histogram: Histogram = {};
  try {
    const pairs = JSON.parse(text ?? "[]") as unknown;
    if (!Array.isArray(pairs)) return histogram;
    for (const pair of pairs) {
      if (Array.isArray(pair) && Number.isInteger(pair[0]) && Number.isInteger(pair[1]) && pair[0] >= 0 && pair[0] <= MAX_BUCKET && pair[1] > 0) {
        histogram[pair[0]] = (histogram[pair[0]] ?? 0) + pair[1];
      }
    }
  } catch {
    // An unreadable row counts as nothing rather than failing the page.
  }
  return histogram;
}
