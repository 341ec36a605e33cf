/**
 * Calibration while live (docs/operations.md, "Calibration"): for the lender's loans by vintage
 * (the month each was created), the mean predicted default (1 − the repayment probability of the
 * decision that offered) against the realised default so far (loans in collection or default,
 * and current loans with a missed payment), with its 95 % Wilson interval and the count.
 *
 * Realised default only grows as a vintage ages, while the prediction is over the whole term: a
 * young vintage reads low. So the one test that says "worse than predicted" is one-sided and
 * cautious: the LOW end of the interval above the predicted mean, on at least `minLoans` loans.
 */
import { wilson } from '../math/index.js';
import { isoFromMs, pooledCounts, type Store, type VintageCounts } from '../store/index.js';
import {
  strategyCalibrations,
  strategyVintageFigures,
  strategyVintageJson,
  type StrategyCalibration,
  type VintageCalibration,
} from './calibration-by-strategy.js';
import { hazardFigures, hazardJson, hazardRows, pct, type HazardRow } from './instalment-hazard.js';

export type { VintageCalibration } from './calibration-by-strategy.js';

export interface CalibrationSummary {
  /** The vintages of the window, oldest first. */
  vintages: VintageCalibration[];
  /** Every vintage of the window together ("all"). */
  pooled: VintageCalibration;
  /** The first vintage of the window. */
  since: string;
}

/** The vintage text of `ms` ("2026-03"). */
function vintageOf(ms: number): string {
  return isoFromMs(ms).slice(0, 7);
}

/** The vintage `months` before the one of `nowMs` (0: this month). */
function vintageMonthsBefore(nowMs: number, months: number): string {
  const date = new Date(nowMs);
  return vintageOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - months, 1));
}

/** One vintage's counts with its means and interval. */
function calibrated(counts: VintageCounts): VintageCalibration {
  const bad = counts.defaulted + counts.delinquent;
  const interval = wilson(bad, counts.loans);
  return {
    ...counts,
    predicted: counts.loans === 0 ? null : counts.predictedSum / counts.loans,
    realised: interval.rate,
    low: interval.low,
    high: interval.high,
  };
}

/** The vintages of the last `windowMonths` months (this one included), each and together. */
export function calibrationSummary(store: Pick<Store, 'calibration'>, nowMs: number, windowMonths: number): CalibrationSummary {
  const since = vintageMonthsBefore(nowMs, Math.max(0, windowMonths - 1));
  return summaryOf(store.calibration.vintages(since), since);
}

function summaryOf(rows: readonly VintageCounts[], since: string): CalibrationSummary {
  return { vintages: rows.map(calibrated), pooled: calibrated(pooledCounts(rows)), since };
}

/** Whether realised default runs above predicted beyond noise: the interval's low end above the mean prediction, on enough loans. */
export function defaultAbovePrediction(row: VintageCalibration, minLoans: number): boolean {
  return row.loans >= minLoans && row.low !== null && row.predicted !== null && row.low > row.predicted;
}

/** "predicted 8.0%, realised 21.0% [15.2% to 28.1%] of 120 loans (20 in default or collection, 5 delinquent)". */
export function calibrationFigures(row: VintageCalibration): string {
  if (row.loans === 0) return `no loans with a prediction${row.unpredicted > 0 ? ` (${row.unpredicted} without)` : ''}`;
  const without = row.unpredicted > 0 ? `; ${row.unpredicted} without a prediction` : '';
  return (
    `predicted ${pct(row.predicted)}, realised so far ${pct(row.realised)} [${pct(row.low)} to ${pct(row.high)}] of ${row.loans} loans ` +
    `(${row.defaulted} in collection or default, ${row.delinquent} with a missed payment, ${row.repaid} repaid${without})`
  );
}

