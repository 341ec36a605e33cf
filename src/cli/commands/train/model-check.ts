/**
 * `lendbot train model --strategy FILE` (a model, not a calibration): before the model is written, the
 * strategy scoring with the model fitted on the fitting part alone (and the market fitted on the
 * lines before the held-out part) is compared with the strategy as it is on the held-out part, in
 * every borrower world, by the check train calibration uses (held-out-check.ts).
 */
import { readFile } from 'node:fs/promises';
import type { PreparedRecording } from '../../../backtest/index.js';
import { checkAcrossWorlds, type TrainReport, type WorldsCheck } from '../../../backtest/train/index.js';
import { compileStrategyText, loadStrategyFile, parseStrategyText } from '../../../engine/index.js';
import { strategyModelPath } from '../../../engine/load/load-strategy-file.js';
import { parseModelText } from '../../../engine/model/index.js';
import { UserError } from '../../user-error.js';

/** Loads `file` as a YAML strategy that scores with a model; a clear UserError otherwise. */
async function strategyWithModel(file: string): Promise<{ text: string; strategy: Awaited<ReturnType<typeof loadStrategyFile>> }> {
  try {
    const strategy = await loadStrategyFile(file);
    const text = await readFile(file, 'utf8');
    if (strategy.kind !== 'yaml' || strategyModelPath(parseStrategyText(text, file), file) === undefined) {
      throw new UserError(`${file} does not score with a model file (score.model): there is nothing for the new model to replace`);
    }
    return { text, strategy };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`cannot read ${file}: file not found`);
    throw error;
  }
}

/** The held-out money check of the model `report` fitted, in the strategy `file`. */
export async function checkModelInStrategy(
  file: string,
  report: TrainReport,
  recording: PreparedRecording,
  out: string,
): Promise<WorldsCheck> {
  const { text, strategy } = await strategyWithModel(file);
  const candidate = await compileStrategyText(text, file, parseModelText(JSON.stringify(report.evaluated), out));
  const from = recording.entries.findIndex((entry) => entry.line.loan_request.id === report.heldOutFromId);
  return checkAcrossWorlds([{ recording, heldOutFrom: from < 0 ? recording.entries.length : from }], candidate, strategy);
}
