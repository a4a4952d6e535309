import { describe, expect, it } from "vitest";
import { allocateCap, capYearOf, computeCommission, isValidCapYearStart, weighted, type CommissionTerms } from "./commission";
import { buildForecast, type ForecastDeal } from "./forecast";

// Every expected figure below was worked out by hand, in cents, with the arithmetic beside it.
const NONE: CommissionTerms = {
  rate: 0,
  referralFeePct: 0,
  brokerageSplitPct: 0,
  teamSplitPct: 0,
  transactionFeeCents: 0,
  eoFeeCents: 0,
  franchiseFeePct: 0,
};
const terms = (t: Partial<CommissionTerms>): CommissionTerms => ({ ...NONE, ...t });
const dollars = (n: number) => Math.round(n * 100);

describe("one deal's commission", () => {
  it("1. gross only: $500,000 x 3% = $15,000.00, nothing taken off", () => {
    const b = computeCommission(dollars(500_000), terms({ rate: 3 }));
    expect(b.grossCents).toBe(1_500_000);
    expect(b.netCents).toBe(1_500_000);
  });

  // The commission-splits article's worked example: the cap leaves $1,500.00 of split to pay.
  const article = terms({
    rate: 2.5,
    referralFeePct: 25,
    brokerageSplitPct: 30,
    teamSplitPct: 10,
    transactionFeeCents: 39_500,
    eoFeeCents: 5_000,
    franchiseFeePct: 6,
  });
  it("2. the article's example, crossing the cap: net $5,892.50", () => {
    const b = computeCommission(dollars(500_000), article, dollars(1_500));
    // gross 50,000,000 x 2.5% = 1,250,000; referral 25% = 312,500; rest 937,500
    // split 30% would be 281,250 but only 150,000 is left to the cap; rest 787,500
    // team 10% = 78,750; rest 708,750; fees 39,500 + 5,000; franchise 6% of gross = 75,000
    // net 708,750 − 39,500 − 5,000 − 75,000 = 589,250
    expect(b).toMatchObject({
      grossCents: 1_250_000,
      referralCents: 312_500,
      brokerageFullCents: 281_250,
      brokerageCents: 150_000,
      capLimited: true,
      teamCents: 78_750,
      franchiseCents: 75_000,
      netCents: 589_250,
    });
  });

  it("3. the same deal with no cap: net $4,711.25", () => {
    const b = computeCommission(dollars(500_000), article);
    // rest after split 937,500 − 281,250 = 656,250; team 65,625; 590,625 − 39,500 − 5,000 − 75,000
    expect(b).toMatchObject({ brokerageCents: 281_250, capLimited: false, teamCents: 65_625, netCents: 471_125 });
  });

  it("4. the same deal after capping: no split, net $7,242.50", () => {
    const b = computeCommission(dollars(500_000), article, 0);
    // rest 937,500; team 93,750; 843,750 − 39,500 − 5,000 − 75,000
    expect(b).toMatchObject({ brokerageCents: 0, teamCents: 93_750, netCents: 724_250 });
  });

  it("5. zero rate: no commission, the flat fees still apply: net −$445.00", () => {
    const b = computeCommission(
      dollars(400_000),
      terms({ rate: 0, brokerageSplitPct: 30, transactionFeeCents: 39_500, eoFeeCents: 5_000, franchiseFeePct: 6 }),
    );
    expect(b).toMatchObject({ grossCents: 0, brokerageCents: 0, franchiseCents: 0, netCents: -44_500 });
  });

  it("6. zero price: every percentage is zero", () => {
    expect(computeCommission(0, article, dollars(1_000))).toMatchObject({
      grossCents: 0,
      referralCents: 0,
      brokerageCents: 0,
      teamCents: 0,
      netCents: -44_500,
    });
  });

  it("7. referral only: $350,000 x 3% = $10,500.00, 25% referral = $2,625.00, net $7,875.00", () => {
    expect(computeCommission(dollars(350_000), terms({ rate: 3, referralFeePct: 25 }))).toMatchObject({
      grossCents: 1_050_000,
      referralCents: 262_500,
      netCents: 787_500,
    });
  });

  it("8. team split only: $600,000 x 2.5% = $15,000.00, 40% to the team, net $9,000.00", () => {
    expect(computeCommission(dollars(600_000), terms({ rate: 2.5, teamSplitPct: 40 }))).toMatchObject({
      grossCents: 1_500_000,
      teamCents: 600_000,
      netCents: 900_000,
    });
  });

  it("9. franchise % only, on gross: $450,000 x 3% = $13,500.00, 6% = $810.00, net $12,690.00", () => {
    expect(computeCommission(dollars(450_000), terms({ rate: 3, franchiseFeePct: 6 }))).toMatchObject({
      franchiseCents: 81_000,
      netCents: 1_269_000,
    });
  });

  it("10. rounding each line to the cent: $333,333.33 at 2.75%, 12.5% referral, 20% split", () => {
    const b = computeCommission(33_333_333, terms({ rate: 2.75, referralFeePct: 12.5, brokerageSplitPct: 20 }));
    // 33,333,333 x 2.75% = 916,666.6575 → 916,667; x 12.5% = 114,583.375 → 114,583; rest 802,084
    // x 20% = 160,416.8 → 160,417; net 802,084 − 160,417 = 641,667
    expect(b).toMatchObject({ grossCents: 916_667, referralCents: 114_583, brokerageCents: 160_417, netCents: 641_667 });
  });

  it("11. half a cent rounds up, less than half rounds down", () => {
    // 100,020 x 2.5% = 2,500.5 → 2,501; 100,010 x 2.5% = 2,500.25 → 2,500
    expect(computeCommission(100_020, terms({ rate: 2.5 })).grossCents).toBe(2_501);
    expect(computeCommission(100_010, terms({ rate: 2.5 })).grossCents).toBe(2_500);
  });

  it("12. a rate with three decimals is exact: $500,000 x 2.125% = $10,625.00", () => {
    expect(computeCommission(dollars(500_000), terms({ rate: 2.125 })).grossCents).toBe(1_062_500);
    // 0.1 + 0.2 style float error cannot leak in: $1,234,567.89 x 0.3% = 370,370.367 → 370,370
    expect(computeCommission(123_456_789, terms({ rate: 0.3 })).grossCents).toBe(370_370);
  });

  it("13. weighted value: net x probability, to the cent, also for a negative net", () => {
    expect(weighted(590_625, 60)).toBe(354_375);
    expect(weighted(-44_500, 50)).toBe(-22_250);
    expect(weighted(1_001, 50)).toBe(501); // 500.5 → 501
    expect(weighted(123_456, 0)).toBe(0);
  });
});

