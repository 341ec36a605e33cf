/**
 * The tune report for a terminal: per window, the best trials' training scores and the held-out
 * scores of the candidate and the current values; then the paired held-out gain with its interval.
 */
import type { RankedTrial, TuneReport } from '../../../backtest/index.js';
import type { WorldHeldOut } from '../../../backtest/tune/held-out-worlds.js';
import { dollars } from '../../../backtest/index.js';
import { formatTable } from '../strategy/text-table.js';

const pts = (score: number | null): string => (score === null ? '-' : `${(score * 100).toFixed(2)}%`);
const params = (values: Record<string, number>): string =>
  Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

function row(label: string, trial: RankedTrial): string[] {
  const held = trial.testFigures;
  return [
    label,
    String(trial.trial),
    pts(trial.train),
    pts(trial.test),
    String(held?.offers ?? '-'),
    String(held?.funded ?? '-'),
    pts(held?.defaultRate ?? null),
    params(trial.params),
  ];
}

/** The held-out comparison per borrower world, one row each (tune's and train's reports). */
export function worldsTable(worlds: readonly WorldHeldOut[]): string {
  const rows = worlds.map((w) => [
    w.world,
    pts(w.evidence.gain),
    `${pts(w.evidence.low)} to ${pts(w.evidence.high)}`,
    String(w.evidence.requests),
    `${w.evidence.candidateFunded} vs ${w.evidence.baselineFunded}`,
  ]);
  return formatTable(
    ['world', 'gain', `${Math.round((worlds[0]?.evidence.confidence ?? 0.95) * 100)}% interval`, 'requests', 'funded'],
    rows,
    '  ',
  );
}

const share = (value: number): string => (value >= 1 ? 'all of it' : `its last ${(value * 100).toFixed(1)}%`);

/** Successive halving's rungs in a sentence: which trials were replayed on how much of the training period. */
function halvingLine(rungs: NonNullable<TuneReport['halving']>): string {
  const steps = rungs.map((rung) => `${rung.trials} on ${share(rung.share)}`).join(', ');
  return `Successive halving (the trials at first judged on the most recent part of the training period, the best third of each rung on a part three times longer): ${steps}. The table ranks the trials replayed on all of it.\n`;
}

/** `balanceSource`: where the starting balance comes from ("given by --balance", or the default's rule). */
export function formatTuneReport(report: TuneReport, balanceSource?: string): string {
  const split = report.split.kind === 'split' ? `split ${report.split.trainShare}` : `walk-forward ${report.split.windows} windows`;
  const parts = [
    `Tuned ${report.strategy.name} (${report.strategy.file}, content ${report.strategy.contentHash}): ${report.trials} trials, seed ${report.seed}, objective ${report.objective.objective}, ${split}, starting balance ${dollars(report.startingBalanceCents)}${balanceSource === undefined ? '' : ` (${balanceSource})`}\n`,
  ];
  if (report.halving !== undefined) parts.push(halvingLine(report.halving));
  report.windows.forEach((window, index) => {
    parts.push(
      `\nWindow ${index + 1}: train ${window.trainRequests} requests ${window.trainFrom ?? '-'} to ${window.trainTo ?? '-'}; held out ${window.testRequests} requests ${window.testFrom ?? '-'} to ${window.testTo ?? '-'}\n`,
    );
    const rows = [row('current', window.baseline), ...window.top.map((trial, rank) => row(`#${rank + 1}`, trial))];
    parts.push(formatTable(['', 'trial', 'train', 'held out', 'offers (h.o.)', 'funded (h.o.)', 'default (h.o.)', 'params'], rows, '  '));
  });
  const h = report.heldOut;
  const blocks = [...new Set(h.blockLengths)].join('/');
  parts.push(
    `\nGain of the candidate (#1) over the current values: ${pts(report.trainGain)} in training; held out ${pts(h.gain)}, ` +
      `${Math.round(h.confidence * 100)}% interval ${pts(h.low)} to ${pts(h.high)} ` +
      `(paired over ${h.requests} held-out requests, blocks of ${blocks}, ${h.resamples} resamples; funded ${h.candidateFunded} vs ${h.baselineFunded})\n`,
  );
  if (report.worlds.length > 0) {
    parts.push('Held out in each borrower world (the gain must be above 0 in every one):\n');
    parts.push(worldsTable(report.worlds));
  }
  parts.push(`${report.verdict}\n`);
  parts.push(`Values: ${params(report.chosen)}\n`);
  return parts.join('');
}
