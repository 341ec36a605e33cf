/**
 * One world's figures for bench/shipped-defaults.ts: each strategy's return over the whole
 * recording and held out (its last 30 %), beside its cost-plus twin's, naive max-rate's, the
 * oracle's and a strategy trained on the first 70 %; its funded loans' default against the
 * population's, its idle share, and its calibration on the whole recording and on its second half.
 * 100,000 USD by default and no caps: the figures are about decisions, not about limits.
 */
import { runDraws, type BacktestOptions, type BacktestResult, type PreparedRecording } from '../src/backtest/index.js';
import type { DefaultRate } from '../src/math/index.js';
import { strategyCalibration } from '../src/backtest/calibration/index.js';
import { learnedLevelCheck, type LearnedLevelCheck } from '../src/backtest/calibration/learned-level-check.js';
import { labelOf } from '../src/backtest/realised-fate.js';
import { oracleStrategy } from '../src/backtest/oracle-strategy.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import type { CompiledStrategy } from '../src/engine/index.js';
import { gradeOfCreditScoreRange } from './lending-club-mapping.js';
import { bestOracleHurdle, moonshotFigure, TRAIN_SHARE, trainedStrategy, type MoonshotFigure } from './reference-strategies.js';

/** A strategy's probability against what happened (resolved requests it scored). */
export interface CalibrationFigure {
  n: number;
  predicted: number;
  realised: number;
  brier: number;
  constantBrier: number;
}

/** A run's headline: the net annualized return (mean over the draws) and the loans funded. */
export interface RunFigure {
  net: number;
  funded: number;
}

export interface StrategyFigures {
  strategy: string;
  all: RunFigure;
  heldOut: RunFigure;
  twin: { all: RunFigure; heldOut: RunFigure };
  /** Paid scores and subscriptions bought (cents, first draw): what its net paid for data. */
  dataSpendCents: { all: number; heldOut: number };
  fundedDefault: DefaultRate;
  populationDefault: DefaultRate;
  /** Share of the money idle while requests arrived (whole recording, first draw). */
  idle: number;
  /** Share of the money held by open offers (whole recording, first draw). */
  held: number;
  calibration: CalibrationFigure;
  /**
   * The second half's requests. For a strategy that learns its default level, with the
   * probability each was priced with in the whole replay (what the learner knew then, having
   * seen the first half's payments); otherwise each request decided alone, as the report's
   * calibration section does.
   */
  secondHalf: CalibrationFigure;
  /** A learning strategy's own second-half funded loans: priced default, the prior's, realised (learned-level-check.ts). */
  learnedLoans: LearnedLevelCheck | undefined;
  /** Loans funded by LendingClub grade (whole recording; LendingClub only). */
  grades: Record<string, number> | undefined;
  /** The moonshot lender built on this strategy, whole recording (reference-strategies.ts), or why there is none. */
  moonshot: MoonshotFigure;
}

export interface WorldFigures {
  strategies: StrategyFigures[];
  naive: { all: RunFigure; heldOut: RunFigure };
  /**
   * The yardstick (bench/shipped-defaults.ts --yardstick: `balanced` 2.0.0, the default before the
   * recalibration): the goal's "its level before the recalibration" measured on this same world.
   * Absent when the bench runs without one.
   */
  yardstick?: { all: RunFigure; heldOut: RunFigure };
  oracle: RunFigure & { hurdle: number };
  trained: RunFigure;
}

/** A strategy to judge: its file's name, the strategy and its cost-plus twin. */
export interface Judged {
  name: string;
  strategy: CompiledStrategy;
  twin: CompiledStrategy;
}

function calibrationFigure(recording: PreparedRecording, strategy: CompiledStrategy): CalibrationFigure {
  const found = strategyCalibration(recording, strategy);
  const { n, predicted, realised } = found.overall;
  return { n, predicted, realised, brier: found.brier, constantBrier: found.constantBrier };
}

/** Mean of squares, guarded for n = 0. */
function figureOf(pairs: ReadonlyArray<{ predicted: number; defaulted: number }>): CalibrationFigure {
  const n = pairs.length;
  if (n === 0) return { n, predicted: Number.NaN, realised: Number.NaN, brier: Number.NaN, constantBrier: Number.NaN };
  const predicted = pairs.reduce((sum, pair) => sum + pair.predicted, 0) / n;
  const realised = pairs.reduce((sum, pair) => sum + pair.defaulted, 0) / n;
  const brier = pairs.reduce((sum, pair) => sum + (pair.predicted - pair.defaulted) ** 2, 0) / n;
  return { n, predicted, realised, brier, constantBrier: realised * (1 - realised) };
}