describe("a shared deal: the side is split before each agent's own plan", () => {
  // $600,000 at 3 %: the side is $18,000.00 (1,800,000). Bea co-agents with 40 %, Amara (the deal's agent) keeps 60 %.
  it("S1. the co-agent: 40 % of the side, then her own 20 % split held by her cap, 10 % team split and E&O", () => {
    const bea = computeCommission(
      dollars(600_000),
      terms({ rate: 3, brokerageSplitPct: 20, teamSplitPct: 10, eoFeeCents: 5_000, share: { coAgentPct: 40 } }),
      dollars(1_000),
    );
    // her share 1,800,000 x 40% = 720,000; split 20% would be 144,000 but 100,000 is left to her cap; rest 620,000
    // team 10% = 62,000; rest 558,000; E&O 5,000; net 553,000
    expect(bea).toMatchObject({
      grossCents: 1_800_000,
      sharePct: 40,
      othersCents: 1_080_000,
      brokerageFullCents: 144_000,
      brokerageCents: 100_000,
      capLimited: true,
      teamCents: 62_000,
      netCents: 553_000,
    });
  });

  it("S2. the deal's agent: the 60 % left, then her own 30 % split and transaction fee, no cap", () => {
    const amara = computeCommission(
      dollars(600_000),
      terms({ rate: 3, brokerageSplitPct: 30, transactionFeeCents: 39_500, share: { othersPct: [40] } }),
    );
    // her share 1,800,000 − 720,000 = 1,080,000; split 30% = 324,000; rest 756,000; fee 39,500; net 716,500
    expect(amara).toMatchObject({ sharePct: 60, othersCents: 720_000, brokerageCents: 324_000, netCents: 716_500 });
  });

  it("S3. referral and franchise fees are taken on the agent's share of the side", () => {
    const b = computeCommission(dollars(500_000), terms({ rate: 2.5, referralFeePct: 25, franchiseFeePct: 6, share: { coAgentPct: 50 } }));
    // side 1,250,000; her half 625,000; referral 25% = 156,250; rest 468,750; franchise 6% of 625,000 = 37,500
    // net 468,750 − 37,500 = 431,250
    expect(b).toMatchObject({ referralCents: 156_250, franchiseCents: 37_500, netCents: 431_250 });
  });

  it("S4. shares that do not divide evenly still add up to the side, to the cent", () => {
    const price = 33_333_333; // at 2.75 %: side 916,667
    const co = computeCommission(price, terms({ rate: 2.75, share: { coAgentPct: 33.333 } }));
    const own = computeCommission(price, terms({ rate: 2.75, share: { othersPct: [33.333, 33.333] } }));
    // each co-agent: 916,667 x 33.333% = 305,552.611 → 305,553; the deal's agent: 916,667 − 2 x 305,553 = 305,561
    expect(co.netCents).toBe(305_553);
    expect(own).toMatchObject({ sharePct: 33.334, netCents: 305_561 });
    expect(2 * co.netCents + own.netCents).toBe(co.grossCents);
  });

  it("S5. a deal with no co-agents is the whole side", () => {
    expect(computeCommission(dollars(100_000), terms({ rate: 3, share: { othersPct: [] } }))).toMatchObject({
      sharePct: 100,
      othersCents: 0,
      netCents: 300_000,
    });
  });
});

