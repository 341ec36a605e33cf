/**
 * `lendbot train`'s work: split the labelled lines by time (the first share fits, the rest
 * judges), fit a penalised logistic regression of full repayment, measure it on both parts, refit
 * on every labelled line for the model that is written, and fit the market response.
 */
import { FEATURE_NAMES } from '../../engine/index.js';
import { MODEL_FORMAT, MODEL_VERSION, type ModelFeature, type ModelFile } from '../../engine/model/index.js';
import { encodeRow, modelFeatures, planDesign, type Design } from './design.js';
import { fitLogistic, predictRows } from './logistic-fit.js';
import { fitMarket, type MarketFit } from './market-fit.js';
import { fitOwnCurse, type CurseFit } from './curse-fit.js';
import { auc, brier } from './prediction-quality.js';
import { calibrationStats, type CalibrationStats } from '../calibration/calibration-stats.js';
import type { TrainingData, TrainingLine } from './training-data.js';

/** Fewer labelled lines than this cannot say anything about a model. */
export const MIN_LABELLED = 50;
/** Each class (repaid, defaulted) needs this many lines in the fitting part. */
export const MIN_PER_CLASS = 10;

/** The penalties `l2: 'auto'` tries. */
const L2_GRID = [0.3, 1, 3, 10, 30, 100, 300, 1000] as const;
/** The share of the fitting part that fits each candidate penalty; the rest of it chooses one. */
const INNER_SHARE = 0.75;

export interface TrainOptions {
  dataFile: string;
  /**
   * Penalty on the squared standardised weights, or 'auto': the one of L2_GRID with the lowest
   * log-loss on the last quarter of the fitting part (time-ordered, never the held-out part).
   */
  l2: number | 'auto';
  /** Share of the labelled lines, oldest first, that fits the model for evaluation. */
  trainShare: number;
  /** Borrower-history rates join the take-up fit as takes (market-fit.ts). */
  historyRates?: boolean;
}

/** A recording that cannot train a model; the message says why. */
export class TrainingDataError extends Error {
  override readonly name = 'TrainingDataError';
}

export interface SplitFacts {
  lines: number;
  defaulted: number;
  defaultRate: number;
  from: string;
  to: string;
  auc: number | null;
  brier: number;
}

export interface TrainReport {
  /** The penalty used, and for 'auto' the log-loss each candidate had on the inner validation part. */
  l2: { value: number; chosen: 'auto' | 'given'; candidates: Array<{ l2: number; logLoss: number }> };
  lines: number;
  labelled: number;
  /** Lines left out for lack of a label, by outcome status ('none' without an outcome). */
  unlabelled: Record<string, number>;
  train: SplitFacts;
  test: SplitFacts;
  /** Held-out part: by decile of predicted default, Brier against a constant guess, findings (no cut: a model has none). */
  calibration: CalibrationStats;
  /** The written model's weights, largest effect first. */
  weights: Array<{ term: string; weight: number }>;
  dropped: Design['dropped'];
  converged: boolean;
  market: MarketFit;
  /** The winner's curse on our own funded loans (written into the market file). */
  curse: CurseFit;
  model: ModelFile;
  /**
   * The model fitted on the fitting part alone, with the market fitted on the lines seen before
   * the held-out part: what `lendbot train model --strategy` judges on the held-out part (held-out-check.ts).
   */
  evaluated: ModelFile;
  /** The first held-out line's loan request id: where the held-out period starts. */
  heldOutFromId: number;
}

interface Fitted {
  design: Design;
  weights: number[];
  converged: boolean;
}

function fit(lines: readonly TrainingLine[], names: readonly string[], l2: number): Fitted {
  const design = planDesign(
    names,
    lines.map((line) => line.values),
  );
  const result = fitLogistic(
    lines.map((line) => encodeRow(design, line.values)),
    lines.map((line) => line.label ?? 0),
    { l2 },
  );
  return { design, weights: result.weights, converged: result.converged };
}

function predict(fitted: Fitted, lines: readonly TrainingLine[]): number[] {
  return predictRows(
    lines.map((line) => encodeRow(fitted.design, line.values)),
    fitted.weights,
  );
}

