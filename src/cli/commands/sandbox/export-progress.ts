/**
 * Progress of a long `lendbot sandbox export` on stderr: a line each time another
 * PROGRESS_EVERY requests have arrived or lines been written. Both count, because a line waits for
 * every earlier request to be final (a two-year loan), so the first lines of a big export come long
 * after the first arrivals. Plain lines, as the backtest's reading progress, so a log keeps them.
 */
import type { ExportProgress } from '../../../sandbox/index.js';
import type { CliIo } from '../../cli-io.js';

export const PROGRESS_EVERY = 50_000;

export function exportProgress(io: CliIo): (progress: ExportProgress) => void {
  let shown = 0;
  const count = (n: number): string => n.toLocaleString('en-US');
  return ({ arrived, written, total, simulatedMs }) => {
    const step = Math.floor(arrived / PROGRESS_EVERY) + Math.floor(written / PROGRESS_EVERY);
    if (step <= shown) return;
    shown = step;
    const day = new Date(simulatedMs).toISOString().slice(0, 10);
    io.stderr.write(
      `sandbox export: ${count(arrived)} of ${count(total)} requests arrived, ${count(written)} lines written (simulated ${day})\n`,
    );
  };
}