describe("the annual cap across deals", () => {
  it("14. cap years start on the plan's day and hold a full year", () => {
    expect(capYearOf("2027-03-31", "04-01")).toBe("2026-04-01");
    expect(capYearOf("2027-04-01", "04-01")).toBe("2027-04-01");
    expect(capYearOf("2026-12-31", "01-01")).toBe("2026-01-01");
    expect(isValidCapYearStart("02-28")).toBe(true);
    expect(isValidCapYearStart("02-29")).toBe(false);
    expect(isValidCapYearStart("04-31")).toBe(false);
    expect(isValidCapYearStart("13-01")).toBe(false);
  });

  it("15. a $20,000 cap at 30%: full splits, then the crossing deal pays only what is left, then a new cap year", () => {
    // Each deal: $1,000,000 x 3% = $30,000.00 gross; 30% split = $9,000.00.
    const deal = (id: string, date: string) => ({
      id,
      date,
      priceCents: dollars(1_000_000),
      terms: terms({ rate: 3, brokerageSplitPct: 30 }),
      probability: 100,
    });
    const { breakdowns, paid } = allocateCap([deal("a", "2026-05-01"), deal("b", "2026-08-01"), deal("c", "2027-01-15"), deal("d", "2027-04-02")], {
      brokerageCapCents: dollars(20_000),
      capYearStart: "04-01",
    });
    expect(breakdowns.get("a")).toMatchObject({ brokerageCents: 900_000, netCents: 2_100_000, capYear: "2026-04-01" });
    expect(breakdowns.get("b")).toMatchObject({ brokerageCents: 900_000, netCents: 2_100_000 });
    // 20,000 − 18,000 = 2,000 left: net 30,000 − 2,000 = 28,000
    expect(breakdowns.get("c")).toMatchObject({ brokerageCents: 200_000, capLimited: true, netCents: 2_800_000, capYear: "2026-04-01" });
    expect(breakdowns.get("d")).toMatchObject({ brokerageCents: 900_000, capLimited: false, capYear: "2027-04-01" });
    expect(paid.get("2026-04-01")).toBe(dollars(20_000));
  });
});