function logLoss(predicted: readonly number[], lines: readonly TrainingLine[]): number {
  let sum = 0;
  predicted.forEach((p, i) => {
    const clipped = Math.min(1 - 1e-12, Math.max(1e-12, p));
    sum -= lines[i]?.label === 1 ? Math.log(clipped) : Math.log(1 - clipped);
  });
  return sum / Math.max(1, predicted.length);
}

/** Picks the penalty by time-ordered validation inside the fitting part. */
function chooseL2(lines: readonly TrainingLine[], names: readonly string[]): TrainReport['l2'] {
  const cut = Math.floor(lines.length * INNER_SHARE);
  const inner = lines.slice(0, cut);
  const validation = lines.slice(cut);
  const candidates = L2_GRID.map((l2) => ({ l2, logLoss: logLoss(predict(fit(inner, names, l2), validation), validation) }));
  const best = candidates.reduce((a, b) => (b.logLoss < a.logLoss ? b : a));
  return { value: best.l2, chosen: 'auto', candidates };
}

function facts(lines: readonly TrainingLine[], predicted: readonly number[]): SplitFacts {
  const labels = lines.map((line) => line.label ?? 0);
  const defaulted = labels.filter((label) => label === 0).length;
  return {
    lines: lines.length,
    defaulted,
    defaultRate: lines.length === 0 ? 0 : defaulted / lines.length,
    from: lines[0]?.seenAt ?? '',
    to: lines[lines.length - 1]?.seenAt ?? '',
    auc: auc(predicted, labels),
    brier: brier(predicted, labels),
  };
}

function weightList(features: readonly ModelFeature[]): TrainReport['weights'] {
  const list: TrainReport['weights'] = [];
  for (const feature of features) {
    if (feature.encoding === 'standardised') {
      if (feature.sd > 0) list.push({ term: feature.name, weight: feature.weight });
    } else {
      for (const [level, weight] of Object.entries(feature.levels)) list.push({ term: `${feature.name}=${level}`, weight });
    }
    if (feature.missing_weight !== 0) list.push({ term: `${feature.name} (missing)`, weight: feature.missing_weight });
  }
  return list.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight));
}

function checkClasses(lines: readonly TrainingLine[], what: string, file: string): void {
  const repaid = lines.filter((line) => line.label === 1).length;
  const defaulted = lines.length - repaid;
  if (repaid === 0 || defaulted === 0) {
    throw new TrainingDataError(
      `${file}: every labelled line ${what} is ${repaid === 0 ? 'a default' : 'repaid'} (${lines.length} lines): a model needs both repaid and defaulted loans`,
    );
  }
  if (repaid < MIN_PER_CLASS || defaulted < MIN_PER_CLASS) {
    throw new TrainingDataError(`${file}: ${repaid} repaid and ${defaulted} defaulted lines ${what}; each needs at least ${MIN_PER_CLASS}`);
  }
}

const round = (value: number): number => Number(value.toPrecision(10));

/** A fit's intercept and features as a model file holds them (rounded to 10 significant digits). */
function roundedModel(fitted: Fitted): { intercept: number; features: ModelFeature[] } {
  const { intercept, features } = modelFeatures(fitted.design, fitted.weights);
  return {
    intercept,
    features: features.map((feature): ModelFeature =>
      feature.encoding === 'standardised'
        ? {
            ...feature,
            mean: round(feature.mean),
            sd: round(feature.sd),
            weight: round(feature.weight),
            missing_weight: round(feature.missing_weight),
          }
        : {
            ...feature,
            levels: Object.fromEntries(Object.entries(feature.levels).map(([level, w]) => [level, round(w)])),
            missing_weight: round(feature.missing_weight),
          },
    ),
  };
}

