/**
 * A recording as training data: one entry per loan request (replay order, duplicates merged as
 * the backtest merges them), its repayment label and its feature values computed as a strategy
 * computes them from the request, the banking data and the scores the line carries.
 */
import { FeatureComputer } from '../../engine/model/index.js';
import type { Enrichment, FeatureValue } from '../../engine/index.js';
import type { RecordingLine } from '../../recording/index.js';
import type { PreparedRecording } from '../prepared-recording.js';

export interface TrainingLine {
  seenMs: number;
  seenAt: string;
  line: RecordingLine;
  /** 1: repaid in full; 0: defaulted or in collection; null: not known (running, or unfunded without `if_funded`). */
  label: 0 | 1 | null;
  /** In the order of TrainingData.names. */
  values: FeatureValue[];
}

export interface TrainingData {
  names: readonly string[];
  lines: TrainingLine[];
}

/**
 * The repayment label of a line: completed is 1, default and collection are 0; a request nobody
 * funded counts by what `outcome.if_funded` says would have happened, when the recording knows.
 */
export function labelOf(line: Pick<RecordingLine, 'outcome'>): 0 | 1 | null {
  const outcome = line.outcome;
  if (!outcome) return null;
  const status = outcome.status === 'unfunded' ? outcome.if_funded?.status : outcome.status;
  if (status === 'completed') return 1;
  if (status === 'default' || status === 'collection') return 0;
  return null;
}

/** What a line says was bought about the request, as the engine's Enrichment. */
export function enrichmentOf(line: RecordingLine): Enrichment {
  const enrichment: Enrichment = {};
  if (line.data_aggs) enrichment.bankingData = line.data_aggs;
  if (line.scores) enrichment.providerResults = line.scores;
  return enrichment;
}

/** Labels and feature values of every entry of a prepared recording. */
export function trainingData(recording: PreparedRecording, names: readonly string[]): TrainingData {
  const computer = new FeatureComputer(names);
  const lines = recording.entries.map((entry): TrainingLine => ({
    seenMs: entry.seenMs,
    seenAt: entry.seenAt,
    line: entry.line,
    label: labelOf(entry.line),
    values: computer.values(entry.line.loan_request, enrichmentOf(entry.line)),
  }));
  return { names, lines };
}
