/** `lendbot train --calibrate`'s report as text: the data, the held-out table before and after, what was written. */
import { RESOLVED_RULE, type CalibrationStats } from '../../../backtest/calibration/index.js';
import { calibrationStatsText } from '../backtest/calibration-text.js';
import type { CalibrateReport } from '../../../backtest/train/index.js';
import type { CalibrationDefinition } from '../../../engine/definition/strategy-schema.js';
import { formatTable } from '../strategy/text-table.js';

/** A calibration block in one line. */
export function calibrationText(calibration: CalibrationDefinition): string {
  if (calibration.method === 'platt') return `platt a ${String(calibration.a)}, b ${String(calibration.b)}`;
  return `isotonic, ${calibration.points.length} points (${calibration.points.map(([p, q]) => `${p}->${q}`).join(', ')})`;
}

function stats(title: string, value: CalibrationStats): string {
  return `${title}\n${calibrationStatsText(value)}`;
}

export function formatCalibrateReport(report: CalibrateReport, out: string): string {
  const parts: string[] = [];
  const scored = report.recordings.reduce((sum, r) => sum + r.scored, 0);
  const fit = report.recordings.reduce((sum, r) => sum + r.fit, 0);
  parts.push(`Calibration of ${report.strategy.name} (${report.strategy.file}), ${report.method}, on ${report.recordings.length} recording${report.recordings.length > 1 ? 's' : ''}\n`);
  parts.push(
    formatTable(
      ['recording', 'requests', 'resolved', 'scored', 'fit', 'held out'],
      report.recordings.map((r) => [r.file, String(r.requests), String(r.resolved), String(r.scored), String(r.fit), String(r.heldOut)]),
      '  ',
    ),
  );
  parts.push(`  (${RESOLVED_RULE}; scored: the strategy's decision carries a probability)\n\n`);
  parts.push(`Fitted on the first part of each recording (${fit} requests): ${calibrationText(report.evaluated)}\n\n`);
  const current = report.replaced === undefined ? 'the strategy as it is, no calibration' : `the strategy as it is, ${calibrationText(report.replaced)}`;
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
  parts.push(`Wrote ${out} (score.calibration)\n`);
  return parts.join('');
}
