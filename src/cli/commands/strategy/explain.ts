/**
 * `lendbot strategy explain FILE --recording REC.jsonl --id N`: replays one recorded request
 * through a strategy and shows why it decided what it did.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { readRecording, type RecordingLine } from '../../../recording/index.js';
import { recordingDataSource, SimLedger, simSpendLedger } from '../../../backtest/index.js';
import { decideSync, loadStrategyFile, type CompiledStrategy, type Decision, type DecideOutcome } from '../../../engine/index.js';
import { amountToCents } from '../../../domain/index.js';
import { checkOffer, UNCAPPED_RISK_LIMITS } from '../../../risk/index.js';
import { printJson, warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { formatExplanation } from './explain-format.js';
import { existsSync } from 'node:fs';
import { calibrationUsedText, MarketLearning, marketUsedText } from '../../../engine/market/index.js';
import { RestoredLearners } from '../../../daemon/restored-learners.js';
import { WING_LEARNERS } from '../../../daemon/wing-learners.js';
import { examplesHelp } from '../../examples-help.js';
import { reasonText } from '../../../domain/decision-reason.js';

function loanRequestId(text: string): number {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError('expected a loan request id (a whole number)');
  return Number(text);
}

async function findLine(io: CliIo, recording: string, id: number): Promise<RecordingLine> {
  let found: RecordingLine | undefined;
  try {
    // The last line for an id wins: a later line holds what was learned about it since.
    for await (const line of readRecording(recording, (issue) => warn(io, `${issue.file}:${issue.line}: ${issue.message}`))) {
      if (line.loan_request.id === id) found = line;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`recording not found: ${recording}`);
    throw error;
  }
  if (!found) throw new UserError(`loan request ${id} is not in ${recording}`);
  return found;
}

/**
 * One recorded request through the decide step, as the daemon would take it: the recording is
 * the data source, nothing is spent yet this month, and the guard checks a balance without caps.
 */
export function explainRecordedRequest(
  strategies: readonly CompiledStrategy[],
  line: RecordingLine,
  balanceCents: number,
  // A daemon that has seen no fate yet still prices through its learners (at their priors): so
  // does explain, unless it is given what a daemon learned (--db).
  learning: MarketLearning = new MarketLearning(),
): DecideOutcome {
  const ledger = new SimLedger(balanceCents);
  const nowMs = Date.parse(line.seen_at);
  return decideSync(
    line.loan_request,
    { strategies, nowMs, ledger: simSpendLedger(ledger), learning },
    recordingDataSource(line),
    (offer) => checkOffer(offer, ledger.snapshot(nowMs), UNCAPPED_RISK_LIMITS),
  );
}

/**
 * What the daemon learned of its strategies' markets (`--db`), as a copy: a strategy that learns
 * (`pricing.learning`) then prices as the daemon would now. Without it, as a daemon that has learned nothing yet.
 */
async function learnedMarkets(io: CliIo, db: string | undefined): Promise<MarketLearning | undefined> {
  if (db === undefined) return undefined;
  if (!existsSync(db)) throw new UserError(`no database at ${db}`);
  const { readStore } = await import('../../../store/index.js');
  return readStore(db, async (store) => {
    const learners = new RestoredLearners();
    for (const wing of WING_LEARNERS) {
      const stored = wing.read(store);
      for (const strategy of stored.unreadable)
        warn(io, `the ${wing.what} of ${strategy} in ${db} is unreadable; it prices with ${wing.instead}`);
      learners.restore(stored);
    }
    return learners.learning();
  });
}

function usd(text: string): number {
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new InvalidArgumentError('expected an amount in USD, e.g. 5000 or 250.50');
  return amountToCents(text);
}

export function registerExplain(strategy: Command, io: CliIo): void {
  strategy
    .command('explain')
    .description('replay one recorded loan request through a strategy: features, score, price and reasons')
    .argument('<files...>', 'strategy files (YAML or plugin modules), in priority order as the daemon takes them')
    .requiredOption('--recording <path>', 'recording (JSON lines, docs/recording-format.md)')
    .requiredOption('--id <n>', 'loan request id', loanRequestId)
    .option('--balance <usd>', 'the balance the guard checks against', usd, 500_000)
    .option('--db <path>', "the daemon's database: a strategy that learns its market prices with what the daemon learned")
    .option('--json', 'print the decisions as JSON')
    .addHelpText(
      'after',
      "\nThe request goes through the decide step the daemon and the backtest run: at most 4 rounds of buying, the\nstrategy's data budget (nothing spent yet this month), then the guard (no caps, this balance). Data the\nstrategy asks for but the recording lacks counts as not found; the passes that asked are shown too.",
    )
    .addHelpText(
      'after',
      examplesHelp(
        'lendbot strategy explain strategies/balanced.yaml --recording day.jsonl --id 1001',
        [
          'lendbot strategy explain strategies/conservative.yaml strategies/balanced.yaml --recording day.jsonl --id 1001 --balance 250',
          'two strategies by priority, a 250 USD balance',
        ],
        [
          'lendbot strategy explain strategies/balanced.yaml --recording day.jsonl --id 1001 --db data/lendbot.db',
          'priced with the market the daemon learned',
        ],
        ['lendbot sandbox export --out day.jsonl', 'a recording to explain from'],
      ),
    )
    .action(async (files: string[], options: { recording: string; id: number; balance: number; db?: string; json?: boolean }) => {
      const strategies = await Promise.all(files.map((file) => loadStrategyFile(file)));
      const line = await findLine(io, options.recording, options.id);
      const result = explainRecordedRequest(strategies, line, options.balance, await learnedMarkets(io, options.db));
      const loaded = strategies.find((strategy) => strategy.name === result.decision.strategy.name) ?? strategies[0]!;
      if (options.json) {
        const market = marketUsedText(result.decision);
        const calibration = calibrationUsedText(result.decision);
        // The reasons as their machine texts, in the output as in the decisions table.
        const texts = (decision: Decision) => ({ ...decision, reasons: decision.reasons.map(reasonText) });
        printJson(io, {
          loan_request_id: options.id,
          action: result.action,
          reasons: result.reasons.map(reasonText),
          decision: texts(result.decision),
          needs_passes: result.needsPasses.map(texts),
          ...(market === undefined ? {} : { market }),
          ...(calibration === undefined ? {} : { calibration }),
        });
        return;
      }
      io.stdout.write(formatExplanation(loaded, line.loan_request, result));
    });
}
