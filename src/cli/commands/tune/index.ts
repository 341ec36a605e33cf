/**
 * `lendbot tune`: searches the params a strategy declares on a recording, picks the best trial by
 * its training score, compares it with the current values on the held-out data request by
 * request (with a bootstrap interval), and writes the strategy with only its param values
 * changed (--out): the tuned values when the interval is above zero, else the current ones.
 * Uses worker threads on every core when there is much to evaluate.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { OBJECTIVES, DEFAULT_MAX_DEFAULT, type Objective } from '../../../backtest/index.js';
import { rewriteParams } from '../../../backtest/index.js';
import type { SplitSpec } from '../../../backtest/index.js';
import { tune } from '../../../backtest/index.js';
import { shareCompactRecording, workerCount, workerPoolEvaluator } from '../../../backtest/index.js';
import { defaultBalance, defaultBalanceRule, dollars } from '../../../backtest/index.js';
import type { CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import {
  addReplayOptions,
  loadLimits,
  loadSource,
  loadStrategies,
  marketOf,
  warnLegacyMarket,
  type MarketOptions,
} from '../backtest/backtest-inputs.js';
import { progressLine } from './progress-line.js';
import { limitTuneHeapGrowth, limitTuneReadHeapGrowth } from './tune-heap.js';
import { formatTuneReport } from './tune-report-text.js';
import { examplesHelp } from '../../examples-help.js';

interface TuneCliOptions extends MarketOptions {
  data: string;
  from?: string;
  to?: string;
  strategy: string;
  trials: number;
  seed: number;
  objective: Objective;
  maxDefault: number;
  split?: number;
  walkForward?: number;
  out?: string;
  json?: string;
  workers?: number;
  ignoreWorlds?: boolean;
  acceptSmallSample?: boolean;
  halving?: boolean;
}

// Below this many request-evaluations, starting threads costs more than it saves.
const WORKER_THRESHOLD = 2_000_000;

function whole(min: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < min) throw new InvalidArgumentError(`expected a whole number from ${min}`);
    return Number(text);
  };
}

function share(text: string): number {
  const value = Number(text);
  if (!(value > 0 && value < 1)) throw new InvalidArgumentError('expected a share between 0 and 1, such as 0.7');
  return value;
}

export function registerTuneCommand(program: Command, io: CliIo): void {
  const command = program
    .command('tune')
    .description('search a strategy’s params on a recording; keep the best only if it beats the current values held out')
    .requiredOption('--strategy <file>', 'strategy file (YAML) whose params: are searched');
  addReplayOptions(command, false)
    .option('--trials <n>', 'param sets to try (the current values are the first)', whole(1), 200)
    .option('--seed <n>', 'random seed: the same seed gives the same trials', whole(0), 1)
    .addOption(new Option('--objective <name>', 'what to maximize').choices(OBJECTIVES).default('net_return'))
    .option('--max-default <share>', 'for return_with_max_default: highest default rate without penalty', share, DEFAULT_MAX_DEFAULT)
    .option('--split <share>', 'train on this first share of the requests, hold out the rest (default 0.7)', share)
    .option('--walk-forward <k>', 'instead of --split: K anchored walk-forward windows', whole(1))
    .option('--out <file>', 'write the tuned strategy here (only param values change)')
    .option('--json <file>', 'write the tune report as JSON')
    .option(
      '--ignore-worlds',
      'write the tuned values when the held-out gain holds under the assumed take-up curve, even if it fails in some borrower world',
    )
    .option(
      '--accept-small-sample',
      'write the tuned values even when fewer than 100 loans were funded held out (the backtest calls such figures mostly luck)',
    )
    .option(
      '--halving',
      'successive halving: judge every trial on the most recent part of the training period first, replay only the best on all of it (default when trials x training requests reach 100 million)',
    )
    .option('--no-halving', 'replay every trial on the whole training period, however large the tune')
    .option(
      '--workers <n>',
      'threads that run trials: this one and n-1 worker threads (default: one per core when there is much to do; 1 = this one only)',
      whole(1),
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot tune --data day.jsonl --strategy strategies/balanced.yaml --trials 200 --walk-forward 3 --out balanced.tuned.yaml',
        [
          'lendbot tune --data day.jsonl --strategy strategies/balanced.yaml --objective risk_adjusted --split 0.8',
          'report only, no file written',
        ],
        [
          'lendbot tune --data year.jsonl --strategy strategies/balanced.yaml --trials 1000 --out balanced.tuned.yaml',
          'a large recording: successive halving, on every core',
        ],
      ),
    )
    .action(async (options: TuneCliOptions) => {
      limitTuneReadHeapGrowth();
      warnLegacyMarket(io, options);
      if (options.data === undefined) throw new UserError('tune needs the recording as --data FILE');
      if (options.split !== undefined && options.walkForward !== undefined) throw new UserError('give --split or --walk-forward, not both');
      const [strategy] = await loadStrategies(options.strategy);
      if (!strategy || strategy.kind !== 'yaml') throw new UserError('tune needs one YAML strategy file');
      if (Object.keys(strategy.paramSpecs).length === 0) throw new UserError(`${strategy.file} declares no params: nothing to tune`);
      const recording = await loadSource(io, options);
      const limits = await loadLimits(options.config);
      const split: SplitSpec =
        options.walkForward !== undefined
          ? { kind: 'walk_forward', windows: options.walkForward }
          : { kind: 'split', trainShare: options.split ?? 0.7 };
      // The same default as the backtest's: a balance that fits the recording (docs/backtesting.md).
      const fit = defaultBalance(recording);
      const backtest = { startingBalanceCents: options.balance ?? fit.cents, limits, market: marketOf(options) };
      // Where the balance comes from, said beside it: a bare 88,000 USD reads as a figure of the account.
      const balanceSource =
        options.balance === undefined
          ? `the backtest's default, ${defaultBalanceRule(fit, dollars)}; --balance sets it`
          : 'given by --balance';
      const windows = split.kind === 'split' ? 1 : split.windows;
      const threads = options.workers ?? (options.trials * recording.entries.length * windows >= WORKER_THRESHOLD ? workerCount() : 1);
      // The recording is read: tighter from here, before the worker threads start (their heaps follow it too).
      limitTuneHeapGrowth();
      const progress = progressLine(io, 'tuning');
      const report = await tune(recording, strategy, {
        trials: options.trials,
        seed: options.seed,
        objective: { objective: options.objective, maxDefault: options.maxDefault },
        split,
        backtest,
        onProgress: progress.update,
        // A long tune in a pipe or a log shows no progress bar: a line as each rung starts.
        onRung: ({ rung, of, share, trials, requests }) =>
          io.stderr.write(
            `${progress.active ? '\n' : ''}tuning: rung ${rung} of ${of}, ${trials.toLocaleString('en-US')} trials on ` +
              `${share >= 1 ? 'the whole training period' : `the last ${(share * 100).toFixed(1)}% of the training period`} ` +
              `(${requests.toLocaleString('en-US')} requests)\n`,
          ),
        acrossWorlds: options.ignoreWorlds !== true,
        acceptSmallSample: options.acceptSmallSample === true,
        ...(options.halving === undefined ? {} : { halving: options.halving }),
        ...(threads > 1
          ? {
              evaluator: workerPoolEvaluator(
                {
                  // The workers read this process's recording (shared memory), not a copy each.
                  recording: shareCompactRecording(recording),
                  file: options.data,
                  period: { from: options.from, to: options.to },
                  strategyFile: strategy.file,
                  split,
                },
                threads,
              ),
            }
          : {}),
      });
      progress.finish();
      io.stdout.write(formatTuneReport(report, balanceSource));
      if (options.json !== undefined) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
      if (options.out !== undefined) {
        await writeFile(options.out, rewriteParams(await readFile(strategy.file, 'utf8'), report.chosen));
        io.stderr.write(`wrote ${options.out}${report.improved ? '' : ' (current values kept)'}\n`);
      } else if (report.improved) {
        // The verdict says the tuned values are the ones to write; without --out nothing was.
        io.stderr.write('nothing written: --out FILE writes the strategy with the tuned values\n');
      }
    });
}
