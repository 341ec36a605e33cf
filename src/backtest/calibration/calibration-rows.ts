/**
 * The calibration figures as table rows and lines of text, shared by the backtest report (terminal
 * and HTML) and `lendbot train calibration`, so both read the same.
 */
import { calibrated, groupVerdict, percentRange, type CalibrationGroup, type CalibrationStats } from './calibration-stats.js';
import type { StrategyCalibration } from './strategy-calibration.js';
import { percentOneDecimal as pct } from '../../log/plain-figures.js';

export const DECILE_HEADER = ['decile', 'n', 'predicted range', 'predicted', 'realised', '95 % interval', ''] as const;

function groupCells(group: CalibrationGroup): string[] {
  return [
    String(group.n),
    percentRange(group.from, group.to),
    pct(group.predicted),
    pct(group.realised),
    percentRange(group.low, group.high),
    calibrated(group) ? '' : 'off',
  ];
}

/** One row per decile of predicted default, safest first, then `all`; "off" marks a miscalibrated group. */
export function decileRows(stats: CalibrationStats): string[][] {
  const rows = stats.deciles.map((row) => [String(row.decile), ...groupCells(row)]);
  if (stats.overall.n > 0) rows.push(['all', ...groupCells(stats.overall)]);
  return rows;
}

/** The findings, one line each, "off:" before those that are not fine. */
export function findingLines(stats: CalibrationStats): string[] {
  return stats.findings.map((finding) => `${finding.ok ? '' : 'off: '}${finding.text}`);
}

/** One line per strategy whose probability is off overall, for the top of a report. */
export function calibrationWarnings(calibrations: readonly StrategyCalibration[]): string[] {
  return calibrations
    .filter((c) => c.overall.n > 0 && !calibrated(c.overall))
    .map((c) => `${c.strategy}'s probability is miscalibrated: it ${groupVerdict(c.overall)} (see "Calibration" below)`);
}
