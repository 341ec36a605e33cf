/**
 * Predicted against realised default per strategy and month of origination, with the loans' age
 * (docs/operations.md, "Calibration"): the same loans and the same definition of realised default
 * as the pooled calibration (calibration.ts), split by the strategy whose decision offered.
 *
 * A month's realised default only grows as its loans age, while the prediction covers the whole
 * term. So each row also carries what the prediction expects BY NOW: m months into a term of n, a
 * loan repaying in full with probability p has defaulted with 1 − p^(m/n) (the constant monthly
 * hazard the cash-flow forecast uses). The row's reading compares the realised interval with that:
 *
 *   above expected  the interval's low end above what the prediction expects by now (enough loans)
 *   too early       under a quarter of the loans' terms has gone by: nothing to judge yet
 *   below expected  the interval's high end below it (enough loans)
 *   in line         otherwise
 */
import { DAYS_PER_MONTH, pooledCounts, type StrategyVintageCounts, type VintageCounts } from '../store/index.js';
import { wilson } from '../math/index.js';
import { pct } from './instalment-hazard.js';

/** One vintage's calibration: its counts, the mean prediction and the realised share with its interval (calibration.ts `calibrated`). */
export interface VintageCalibration extends VintageCounts {
  /** Mean predicted default of the vintage's loans (null without loans). */
  predicted: number | null;
  /** (defaulted + delinquent) / loans so far, and its 95 % Wilson interval (null without loans). */
  realised: number | null;
  low: number | null;
  high: number | null;
}

/** Below this share of the loans' terms gone by, a month reads "too early". */
const TOO_EARLY_TERM_SHARE = 0.25;

type VintageReading = 'above expected' | 'below expected' | 'in line' | 'too early' | '';

/** One strategy's month (or its months together) with age and reading. */
export interface StrategyVintageCalibration extends VintageCalibration {
  strategy: string;
  /** Mean age of the loans, in months (null without loans). */
  ageMonths: number | null;
  /** Share of the loans' terms gone by (null without loans). */
  termElapsed: number | null;
  /** Mean default the predictions expect by the loans' age (null without loans). */
  expectedByNow: number | null;
  reading: VintageReading;
}

/** A strategy's months, oldest first, and all of them together. */
export interface StrategyCalibration {
  strategy: string;
  pooled: StrategyVintageCalibration;
  vintages: StrategyVintageCalibration[];
}

/** The reading of one row (above). */
function readingOf(row: Omit<StrategyVintageCalibration, 'reading'>, minLoans: number): VintageReading {
  if (row.loans === 0 || row.expectedByNow === null) return '';
  const enough = row.loans >= minLoans;
  if (enough && row.low !== null && row.low > row.expectedByNow) return 'above expected';
  if (row.termElapsed !== null && row.termElapsed < TOO_EARLY_TERM_SHARE) return 'too early';
  if (enough && row.high !== null && row.high < row.expectedByNow) return 'below expected';
  return 'in line';
}

/** One row's figures: its counts calibrated, with age, what is expected by now and the reading. */
export function withAge(counts: StrategyVintageCounts, minLoans: number): StrategyVintageCalibration {
  const none = counts.loans === 0;
  // As calibration.ts `calibrated` (which imports this file): the realised share and its interval.
  const interval = wilson(counts.defaulted + counts.delinquent, counts.loans);
  const row = {
    ...counts,
    predicted: none ? null : counts.predictedSum / counts.loans,
    realised: interval.rate,
    low: interval.low,
    high: interval.high,
    ageMonths: none ? null : counts.ageDaysSum / counts.loans / DAYS_PER_MONTH,
    termElapsed: none || counts.termMonths === 0 ? null : counts.termMonthsElapsed / counts.termMonths,
    expectedByNow: none ? null : counts.expectedByNowSum / counts.loans,
  };
  return { ...row, reading: readingOf(row, minLoans) };
}

/** Several rows' counts summed, as `strategy`'s "all" (or any name). */
export function pooledStrategyCounts(strategy: string, rows: readonly StrategyVintageCounts[], vintage = 'all'): StrategyVintageCounts {
  const sum = (pick: (row: StrategyVintageCounts) => number): number => rows.reduce((total, row) => total + pick(row), 0);
  return {
    ...pooledCounts(rows, vintage),
    strategy,
    ageDaysSum: sum((r) => r.ageDaysSum),
    termMonthsElapsed: sum((r) => r.termMonthsElapsed),
    termMonths: sum((r) => r.termMonths),
    expectedByNowSum: sum((r) => r.expectedByNowSum),
  };
}

/** Each strategy's months (rows by strategy then vintage, as the store gives them), in strategy order. */
export function strategyCalibrations(rows: readonly StrategyVintageCounts[], minLoans: number): StrategyCalibration[] {
  const byStrategy = new Map<string, StrategyVintageCounts[]>();
  for (const row of rows) byStrategy.set(row.strategy, [...(byStrategy.get(row.strategy) ?? []), row]);
  return [...byStrategy.entries()].map(([strategy, months]) => ({
    strategy,
    pooled: withAge(pooledStrategyCounts(strategy, months), minLoans),
    vintages: months.map((row) => withAge(row, minLoans)),
  }));
}

/** "12 loans, 2.5 months old (21% of their terms): predicted 8.0%, by now 1.7%; realised 0.0% [0.0% to 24.2%]: too early". */
export function strategyVintageFigures(row: StrategyVintageCalibration): string {
  if (row.loans === 0) return 'no loans with a prediction';
  const age = row.ageMonths === null ? '' : `, ${row.ageMonths.toFixed(1)} months old`;
  const elapsed = row.termElapsed === null ? '' : ` (${Math.round(row.termElapsed * 100)}% of their terms)`;
  return (
    `${row.loans} loans${age}${elapsed}: predicted ${pct(row.predicted)}, by now ${pct(row.expectedByNow)}; ` +
    `realised ${pct(row.realised)} [${pct(row.low)} to ${pct(row.high)}]${row.reading === '' ? '' : `: ${row.reading}`}`
  );
}

/** snake_case JSON of one row. */
export function strategyVintageJson(row: StrategyVintageCalibration): Record<string, unknown> {
  return {
    vintage: row.vintage,
    loans: row.loans,
    predicted_default: row.predicted,
    expected_by_now: row.expectedByNow,
    realised_default: row.realised,
    realised_low: row.low,
    realised_high: row.high,
    defaulted: row.defaulted,
    delinquent: row.delinquent,
    repaid: row.repaid,
    age_months: row.ageMonths,
    term_elapsed: row.termElapsed,
    reading: row.reading,
  };
}
