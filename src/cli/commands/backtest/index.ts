/**
 * `lendbot backtest`: replays a recording (or the daemon's database) through one or more
 * strategies with a simulated balance and the live guard, and reports what they would have done:
 * on the terminal, as JSON (--json) and as a self-contained HTML page with charts (--html). The
 * market's acceptance draws are seeded: --draws N runs N seeds and reports the spread, a band
 * re-runs them in structurally different borrower worlds (the headline is its range), and a
 * sensitivity section re-runs them with borrowers more and less rate-sensitive.
 */
import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import type {
  BacktestOptions as ReplayOptions,
  BacktestResult,
  DrawsSummary,
  SensitivityCase,
  WorldsBand,
} from '../../../backtest/index.js';
import {
  backtestHtml,
  cannotBeJudged,
  drawSeeds,
  idleHeadline,
  runDraws,
  runSensitivity,
  runWorlds,
  sensitivityNote,
  verdictLine,
} from '../../../backtest/index.js';
import type { CliIo } from '../../cli-io.js';
import {
  addReplayOptions,
  loadSource,
  loadStrategies,
  marketOf,
  warnLegacyMarket,
  type MarketOptions,
  type RecordingSource,
} from './backtest-inputs.js';
import { backtestConditions, conditionsChoice, type ConditionsChoice } from './conditions.js';
import { formatBacktest, formatSideBySide } from './report-text.js';
import { limitBacktestHeapGrowth } from './backtest-heap.js';
import { calibrationOfPass, StrategyProbabilityPass } from '../../../backtest/calibration/index.js';
import { examplesHelp } from '../../examples-help.js';

interface BacktestOptions extends RecordingSource, MarketOptions {
  strategy: string;
  json?: string;
  html?: string;
  together?: boolean;
  decisions?: boolean;
  dryRun?: boolean;
  draws: number;
  seed?: number;
  sensitivity: boolean;
  worlds: boolean;
  conditions: ConditionsChoice;
}

export const DEFAULT_DRAWS = 5;

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return value;
}

function integer(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value)) throw new InvalidArgumentError('expected a whole number');
  return value;
}

