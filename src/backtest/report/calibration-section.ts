/**
 * The HTML report's calibration section: for each strategy, its predicted default by decile
 * against what happened on the recording's resolved requests it scores, the Brier score against
 * a constant guess, the requests around min_probability, and where it is off, in words.
 */
import type { BacktestResult } from '../backtest-result.js';
import { DECILE_HEADER, decileRows, RESOLVED_RULE, type StrategyCalibration } from '../calibration/index.js';
import { escapeHtml, table } from './report-tables.js';

function strategySection(calibration: StrategyCalibration): string {
  const title = `<h3>${escapeHtml(calibration.strategy)}</h3><p>${calibration.scored.toLocaleString('en-US')} resolved requests scored (of ${calibration.resolved.toLocaleString('en-US')} resolved, ${calibration.requests.toLocaleString('en-US')} requests); by decile of predicted default, safest first.</p>`;
  if (calibration.overall.n === 0) return `${title}<p class="no-loans">No resolved request was scored.</p>`;
  const findings = calibration.findings
    .map(
      (finding) => `<li${finding.ok ? '' : ' class="off"'}>${finding.ok ? '' : '<strong>Off:</strong> '}${escapeHtml(finding.text)}.</li>`,
    )
    .join('');
  return `${title}<div class="scroll">${table('calibration', DECILE_HEADER, decileRows(calibration))}</div><ul class="findings">${findings}</ul>`;
}

/** The section, or nothing when no run carries calibration figures. */
export function calibrationHtml(results: readonly BacktestResult[]): string {
  const calibrations = results.flatMap((result) => result.calibration ?? []);
  if (calibrations.length === 0) return '';
  return (
    `<h2>Calibration: predicted against realised default</h2>` +
    `<p>Each strategy's repayment probability on every resolved request of the recording it scores, not only its loans (${escapeHtml(RESOLVED_RULE)}). ` +
    `"off": more than 2 points from what happened and outside the 95 % interval of the realised rate. Fix a miscalibrated score with <code>lendbot train calibration</code> (docs/training.md).</p>` +
    calibrations.map(strategySection).join('')
  );
}
