/** Training on recording lines written to a file in `dir` (the market-fit tests' shared step). */
import { join } from 'node:path';
import { loadRecording } from '../../../src/backtest/index.js';
import { trainingData, trainModel, type TrainReport } from '../../../src/backtest/train/index.js';
import type { RecordingLine } from '../../../src/recording/index.js';
import { writeRecording } from '../recording-fixtures.js';

/** Writes `lines` as `dir/name` and trains on them with two features, l2 1 and a 70 % split. */
export async function trainLines(dir: string, name: string, lines: RecordingLine[]): Promise<TrainReport> {
  const file = join(dir, name);
  await writeRecording(file, lines);
  const data = trainingData(await loadRecording(file, {}, () => undefined), ['credit_score_low', 'loan_terms']);
  return trainModel(data, { dataFile: file, l2: 1, trainShare: 0.7 });
}
