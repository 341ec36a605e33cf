/**
 * `lendbot strategy explain FILE --recording REC.jsonl --id N`: replays one recorded request
 * through a strategy and shows why it decided what it did.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { readRecording } from '../../../backtest/recording-io.js';
import type { RecordingLine } from '../../../backtest/recording-schema.js';
import { evaluateOffline, loadStrategyFile, type Enrichment } from '../../../engine/index.js';
import { printJson, warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { formatExplanation } from './explain-format.js';

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

/** The enrichment a recording line holds. */
export function enrichmentOf(line: RecordingLine): Enrichment {
  const enrichment: Enrichment = {};
  if (line.data_aggs) enrichment.bankingData = line.data_aggs;
  if (line.scores) enrichment.providerResults = line.scores;
  return enrichment;
}

export function registerExplain(strategy: Command, io: CliIo): void {
  strategy
    .command('explain')
    .description('replay one recorded loan request through a strategy: features, score, price and reasons')
    .argument('<file>', 'strategy file (YAML or plugin module)')
    .requiredOption('--recording <path>', 'recording (JSON lines, docs/recording-format.md)')
    .requiredOption('--id <n>', 'loan request id', loanRequestId)
    .option('--json', 'print the decisions as JSON')
    .addHelpText(
      'after',
      '\nData the strategy asks for but the recording lacks counts as unavailable; the passes that asked are shown too.\nExample: lendbot strategy explain strategies/balanced.yaml --recording day.jsonl --id 1001',
    )
    .action(async (file: string, options: { recording: string; id: number; json?: boolean }) => {
      const loaded = await loadStrategyFile(file);
      const line = await findLine(io, options.recording, options.id);
      const result = evaluateOffline(line.loan_request, enrichmentOf(line), loaded);
      if (options.json) {
        printJson(io, { loan_request_id: options.id, decision: result.decision, needs_passes: result.needsPasses });
        return;
      }
      io.stdout.write(formatExplanation(loaded, line.loan_request, result));
    });
}
