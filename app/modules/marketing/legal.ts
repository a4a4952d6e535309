// Business constants the legal pages state (spec section 9, decisions.md). One place, so the pages, the
// pricing and the billing code cannot drift apart.
export const LEGAL = {
  /** When each page last changed (its "Last updated" line and its sitemap entry). */
  termsRevised: "2026-11-25",
  privacyRevised: "2026-11-25",
  company: "Porchlight",
  contactEmail: "hello@porchlight.app",
  trialDays: 14,
  monthlyPrice: 40,
  yearlyPrice: 384,
  dataKeptDays: 30,
  priceNoticeDays: 30,
  liabilityMonths: 12,
  disputeDays: 30,
  governingLaw: "the State of Delaware",
} as const;