/**
 * Calibration on the second half as the replay priced it: each resolved request of the second
 * half that the whole run decided with a probability, at the probability it was decided with.
 */
function pricedCalibration(secondHalf: PreparedRecording, result: BacktestResult): CalibrationFigure {
  const probabilityById = new Map<number, number>();
  for (const decision of result.decisions)
    if (decision.probability !== null && decision.probability !== undefined)
      probabilityById.set(decision.loan_request_id, decision.probability);
  const pairs: Array<{ predicted: number; defaulted: number }> = [];
  for (const entry of secondHalf.entries) {
    const label = labelOf(entry.line);
    const probability = probabilityById.get(entry.line.loan_request.id);
    if (label === null || probability === undefined) continue;
    pairs.push({ predicted: 1 - probability, defaulted: label === 0 ? 1 : 0 });
  }
  return figureOf(pairs);
}

function loansByGrade(recording: PreparedRecording, result: BacktestResult): Record<string, number> {
  const rangeById = new Map(recording.entries.map((entry) => [entry.line.loan_request.id, entry.line.loan_request.borrower.credit_score]));
  const grades: Record<string, number> = Object.fromEntries([...'ABCDEFG'].map((grade) => [grade, 0]));
  for (const loan of result.loans) {
    const grade = gradeOfCreditScoreRange(rangeById.get(loan.loanRequestId));
    if (grade !== undefined) grades[grade] = (grades[grade] ?? 0) + 1;
  }
  return grades;
}

export interface WorldRun {
  recording: PreparedRecording;
  /** The recording's file (the trained strategy's report names it). */
  file: string;
  /** A folder for the trained strategy's files. */
  dir: string;
  lendingClub: boolean;
}

/** The reference lenders every world runs beside the judged strategies. */
export interface References {
  naive: CompiledStrategy;
  /** The pre-recalibration default, or undefined to leave it out. */
  yardstick: CompiledStrategy | undefined;
}

export async function worldFigures(
  world: WorldRun,
  judged: readonly Judged[],
  { naive, yardstick }: References,
  options: BacktestOptions,
  draws: readonly number[],
): Promise<WorldFigures> {
  const { recording } = world;
  const size = recording.entries.length;
  const cut = Math.round(size * TRAIN_SHARE);
  const heldOut = sliceRecording(recording, cut, size);
  const secondHalf = sliceRecording(recording, Math.round(size / 2), size);
  const run = (period: PreparedRecording, strategy: CompiledStrategy): { figure: RunFigure; first: BacktestResult } => {
    const { first, draws: summary } = runDraws(period, [strategy], options, draws);
    return { figure: { net: summary.netAnnualizedReturn.mean, funded: Math.round(summary.funded.mean) }, first };
  };
  const strategies = judged.map(({ name, strategy, twin }): StrategyFigures => {
    const whole = run(recording, strategy);
    const held = run(heldOut, strategy);
    const learns = whole.first.loans.some((loan) => loan.calibration !== undefined);
    const stats = whole.first.offerStats[0];
    if (!stats) throw new Error(`no offer statistics for ${name}`);
    return {
      strategy: name,
      all: whole.figure,
      heldOut: held.figure,
      twin: { all: run(recording, twin).figure, heldOut: run(heldOut, twin).figure },
      dataSpendCents: { all: whole.first.summary.dataSpendCents, heldOut: held.first.summary.dataSpendCents },
      fundedDefault: stats.fundedDefault,
      populationDefault: stats.populationDefault,
      idle: whole.first.summary.idleShareWhileRequests,
      held: whole.first.summary.reservedShare,
      calibration: calibrationFigure(recording, strategy),
      secondHalf: learns ? pricedCalibration(secondHalf, whole.first) : calibrationFigure(secondHalf, strategy),
      learnedLoans: learns ? learnedLevelCheck(whole.first, strategy.name) : undefined,
      grades: world.lendingClub ? loansByGrade(recording, whole.first) : undefined,
      moonshot: moonshotFigure(strategy, recording, options, draws),
    };
  });
  const hurdle = bestOracleHurdle(recording, options, draws);
  const trained = await trainedStrategy(sliceRecording(recording, 0, cut), world.file, world.dir);
  const figures: WorldFigures = {
    strategies,
    naive: { all: run(recording, naive).figure, heldOut: run(heldOut, naive).figure },
    oracle: { ...run(recording, oracleStrategy(recording, undefined, hurdle)).figure, hurdle },
    trained: run(heldOut, trained).figure,
  };
  if (yardstick !== undefined) figures.yardstick = { all: run(recording, yardstick).figure, heldOut: run(heldOut, yardstick).figure };
  return figures;
}
