/** The tune report for a terminal: per window, the best trials' training and held-out scores. */
import type { RankedTrial, TuneReport } from '../../../backtest/index.js';
import { formatTable } from '../strategy/text-table.js';

const pts = (score: number | null): string => (score === null ? '-' : `${(score * 100).toFixed(2)}%`);
const params = (values: Record<string, number>): string =>
  Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

function row(label: string, trial: RankedTrial): string[] {
  return [label, String(trial.trial), pts(trial.train), pts(trial.test), String(trial.testFigures?.offers ?? '-'), pts(trial.testFigures?.defaultRate ?? null), params(trial.params)];
}

export function formatTuneReport(report: TuneReport): string {
  const split = report.split.kind === 'split' ? `split ${report.split.trainShare}` : `walk-forward ${report.split.windows} windows`;
  const parts = [
    `Tuned ${report.strategy.name} (${report.strategy.file}, content ${report.strategy.contentHash}): ${report.trials} trials, seed ${report.seed}, objective ${report.objective.objective}, ${split}\n`,
  ];
  report.windows.forEach((window, index) => {
    parts.push(
      `\nWindow ${index + 1}: train ${window.trainRequests} requests ${window.trainFrom ?? '-'} to ${window.trainTo ?? '-'}; held out ${window.testRequests} requests ${window.testFrom ?? '-'} to ${window.testTo ?? '-'}\n`,
    );
    const rows = [row('current', window.baseline), ...window.top.map((trial, rank) => row(`#${rank + 1}`, trial))];
    parts.push(formatTable(['', 'trial', 'train', 'held out', 'offers (h.o.)', 'default (h.o.)', 'params'], rows, '  '));
  });
  parts.push(`\nGain over the current values: ${pts(report.trainGain)} in training, ${pts(report.heldOutGain)} held out\n${report.verdict}\n`);
  parts.push(`Values: ${params(report.chosen)}\n`);
  return parts.join('');
}
