// Money in the display currency, and budgets said in words or as a range.

const moneyFormats = new Map<string, (n: number) => string>();
/** Whole units in the display currency: "$650,000", "€650,000", "NOK 650,000". */
export function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      const nf = new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 0, maximumFractionDigits: 0 });
      format = (n) => nf.format(n);
    } catch {
      const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
      const code = currency
        .replace(/[^A-Za-z]/g, "")
        .toUpperCase()
        .slice(0, 3);
      format = (n) => (code ? `${nf.format(n)} ${code}` : nf.format(n));
    }
    moneyFormats.set(currency, format);
  }
  return format(Math.round(amount));
}

export const positive = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n) && n > 0;

/** "between $400,000 and $650,000", "up to $650,000", "starting at $400,000", "around $500,000", or null. */
export function budgetPhrase(min: number | null, max: number | null, currency: string): string | null {
  const lo = positive(min) ? min : null;
  const hi = positive(max) ? max : null;
  if (lo !== null && hi !== null) {
    const [a, b] = lo <= hi ? [lo, hi] : [hi, lo];
    return a === b ? `around ${formatMoney(a, currency)}` : `between ${formatMoney(a, currency)} and ${formatMoney(b, currency)}`;
  }
  if (hi !== null) return `up to ${formatMoney(hi, currency)}`;
  if (lo !== null) return `starting at ${formatMoney(lo, currency)}`;
  return null;
}

/** "$400,000–$650,000", "up to $650,000", "from $400,000", or null: for lists. */
export function budgetRange(min: number | null, max: number | null, currency: string): string | null {
  const lo = positive(min) ? min : null;
  const hi = positive(max) ? max : null;
  if (lo !== null && hi !== null && lo !== hi) {
    const [a, b] = lo < hi ? [lo, hi] : [hi, lo];
    return `${formatMoney(a, currency)}–${formatMoney(b, currency)}`;
  }
  if (lo !== null && hi === null) return `from ${formatMoney(lo, currency)}`;
  return budgetPhrase(min, max, currency);
}
