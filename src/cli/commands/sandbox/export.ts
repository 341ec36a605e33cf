/** `lendbot sandbox export`: a recording with known outcomes, from a headless market run. */
import type { Command } from 'commander';
import {
  DEFAULT_PROVIDER_NAMES,
  DEFAULT_SHAPE_NAME,
  DEFAULT_START_TIME,
  exportSandboxRecording,
  type HistoryRateMode,
  type ScoreLinkName,
} from '../../../sandbox/index.js';
import type { CliIo } from '../../cli-io.js';
import {
  historyRateModeName,
  isoTimeText,
  nonNegativeNumber,
  positiveNumber,
  scoreLinkName,
  scoreLinksHelp,
  shapeName,
  shapesHelp,
  wholeNumber,
} from './options.js';
import { examplesHelp } from '../../examples-help.js';
import { limitHeapGrowth } from '../../heap-growth.js';
import { exportProgress } from './export-progress.js';

/**
 * How far the export's heap may grow between full collections (src/cli/heap-growth.ts). The
 * export makes garbage fast (each line is built, parsed and dropped) while what it holds stays
 * level; with V8's default the process grew to several times what is live. On 40,000 requests
 * at 1 an hour: peak RSS 169 MB instead of 247, for 8 % more CPU (12.4 s against 13.4 s).
 */
export const EXPORT_HEAP_GROWING_PERCENT = 50;

interface ExportCliOptions {
  seed: number;
  shape: string;
  defaultScale?: number;
  scoreLink?: ScoreLinkName;
  historyRates: HistoryRateMode;
  requests: number;
  out: string;
  arrivals: number;
  start: string;
  transactions?: boolean;
  providerA: string;
  providerB: string;
}

export function registerExport(sandbox: Command, io: CliIo): void {
  sandbox
    .command('export')
    .description('run the market headless and write every loan request with its outcome as a recording (JSON lines)')
    .requiredOption('--out <file>', 'the recording file to write (overwritten)')
    .option('--seed <n>', 'market seed', wholeNumber('--seed', 0), 42)
    .option(
      '--shape <name>',
      'market shape: what drives default and how lenders and borrowers behave',
      shapeName('--shape'),
      DEFAULT_SHAPE_NAME,
    )
    .option(
      '--default-scale <x>',
      "multiply every borrower's odds of default by x (0.4: a safer market, 1.5: a riskier one)",
      positiveNumber('--default-scale'),
    )
    .option('--score-link <name>', 'change how the credit file relates to default (below)', scoreLinkName('--score-link'))
    .option(
      '--history-rates <mode>',
      "how borrowers' completed loans were priced: market (as this world's lenders would) or uniform (8 % to the maximum, files made before)",
      historyRateModeName('--history-rates'),
      'market',
    )
    .option('--requests <n>', 'how many loan requests to write', wholeNumber('--requests', 1, 10_000_000), 1000)
    .option('--arrivals <n>', 'new loan requests per simulated hour', nonNegativeNumber('--arrivals'), 30)
    .option('--start <iso>', 'start of simulated time', isoTimeText('--start'), DEFAULT_START_TIME)
    .option('--transactions', 'include the raw bank transactions (data_aggregation); files get about 10x larger')
    .option('--provider-a <name>', 'name of score provider A in `scores`', DEFAULT_PROVIDER_NAMES.a)
    .option('--provider-b <name>', 'name of score provider B in `scores`', DEFAULT_PROVIDER_NAMES.b)
    .addHelpText(
      'after',
      `
Each line: seen_at, the loan request as the list endpoint returns it, its banking data (agg_90),
both providers' results, and the ground-truth outcome (status, funded_rate, best_competing_rate,
reservation_rate: the highest rate the borrower would have accepted, repaid_fraction,
resolved_at; if_funded for a request nobody funded). The market runs on after
the last arrival until loans resolve; loans still running then are "current". The same seed and
shape give the same file. See docs/recording-format.md and docs/sandbox.md.

Market shapes:
${shapesHelp()}

Shifted worlds (--default-scale, --score-link: the shape's borrowers and competitors, another
level or link of default; docs/sandbox.md, "Shifted worlds"). --history-rates uniform writes the
files of earlier versions, whose past-loan rates say nothing of the borrower. Score links:
${scoreLinksHelp()}`,
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot sandbox export --out day.jsonl',
        ['lendbot sandbox export --out credit.jsonl --shape credit --requests 5000 --seed 7', 'a bigger market of another shape'],
        [
          'lendbot sandbox export --out safer.jsonl --shape shoppers --default-scale 0.4',
          'the same market with 0.4 times the odds of default',
        ],
        ['lendbot sandbox export --out bank.jsonl --score-link bank-led', 'where the bank account says more than the credit score'],
        ['lendbot backtest --data day.jsonl --strategy strategies/balanced.yaml', 'then replay it'],
      ),
    )
    .action(async (options: ExportCliOptions) => {
      limitHeapGrowth(EXPORT_HEAP_GROWING_PERCENT);
      const started = performance.now();
      const summary = await exportSandboxRecording(options.out, {
        seed: options.seed,
        shape: options.shape,
        defaultScale: options.defaultScale,
        scoreLink: options.scoreLink,
        historyRates: options.historyRates,
        requests: options.requests,
        arrivalsPerHour: options.arrivals,
        startTime: options.start,
        includeTransactions: options.transactions === true,
        providerNames: { a: options.providerA, b: options.providerB },
        onProgress: exportProgress(io),
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const statuses = Object.entries(summary.byStatus)
        .map(([status, count]) => `${status} ${count}`)
        .join(', ');
      io.stdout.write(
        `wrote ${summary.lines} loan requests to ${options.out} in ${seconds}s (simulated ${summary.simulatedFrom} to ${summary.simulatedUntil}; ${statuses})\n` +
          `market shape ${summary.shape}${summary.world === '' ? '' : ` (${summary.world})`}, seed ${options.seed}: ${summary.walkedAway} borrowers walked away from an offer as too expensive\n`,
      );
    });
}
