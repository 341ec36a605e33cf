/**
 * `lendbot backtest`: replays a recording (or the daemon's database) through one or more
 * strategies with a simulated balance and the live guard, and reports what they would have done:
 * on the terminal, as JSON (--json) and as a self-contained HTML page with charts (--html).
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { BacktestResult } from '../../../backtest/index.js';
import { backtestHtml } from '../../../backtest/index.js';
import { runBacktest } from '../../../backtest/index.js';
import type { CliIo } from '../../cli-io.js';
import { addReplayOptions, loadLimits, loadSource, loadStrategies, marketOf, type MarketOptions, type RecordingSource } from './backtest-inputs.js';
import { formatBacktest, formatSideBySide } from './report-text.js';

interface BacktestOptions extends RecordingSource, MarketOptions {
  strategy: string;
  json?: string;
  html?: string;
  together?: boolean;
  decisions?: boolean;
  dryRun?: boolean;
}

export const DEFAULT_BALANCE_CENTS = 500_000;

export function registerBacktestCommand(program: Command, io: CliIo): void {
  const command = program
    .command('backtest')
    .description('replay recorded loan requests through strategies and report what they would have earned')
    .requiredOption('--strategy <files>', 'strategy file(s), comma-separated: each is backtested on its own and compared');
  addReplayOptions(command, true)
    .option('--together', 'run the strategies together, by priority, as the daemon does, instead of one by one')
    .option('--json <file>', 'write the full result as JSON')
    .option('--html <file>', 'write a self-contained HTML report with charts')
    .option('--decisions', 'include every request’s decision (action, rate, reasons) in the JSON')
    .option('--dry-run', 'offers never settle and hold until they expire, as in a dry-run daemon session')
    .addHelpText(
      'after',
      '\nThe market model (who wins an offer, how loans repay) is described in docs/backtesting.md.\nExample: lendbot backtest --data day.jsonl --strategy strategies/balanced.yaml,strategies/conservative.yaml --html report.html',
    )
    .action(async (options: BacktestOptions) => {
      const strategies = await loadStrategies(options.strategy);
      const recording = await loadSource(io, options);
      const limits = await loadLimits(options.config);
      const market = { ...marketOf(options), ...(options.dryRun ? { settle: false } : {}) };
      const settings = { startingBalanceCents: options.balance ?? DEFAULT_BALANCE_CENTS, limits, market, recordDecisions: options.decisions ?? false };
      const groups = options.together ? [strategies] : strategies.map((s) => [s]);
      const results: BacktestResult[] = groups.map((group) => runBacktest(recording, group, settings));
      const source = options.data ?? options.db ?? '';
      for (const result of results) io.stdout.write(`${formatBacktest(result, source)}\n`);
      if (results.length > 1) io.stdout.write(formatSideBySide(results));
      if (recording.duplicates > 0) io.stderr.write(`note: ${recording.duplicates} repeated lines merged into the requests they repeat\n`);
      if (options.json !== undefined) {
        await writeFile(options.json, `${JSON.stringify({ version: 1, source, runs: results }, null, 2)}\n`);
        io.stderr.write(`wrote ${options.json}\n`);
      }
      if (options.html !== undefined) {
        await writeFile(options.html, backtestHtml(results, source));
        io.stderr.write(`wrote ${options.html}\n`);
      }
    });
}
