/** `lendbot strategy check FILE...`: validate and compile strategy files, reporting every problem. */
import type { Command } from 'commander';
import { ConfigFileError } from '../../../config/index.js';
import { dataSourceWarnings } from '../../../engine/compile/data-source-warnings.js';
import { loadStrategy } from '../../../engine/load/load-strategy-file.js';
import { columnSourceOf } from '../../../engine/compile/compile-strategy.js';
import type { StrategyDefinition } from '../../../engine/definition/strategy-schema.js';
import { warn, type CliIo } from '../../cli-io.js';
import { UserError } from '../../user-error.js';
import { examplesHelp } from '../../examples-help.js';

export function registerCheck(strategy: Command, io: CliIo): void {
  strategy
    .command('check')
    .description('validate strategy files (YAML or plugin modules); every problem is listed as file:line:col path: message')
    .argument('<files...>', 'strategy files to check')
    .addHelpText(
      'after',
      "\nA strategy whose score names a model file (score.model) is checked with it: the file loads, and every\nfeature it needs is in the catalogue. A filter or score term reading data the strategy never asks for\n(history_* without data.borrower_history, banking features with banking_data: never, a provider's\nfeatures without that provider) is a warning on stderr.\nExit code 0 when every file is valid, 1 otherwise.",
    )
    .addHelpText(
      'after',
      examplesHelp('lendbot strategy check strategies/*.yaml', [
        'lendbot strategy check strategies/balanced.yaml strategies/conservative.yaml',
        '',
      ]),
    )
    .action(async (files: string[]) => {
      let failed = 0;
      for (const file of files) {
        try {
          const { strategy: loaded, model } = await loadStrategy(file);
          const params = Object.keys(loaded.params).length;
          io.stdout.write(`ok ${file}: ${loaded.name} ${loaded.version} (${loaded.kind}, ${params} params, hash ${loaded.contentHash})\n`);
          if (model) {
            const trained = model.definition.training;
            const heldOut =
              trained?.test.auc === null || trained === undefined
                ? ''
                : `, held-out AUC ${trained.test.auc.toFixed(3)} on ${trained.test.lines} lines`;
            io.stdout.write(
              `   model ${model.file}: ${model.definition.features.length} features, sha256 ${model.sha256.slice(0, 16)}${heldOut}\n`,
            );
          }
          const learned = learnedCalibrationLine(columnSourceOf(loaded)?.definition);
          if (learned !== undefined) io.stdout.write(`   ${learned}\n`);
          // Valid, but probably not what was meant: warned, and the exit code stays 0.
          for (const warning of dataSourceWarnings(loaded)) warn(io, `${file}: ${warning.message}`);
        } catch (error) {
          if (!(error instanceof ConfigFileError)) throw error;
          failed += 1;
          io.stderr.write(`${error.message}\n`);
        }
      }
      if (failed > 0) throw new UserError(`${failed} of ${files.length} strategy files have problems`);
    });
}

/** What a learned default level starts from, and how its uncertainty is priced: one line, or undefined. */
function learnedCalibrationLine(definition: StrategyDefinition | undefined): string | undefined {
  const calibration = definition?.score?.calibration;
  if (calibration?.method !== 'learned') return undefined;
  const seed = calibration.seed === undefined ? "the score's own level" : `its ${calibration.seed.method} seed`;
  const robust = definition?.pricing?.level_uncertainty;
  const pricing =
    robust === undefined
      ? "priced at the posterior's mean default (no pricing.level_uncertainty)"
      : robust.mode === 'cost_plus_floor'
        ? `priced no lower than the break-even at the ${String(robust.quantile)} quantile (cost_plus_floor)`
        : `priced cost-plus + ${String(robust.margin)}, expected profit taking over by ${String(robust.evidence_half)} loan-months (blend)`;
  const centre = calibration.level_mean === 0 ? seed : `${seed} moved by ${calibration.level_mean} log-odds`;
  // The learner prices the mean default over its uncertainty, above the centre's own default while
  // little is known: say so, or "starts at the score's own level" reads as the price.
  const anchor =
    calibration.history_anchor === undefined
      ? ''
      : `; blended with what the borrower's past-loan rates imply after its costs (history_anchor sd ${calibration.history_anchor.sd})`;
  return `default level learned from its own loans: centred on ${centre} (level sd ${calibration.level_sd}, slope sd ${calibration.slope_sd}; the price reads the mean default over that spread)${anchor}; ${pricing}`;
}
