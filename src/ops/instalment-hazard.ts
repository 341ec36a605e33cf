/**
 * Early evidence (docs/operations.md, "Calibration"): the lender's instalments by month of loan
 * age from the store (hazard-repository.ts), with the monthly hazard of a missed instalment, its
 * 95 % Wilson interval, the share paid late, what the predictions expect, and the cumulative
 * share missed by each age (Kaplan–Meier: 1 − the product of the months' survival). A hazard
 * above its expectation beyond noise shows months before the loans' terms end.
 */
import { wilson } from '../math/index.js';
import type { HazardCounts } from '../store/index.js';

export interface HazardRow extends HazardCounts {
  /** missed / due, with its 95 % interval (null when nothing fell due). */
  hazard: number | null;
  low: number | null;
  high: number | null;
  /** The predictions' hazard: expectedMissed / due. */
  expected: number | null;
  /** late / due. */
  lateShare: number | null;
  /** Share of loans that missed an instalment by the end of this month of age. */
  cumulativeMissed: number;
  /** The interval's low end above the expected hazard, on at least `minDue` instalments. */
  above: boolean;
}

/** The table's rows, youngest month first, with the cumulative share carried along. */
export function hazardRows(counts: readonly HazardCounts[], minDue: number): HazardRow[] {
  let surviving = 1;
  return counts.map((row) => {
    const interval = wilson(row.missed, row.due);
    if (row.due > 0) surviving *= 1 - row.missed / row.due;
    const expected = row.due === 0 ? null : row.expectedMissed / row.due;
    return {
      ...row,
      hazard: interval.rate,
      low: interval.low,
      high: interval.high,
      expected,
      lateShare: row.due === 0 ? null : row.late / row.due,
      cumulativeMissed: 1 - surviving,
      above: row.due >= minDue && interval.low !== null && expected !== null && interval.low > expected,
    };
  });
}

/** A share as the calibration and drift reports print it: "12.5%", "-" for none. */
export const pct = (share: number | null): string => (share === null ? '-' : `${(share * 100).toFixed(1)}%`);

/** "month 2: 38 due, 3 late, 1 missed: 2.6% [0.5% to 13.5%] against 0.7% expected; 5.1% missed by then". */
export function hazardFigures(row: HazardRow): string {
  return (
    `month ${row.ageMonth}: ${row.due} due, ${row.late} late, ${row.missed} missed: ${pct(row.hazard)} [${pct(row.low)} to ${pct(row.high)}] ` +
    `against ${pct(row.expected)} expected; ${pct(row.cumulativeMissed)} missed by then${row.above ? ' ABOVE EXPECTED' : ''}`
  );
}

/** snake_case JSON of one row. */
export function hazardJson(row: HazardRow): Record<string, unknown> {
  return {
    age_month: row.ageMonth,
    due: row.due,
    late: row.late,
    missed: row.missed,
    hazard: row.hazard,
    hazard_low: row.low,
    hazard_high: row.high,
    expected_hazard: row.expected,
    late_share: row.lateShare,
    cumulative_missed: row.cumulativeMissed,
    above_expected: row.above,
  };
}