export function registerBacktestCommand(program: Command, io: CliIo): void {
  const command = program
    .command('backtest')
    .description('replay recorded loan requests through strategies and report what they would have earned')
    .requiredOption('--strategy <files>', 'strategy file(s), comma-separated: each is backtested on its own and compared');
  addReplayOptions(command, true, true)
    .option(
      '--conditions <daemon|unlimited>',
      "daemon (default): the risk limits of the daemon's config and the account's balance; unlimited: no caps unless --config, a balance fitted to the recording",
      conditionsChoice,
      'daemon',
    )
    .option(
      '--draws <n>',
      `seeded draws of the market (acceptance, prepayment) to average (default ${DEFAULT_DRAWS})`,
      positiveInteger,
      DEFAULT_DRAWS,
    )
    .option('--seed <n>', "seed of the first draw; draw i uses seed + i (default 1, or the --market file's seed)", integer)
    .option('--no-sensitivity', 'leave out the sensitivity section (borrowers more and less rate-sensitive)')
    .option('--no-worlds', "leave out the band across borrower worlds (the headline is then one world's figure)")
    .option('--together', 'run the strategies together, by priority, as the daemon does, instead of one by one')
    .option('--json <file>', 'write the full result as JSON')
    .option('--html <file>', 'write a self-contained HTML report with charts')
    .option('--decisions', 'include every request’s decision (action, rate, reasons) in the JSON')
    .option('--dry-run', 'offers never settle and hold until they expire, as in a dry-run daemon session')
    .addHelpText('after', '\nThe market model (who accepts an offer, how loans repay) is described in docs/backtesting.md.')
    .addHelpText(
      'after',
      examplesHelp(
        [
          'lendbot backtest --data day.jsonl --strategy strategies/balanced.yaml,strategies/conservative.yaml --html report.html',
          'two strategies side by side',
        ],
        ['lendbot backtest --db data/lendbot.db --strategy strategies/balanced.yaml --from 2026-11-01', "the daemon's own history"],
        [
          'lendbot backtest --data day.jsonl --strategy strategies/balanced.yaml --conditions unlimited',
          "no caps and a balance fitted to the recording, not the daemon's",
        ],
        ['lendbot sandbox export --out day.jsonl', 'a recording to start with'],
      ),
    )
    .action(async (options: BacktestOptions) => {
      limitBacktestHeapGrowth();
      warnLegacyMarket(io, options);
      const strategies = await loadStrategies(options.strategy);
      const recording = await loadSource(io, options);
      const conditions = await backtestConditions(options, recording, io);
      const settled = !options.dryRun;
      const market = { ...marketOf(options), ...(settled ? {} : { settle: false }) };
      const settings = {
        startingBalanceCents: conditions.balance.cents,
        limits: conditions.limits,
        market,
        recordDecisions: options.decisions ?? false,
      };
      // A dry run never draws: one run says everything.
      const seeds = drawSeeds(options.seed ?? market.seed ?? 1, settled ? options.draws : 1);
      const groups = options.together ? [strategies] : strategies.map((s) => [s]);
      const results: BacktestResult[] = [];
      const draws: DrawsSummary[] = [];
      // Per run; undefined when not asked for (--no-sensitivity, a dry run).
      const sensitivity: Array<SensitivityCase[] | undefined> = [];
      const worlds: Array<WorldsBand | null> = [];
      for (const group of groups) {
        // The strategies' probability against what happened: from the recording alone, the same in
        // every draw; found as the first draw reads each request (strategyCalibration's way, without
        // a pass of its own over the lines).
        const calibration = group.map((strategy) => new StrategyProbabilityPass(strategy));
        const onRead: ReplayOptions['onRead'] = (entry, read) => {
          for (const pass of calibration) pass.add(entry, read);
        };
        const run = runDraws(recording, group, { ...settings, onRead }, seeds);
        run.first.calibration = calibration.map((pass) => calibrationOfPass(pass, recording.entries.length));
        results.push(run.first);
        draws.push(run.draws);
        // Where the take-up curve judged no offer, varying it cannot change a figure: the report says so instead.
        const curveJudged = sensitivityNote(run.first)?.replacesTable !== true;
        sensitivity.push(
          settled && options.sensitivity ? (curveJudged ? runSensitivity(recording, group, settings, seeds) : []) : undefined,
        );
        // A run the recording cannot judge has no band: every world would judge nothing too.
        const judgeable = !cannotBeJudged(run.first.summary);
        worlds.push(settled && options.worlds && judgeable ? runWorlds(recording, group, settings, seeds, run.draws) : null);
      }
      const source = options.data ?? options.db ?? '';
      const verdict = verdictLine(results, draws, worlds);
      if (verdict) io.stdout.write(`Verdict: ${verdict}.\n\n`);
      results.forEach((result, i) =>
        io.stdout.write(
          `${formatBacktest(result, source, { conditions: conditions.text, draws: draws[i], sensitivity: sensitivity[i], worlds: worlds[i] ?? undefined })}\n`,
        ),
      );
      if (results.length > 1) io.stdout.write(formatSideBySide(results, draws));
      if (recording.duplicates > 0) io.stderr.write(`note: ${recording.duplicates} repeated lines merged into the requests they repeat\n`);
      if (options.json !== undefined) {
        const { balance } = conditions;
        const written = {
          version: 1,
          source,
          verdict,
          conditions: { name: conditions.conditions, text: conditions.text, limitsFrom: conditions.limitsFrom },
          runs: results,
          // Per run: how much money sat idle and why (the caps, or the market's flow), as the headline says.
          idle: results.map((result) => idleHeadline(result.summary, result.settings.market.settle)),
          draws,
          sensitivity: sensitivity.map((cases) => cases ?? []),
          worlds,
          balance: { cents: balance.cents, default: balance.from !== 'given', from: balance.from, rule: balance.rule },
        };
        await writeFile(options.json, `${JSON.stringify(written, null, 2)}\n`);
        io.stderr.write(`wrote ${options.json}\n`);
      }
      if (options.html !== undefined) {
        await writeFile(options.html, backtestHtml(results, source, draws, worlds, { sensitivity, conditions: conditions.text }));
        io.stderr.write(`wrote ${options.html}\n`);
      }
    });
}