describe("the forecast", () => {
  it("16. weighted net by month, closed net this year, and the projected cap date", () => {
    const t = terms({ rate: 3, brokerageSplitPct: 20 });
    const deal = (id: string, price: number, date: string | null, probability: number): ForecastDeal => ({
      id,
      title: id,
      priceCents: dollars(price),
      terms: t,
      date,
      probability,
    });
    const forecast = buildForecast({
      today: "2026-11-22",
      plan: { brokerageCapCents: dollars(10_000), capYearStart: "01-01" },
      // A: $15,000 gross, $3,000 split, net $12,000 this year. B: last year, not year to date.
      closedWon: [deal("A", 500_000, "2026-03-10", 100), deal("B", 400_000, "2025-12-01", 100)],
      open: [
        deal("C", 600_000, "2026-12-15", 90), // $18,000 gross, $3,600 split
        deal("D", 1_000_000, "2027-02-10", 50), // next cap year: $6,000 split, net $24,000
        deal("E", 200_000, "2026-09-01", 40), // overdue: counted as closing today; $1,200 split
        deal("F", 300_000, null, 10), // undated: today; $1,800 split
        deal("G", 2_000_000, "2026-12-20", 80), // $60,000 gross, $12,000 split, but the cap is near
      ],
    });
    expect(forecast.closedNetYtdCents).toBe(1_200_000);
    expect(forecast.closedDealsYtd).toBe(1);
    // E: net 6,000 − 1,200 = 4,800 x 40% = 1,920. F: 9,000 − 1,800 = 7,200 x 10% = 720.
    expect(forecast.overdue).toEqual({ deals: 1, weightedNetCents: 192_000 });
    expect(forecast.undated).toEqual({ deals: 1, weightedNetCents: 72_000 });
    // Paid toward the 2026 cap before C: 3,000 (A) + 40% x 1,200 (E) + 10% x 1,800 (F) = 3,660.
    // C: 6,340 left ≥ 3,600, net 14,400 x 90% = 12,960; paid 3,660 + 3,240 = 6,900.
    // G: 3,100 left < 12,000, net 60,000 − 3,100 = 56,900 x 80% = 45,520.
    expect(forecast.breakdowns.get("G")).toMatchObject({ brokerageCents: 310_000, capLimited: true, netCents: 5_690_000 });
    expect(forecast.months[0]).toEqual({ month: "2026-11", deals: 0, netCents: 0, weightedNetCents: 0 });
    expect(forecast.months[1]).toEqual({ month: "2026-12", deals: 2, netCents: 1_440_000 + 5_690_000, weightedNetCents: 1_296_000 + 4_552_000 });
    expect(forecast.months[3]).toEqual({ month: "2027-02", deals: 1, netCents: 2_400_000, weightedNetCents: 1_200_000 });
    expect(forecast.months[11]!.month).toBe("2027-10");
    // Pace toward $10,000: 3,000 + 480 (E) + 180 (F) + 3,240 (C) = 6,900; G adds 80% x 12,000 = 9,600 → reached on G's date.
    expect(forecast.cap).toEqual({
      capCents: 1_000_000,
      yearStart: "2026-01-01",
      yearEnd: "2027-01-01",
      paidCents: 300_000,
      reachedOn: null,
      projectedOn: "2026-12-20",
    });
  });

  it("17. a cap already reached says on which closing", () => {
    const t = terms({ rate: 3, brokerageSplitPct: 50 });
    const forecast = buildForecast({
      today: "2026-06-30",
      plan: { brokerageCapCents: dollars(10_000), capYearStart: "01-01" },
      // $15,000 gross each: $7,500 split, then $2,500 (capped), then nothing.
      closedWon: ["2026-02-01", "2026-04-01", "2026-05-01"].map((date, i) => ({
        id: `w${i}`,
        title: "",
        priceCents: dollars(500_000),
        terms: t,
        date,
        probability: 100,
      })),
      open: [],
    });
    expect(forecast.cap).toMatchObject({ paidCents: 1_000_000, reachedOn: "2026-04-01", projectedOn: null });
    expect([...forecast.breakdowns.values()].map((b) => b.brokerageCents)).toEqual([750_000, 250_000, 0]);
    expect(forecast.closedNetYtdCents).toBe(3 * 1_500_000 - 1_000_000);
  });
});