/** Trains on `data` (from trainingData); throws TrainingDataError when the data cannot. */
export function trainModel(data: TrainingData, options: TrainOptions): TrainReport {
  const file = options.dataFile;
  const labelled = data.lines.filter((line) => line.label !== null);
  const unlabelled: Record<string, number> = {};
  for (const line of data.lines) {
    if (line.label !== null) continue;
    const status = line.line.outcome?.status ?? 'none';
    unlabelled[status] = (unlabelled[status] ?? 0) + 1;
  }
  if (labelled.length < MIN_LABELLED) {
    throw new TrainingDataError(
      `${file}: ${labelled.length} labelled lines of ${data.lines.length} (need at least ${MIN_LABELLED}); a line is labelled when its outcome is completed, default or collection, or unfunded with if_funded`,
    );
  }
  checkClasses(labelled, 'in the recording', file);
  const cut = Math.floor(labelled.length * options.trainShare);
  const trainLines = labelled.slice(0, cut);
  const testLines = labelled.slice(cut);
  if (testLines.length === 0) throw new TrainingDataError(`${file}: --train-share ${options.trainShare} leaves no line for evaluation`);
  checkClasses(trainLines, `in the first ${Math.round(options.trainShare * 100)} %`, file);

  const l2 = options.l2 === 'auto' ? chooseL2(trainLines, data.names) : { value: options.l2, chosen: 'given' as const, candidates: [] };
  const evaluation = fit(trainLines, data.names, l2.value);
  const trainPredicted = predict(evaluation, trainLines);
  const testPredicted = predict(evaluation, testLines);

  // The written model is refit on every labelled line: the held-out figures describe the method.
  const final = fit(labelled, data.names, l2.value);
  const { intercept, features: roundedFeatures } = roundedModel(final);
  const probabilityOf =
    (fitted: Fitted) =>
    (line: TrainingLine): number =>
      predictRows([encodeRow(fitted.design, line.values)], fitted.weights)[0] ?? 0;
  const market = fitMarket(data.lines, probabilityOf(final), { historyRates: options.historyRates === true });
  const curse = fitOwnCurse(data.lines, probabilityOf(final));
  const train = facts(trainLines, trainPredicted);
  const test = facts(testLines, testPredicted);
  const splitFacts = (split: SplitFacts): { lines: number; default_rate: number; auc: number | null; brier: number } => ({
    lines: split.lines,
    default_rate: round(split.defaultRate),
    auc: split.auc === null ? null : round(split.auc),
    brier: round(split.brier),
  });
  const model: ModelFile = {
    format: MODEL_FORMAT,
    version: MODEL_VERSION,
    kind: 'logistic',
    target: 'repaid',
    intercept: round(intercept),
    features: roundedFeatures,
    training: {
      data_file: file,
      trained_at: new Date().toISOString(),
      lines: data.lines.length,
      labelled: labelled.length,
      period: { from: labelled[0]?.seenAt ?? '', to: labelled[labelled.length - 1]?.seenAt ?? '' },
      l2: l2.value,
      train_share: options.trainShare,
      refit: 'all',
      train: splitFacts(train),
      test: splitFacts(test),
    },
    ...(Object.keys(market.section).length > 0 ? { market: market.section } : {}),
  };
  const heldOutFromMs = testLines[0]?.seenMs ?? Number.POSITIVE_INFINITY;
  const fitPartMarket = fitMarket(
    data.lines.filter((line) => line.seenMs < heldOutFromMs),
    probabilityOf(evaluation),
    { historyRates: options.historyRates === true },
  );
  const evaluatedModel = roundedModel(evaluation);
  const evaluated: ModelFile = {
    ...model,
    intercept: round(evaluatedModel.intercept),
    features: evaluatedModel.features,
    market: fitPartMarket.section,
  };
  if (Object.keys(fitPartMarket.section).length === 0) delete evaluated.market;
  return {
    evaluated,
    heldOutFromId: testLines[0]?.line.loan_request.id ?? -1,
    l2,
    lines: data.lines.length,
    labelled: labelled.length,
    unlabelled,
    train,
    test,
    calibration: calibrationStats(
      testPredicted.map((p, i) => ({ predicted: 1 - p, defaulted: testLines[i]?.label === 1 ? 0 : 1 })),
      0,
    ),
    weights: weightList(roundedFeatures),
    dropped: final.design.dropped,
    converged: evaluation.converged && final.converged,
    market,
    curse,
    model,
  };
}

/** Checks a `--features` list against the catalogue; the whole catalogue when none is given. */
export function featureList(requested: readonly string[] | undefined): string[] {
  if (requested === undefined || requested.length === 0) return [...FEATURE_NAMES];
  const known = new Set<string>(FEATURE_NAMES);
  const unknown = requested.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new TrainingDataError(
      `unknown feature${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} (lendbot strategy features lists them)`,
    );
  return [...new Set(requested)];
}
