/** `lendbot train calibration`'s report as text: the data, the held-out table before and after, what was written. */
import { RESOLVED_RULE, type CalibrationStats } from '../../../backtest/calibration/index.js';
import { calibrationStatsText } from '../backtest/calibration-text.js';
import { CHECK_SEED, MATERIAL_LOSS, type CalibrateReport, type WorldsCheck } from '../../../backtest/train/index.js';
import { usd } from '../../../backtest/index.js';
import { worldsTable } from '../tune/tune-report-text.js';
import { points } from '../../../backtest/tune/tuner.js';
import type { CalibrationDefinition } from '../../../engine/definition/strategy-schema.js';
import { formatTable } from '../strategy/text-table.js';

/** A calibration block in one line. */
function calibrationText(calibration: CalibrationDefinition): string {
  if (calibration.method === 'learned')
    return `learned (level sd ${calibration.level_sd}, slope sd ${calibration.slope_sd}${calibration.seed === undefined ? '' : `, seed ${calibrationText(calibration.seed)}`})`;
  if (calibration.method === 'platt') return `platt a ${String(calibration.a)}, b ${String(calibration.b)}`;
  return `isotonic, ${calibration.points.length} points (${calibration.points.map(([p, q]) => `${p}->${q}`).join(', ')})`;
}

function stats(title: string, value: CalibrationStats): string {
  return `${title}\n${calibrationStatsText(value)}`;
}

/** The held-out money check across borrower worlds, and what it decided. */
export function worldsCheckText(check: WorldsCheck, ignoreWorlds: boolean, what: 'calibration' | 'model' = 'calibration'): string {
  const a = check.assumed;
  const parts = [
    `\nHeld out, in money: the strategy with the ${what} fitted on the first part against the strategy as it is (balance ${usd(check.startingBalanceCents)} USD, seed ${CHECK_SEED})\n`,
    `  under the assumed take-up: ${points(a.gain)} of net annualized return, ${Math.round(a.confidence * 100)}% interval ${points(a.low)} to ${points(a.high)} (${a.requests} requests; funded ${a.candidateFunded} vs ${a.baselineFunded})\n`,
  ];
  if (check.worlds.length > 0)
    parts.push(
      `In each borrower world (refused when the ${what} loses ${points(MATERIAL_LOSS).slice(1)} or more in any):\n`,
      worldsTable(check.worlds),
    );
  else parts.push('  every held-out request records acceptance: judged by it alone\n');
  if (check.holds) parts.push('Holds across borrower worlds.\n');
  else
    parts.push(
      `Loses in ${check.losing.map((w) => `${w.world} ${points(w.gain)}`).join(', ')}${ignoreWorlds ? '; written anyway (--ignore-worlds)' : ''}.\n`,
    );
  return parts.join('');
}

/** The report; `check` (the held-out money check) before the line saying what was written, `out` null when nothing was. */
export function formatCalibrateReport(report: CalibrateReport, out: string | null, check?: { text: string }): string {
  const parts: string[] = [];
  const scored = report.recordings.reduce((sum, r) => sum + r.scored, 0);
  const fit = report.recordings.reduce((sum, r) => sum + r.fit, 0);
  parts.push(
    `Calibration of ${report.strategy.name} (${report.strategy.file}), ${report.method}, on ${report.recordings.length} recording${report.recordings.length > 1 ? 's' : ''}\n`,
  );
  parts.push(
    formatTable(
      ['recording', 'requests', 'resolved', 'scored', 'fit', 'held out'],
      report.recordings.map((r) => [r.file, String(r.requests), String(r.resolved), String(r.scored), String(r.fit), String(r.heldOut)]),
      '  ',
    ),
  );
  parts.push(`  (${RESOLVED_RULE}; scored: the strategy's decision carries a probability)\n\n`);
  parts.push(`Fitted on the first part of each recording (${fit} requests): ${calibrationText(report.evaluated)}\n\n`);
  const current =
    report.replaced === undefined ? 'the strategy as it is, no calibration' : `the strategy as it is, ${calibrationText(report.replaced)}`;
  parts.push(stats(`Held out, before (${current}), by decile of predicted default, safest first`, report.before), '\n');
  parts.push(stats('Held out, after (the fitted calibration)', report.after), '\n');
  parts.push(`Written: ${calibrationText(report.calibration)} (refit on all ${scored} scored requests)\n`);
  if (report.cut !== undefined) {
    const same = report.cut.sameRequestsAt;
    parts.push(
      same === null
        ? `min_probability ${report.cut.minProbability} is unchanged; no calibrated value lets the same requests through\n`
        : `min_probability ${report.cut.minProbability} is unchanged and now reads on the calibrated scale; ${same} would let the same requests through as before\n`,
    );
  }
  if (check !== undefined) parts.push(check.text);
  if (out !== null) parts.push(`Wrote ${out} (score.calibration)\n`);
  return parts.join('');
}
