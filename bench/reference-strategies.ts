/**
 * The strategies a decision bench measures a strategy against (bench/decision-quality.ts,
 * bench/shipped-defaults.ts): its cost-plus twin, a strategy trained on the first 70 % of the
 * market, the oracle with the hurdle that suits the market best, and the moonshot lender.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDraws, type BacktestOptions, type PreparedRecording } from '../src/backtest/index.js';
import { oracleStrategy } from '../src/backtest/oracle-strategy.js';
import { clairvoyantStrategy, recordedReservation } from '../src/backtest/clairvoyant-strategies.js';
import { hasRecordedAcceptance } from '../src/backtest/recorded-acceptance.js';
import { featureList, trainingData, trainModel } from '../src/backtest/train/index.js';
import { loadStrategyFile, type CompiledStrategy } from '../src/engine/index.js';
import { columnSourceOf } from '../src/engine/compile/compile-strategy.js';
import { pricingVariant } from './variants.js';

/** The share of a market that trains; the rest is the held-out period. */
export const TRAIN_SHARE = 0.7;
/** The oracle's hurdles (a year, on the money lent) a bench chooses from. */
export const ORACLE_HURDLES = [0, 0.1, 0.2, 0.3, 0.4];

/** The strategy file with cost-plus pricing (margin 0.01) instead of its own: the same scorecard and filters. */
export const costPlusTwin = (file: string): CompiledStrategy => pricingVariant(file, 'cost-plus', { mode: 'cost_plus', margin: 0.01 });

/**
 * strategies/examples/trained.yaml with a model fitted on `recording` only (its first
 * TRAIN_SHARE), written under `dir` with the model beside it.
 */
export async function trainedStrategy(recording: PreparedRecording, dataFile: string, dir: string): Promise<CompiledStrategy> {
  const report = trainModel(trainingData(recording, featureList(undefined)), { dataFile, l2: 'auto', trainShare: TRAIN_SHARE });
  mkdirSync(join(dir, 'models'), { recursive: true });
  mkdirSync(join(dir, 'strategies', 'examples'), { recursive: true });
  writeFileSync(join(dir, 'models', 'market.json'), JSON.stringify(report.model));
  const file = join(dir, 'strategies', 'examples', 'trained.yaml');
  copyFileSync('strategies/examples/trained.yaml', file);
  return loadStrategyFile(file);
}

/**
 * The oracle knows every outcome and reservation rate, so it may as well know which hurdle suits
 * this market: the one with the best mean return over `draws` on the whole recording.
 */
export function bestOracleHurdle(recording: PreparedRecording, options: BacktestOptions, draws: readonly number[]): number {
  return ORACLE_HURDLES.map((h) => ({
    h,
    mean: runDraws(recording, [oracleStrategy(recording, undefined, h)], options, draws).draws.netAnnualizedReturn.mean,
  })).reduce((a, b) => (b.mean > a.mean ? b : a)).h;
}

/**
 * The moonshot's hurdles (target_return a year) beside the strategy's own: a lender that knows
 * the market may as well know which hurdle suits it, as the oracle does.
 */
export const MOONSHOT_HURDLES = [0.1, 0.2];

/**
 * The moonshot lender's return on a market, or why there is none. `level`: for a strategy that
 * learns its default level, whether the best moonshot learned it from its own loans or kept the
 * prior's ('-' for one that does not learn it).
 */
export type MoonshotFigure = { net: number; funded: number; hurdle: number; level: 'learned' | 'prior' | '-' } | { none: string };

/**
 * Issue 35's moonshot: the strategy given sight of every borrower's recorded reservation rate and
 * every recorded competing offer, but not the outcomes. It keeps the strategy's filters,
 * min_probability and probability (its learned level learned from its own loans), and offers the
 * highest rate that wins when that clears the hurdle at that probability (the market clairvoyant,
 * src/backtest/clairvoyant-strategies.ts), with the best of the strategy's own hurdle and
 * MOONSHOT_HURDLES on the whole recording and, for a strategy that learns its default level, of
 * that level learned from the moonshot's own loans or held at the prior (where learning makes the
 * level worse, the moonshot may keep the prior: the goal is measured against the better lender).
 * None where the recording has no reservation rates
 * (LendingClub: the borrowers' rule is not known, and none is invented) or the strategy is not
 * priced for expected profit.
 */
export function moonshotFigure(
  strategy: CompiledStrategy,
  recording: PreparedRecording,
  options: BacktestOptions,
  draws: readonly number[],
): MoonshotFigure {
  if (!recording.entries.some((entry) => hasRecordedAcceptance(entry.line))) return { none: 'no reservation rate recorded' };
  const own = strategy.params.target_return;
  const hurdles = own === undefined ? [undefined] : [own, ...MOONSHOT_HURDLES.filter((h) => h !== own)];
  const learns = columnSourceOf(strategy)?.definition.score?.calibration?.method === 'learned';
  const levels: Array<'learned' | 'prior' | '-'> = learns ? ['learned', 'prior'] : ['-'];
  let best: MoonshotFigure | undefined;
  for (const level of levels)
    for (const hurdle of hurdles) {
      let moonshot: CompiledStrategy;
      try {
        const base = hurdle === undefined ? strategy : strategy.withParams({ target_return: hurdle });
        moonshot = clairvoyantStrategy(base, recording, { reservation: recordedReservation }, 'moonshot', {
          feedsLevel: level !== 'prior',
        });
      } catch (error) {
        if (error instanceof RangeError) return { none: error.message };
        throw error;
      }
      const { draws: summary } = runDraws(recording, [moonshot], options, draws);
      const net = summary.netAnnualizedReturn.mean;
      const figure = { net, funded: Math.round(summary.funded.mean), hurdle: hurdle ?? Number.NaN, level };
      if (best === undefined || ('net' in best && figure.net > best.net)) best = figure;
    }
  return best ?? { none: 'no hurdle to try' };
}