/** What `lendbot status`, /metrics and the dashboard show. */
export interface CalibrationStatus extends CalibrationSummary {
  /** The protection's loan minimum (a vintage with fewer is not judged). */
  minLoans: number;
  /** The calibration alert in force (its figures when it began), or null. */
  alert: { since: string; figures: string } | null;
  /** Each strategy's months with the loans' age and a reading (calibration-by-strategy.ts). */
  strategies: StrategyCalibration[];
  /** The window's instalments by month of loan age (instalment-hazard.ts). */
  hazard: HazardRow[];
}

/** The calibration block of the status report, over the protection's window. */
export function calibrationStatus(
  store: Pick<Store, 'calibration'>,
  nowMs: number,
  settings: { window_months: number; min_loans: number },
  alert: { sinceMs: number; figures: string } | undefined,
): CalibrationStatus {
  const since = vintageMonthsBefore(nowMs, Math.max(0, settings.window_months - 1));
  const { vintages, strategyVintages } = store.calibration.breakdown(since, nowMs);
  return {
    ...summaryOf(vintages, since),
    minLoans: settings.min_loans,
    alert: alert === undefined ? null : { since: isoFromMs(alert.sinceMs), figures: alert.figures },
    strategies: strategyCalibrations(strategyVintages, settings.min_loans),
    hazard: hazardRows(store.calibration.hazard(since, nowMs), settings.min_loans),
  };
}

/**
 * The status block's lines: the pooled window first, then each vintage, newest first (at most
 * `vintages`); none while the window holds no loan (nothing to compare yet).
 */
export function calibrationLines(status: CalibrationStatus, vintages = 6): Array<[string, string]> {
  if (status.pooled.loans + status.pooled.unpredicted === 0 && status.alert === null) return [];
  const verdict = (row: VintageCalibration): string => (defaultAbovePrediction(row, status.minLoans) ? ' ABOVE PREDICTED' : '');
  const lines: Array<[string, string]> = [
    ['calibration', `loans since ${status.since}: ${calibrationFigures(status.pooled)}${verdict(status.pooled)}`],
  ];
  for (const row of [...status.vintages].reverse().slice(0, vintages))
    lines.push([`  ${row.vintage}`, `${calibrationFigures(row)}${verdict(row)}`]);
  if (status.alert !== null) lines.push(['  alert', `since ${status.alert.since}: ${status.alert.figures}`]);
  for (const strategy of status.strategies) {
    const name = strategy.strategy;
    lines.push(['  by strategy', `${name}, months shown together: ${strategyVintageFigures(strategy.pooled)}`]);
    for (const row of [...strategy.vintages].reverse().slice(0, vintages))
      lines.push([`    ${row.vintage}`, `${name}: ${strategyVintageFigures(row)}`]);
  }
  if (status.hazard.length > 0) lines.push(['  by loan age', 'instalments of the loans above, by month of age (missed: the hazard)']);
  for (const row of status.hazard) lines.push(['', hazardFigures(row)]);
  return lines;
}

/** snake_case JSON (status --json, the dashboard's API). */
export function calibrationJson(status: CalibrationStatus): Record<string, unknown> {
  const row = (r: VintageCalibration) => ({
    vintage: r.vintage,
    loans: r.loans,
    unpredicted: r.unpredicted,
    predicted_default: r.predicted,
    realised_default: r.realised,
    realised_low: r.low,
    realised_high: r.high,
    defaulted: r.defaulted,
    delinquent: r.delinquent,
    repaid: r.repaid,
    above_predicted: defaultAbovePrediction(r, status.minLoans),
  });
  return {
    since: status.since,
    min_loans: status.minLoans,
    pooled: row(status.pooled),
    vintages: status.vintages.map(row),
    alert: status.alert,
    strategies: status.strategies.map((s) => ({
      strategy: s.strategy,
      pooled: strategyVintageJson(s.pooled),
      vintages: s.vintages.map(strategyVintageJson),
    })),
    hazard: status.hazard.map(hazardJson),
  };
}
