/**
 * The calibration section of the terminal report (and of `lendbot train calibration`): each
 * strategy's predicted default by decile against what happened, the Brier score against a
 * constant guess, the requests around min_probability, and in plain words where it is off.
 */
import {
  DECILE_HEADER,
  decileRows,
  findingLines,
  RESOLVED_RULE,
  type CalibrationStats,
  type StrategyCalibration,
} from '../../../backtest/calibration/index.js';
import { formatTable } from '../strategy/text-table.js';

/** The decile table and the findings, indented. */
export function calibrationStatsText(stats: CalibrationStats): string {
  if (stats.overall.n === 0) return '  no resolved request was scored\n';
  const findings = findingLines(stats)
    .map((line) => `  ${line}\n`)
    .join('');
  return `${formatTable(DECILE_HEADER, decileRows(stats), '  ')}${findings}`;
}

export function calibrationSection(calibrations: readonly StrategyCalibration[]): string {
  const parts = calibrations.map(
    (c) =>
      `\nCalibration of ${c.strategy}: predicted against realised default on the ${c.scored} resolved requests it scores (of ${c.resolved} resolved, ${c.requests} requests), by decile of predicted default, safest first\n` +
      calibrationStatsText(c),
  );
  return `${parts.join('')}  (${RESOLVED_RULE}; "off": more than 2 points from what happened and outside its 95 % interval)\n`;
}
