/**
 * One world's figures for bench/shipped-defaults.ts: each strategy's return over the whole
 * recording and held out (its last 30 %), beside its cost-plus twin's, naive max-rate's, the
 * oracle's and a strategy trained on the first 70 %; its funded loans' default against the
 * population's, its idle share, and its calibration on the whole recording and on its second half.
 * 100,000 USD by default and no caps: the figures are about decisions, not about limits.
 */
import { runDraws, type BacktestOptions, type BacktestResult, type DefaultRate, type PreparedRecording } from '../src/backtest/index.js';
import { strategyCalibration } from '../src/backtest/calibration/index.js';
import { oracleStrategy } from '../src/backtest/oracle-strategy.js';
import { sliceRecording } from '../src/backtest/prepared-recording.js';
import type { CompiledStrategy } from '../src/engine/index.js';
import { gradeOfCreditScoreRange } from './lending-club-mapping.js';
import { bestOracleHurdle, TRAIN_SHARE, trainedStrategy } from './reference-strategies.js';

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
  fundedDefault: DefaultRate;
  populationDefault: DefaultRate;
  /** Share of the money idle while requests arrived (whole recording, first draw). */
  idle: number;
  /** Share of the money held by open offers (whole recording, first draw). */
  held: number;
  calibration: CalibrationFigure;
  secondHalf: CalibrationFigure;
  /** Loans funded by LendingClub grade (whole recording; LendingClub only). */
  grades: Record<string, number> | undefined;
}

export interface WorldFigures {
  strategies: StrategyFigures[];
  naive: { all: RunFigure; heldOut: RunFigure };
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

export async function worldFigures(
  world: WorldRun,
  judged: readonly Judged[],
  naive: CompiledStrategy,
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
    const stats = whole.first.offerStats[0];
    if (!stats) throw new Error(`no offer statistics for ${name}`);
    return {
      strategy: name,
      all: whole.figure,
      heldOut: run(heldOut, strategy).figure,
      twin: { all: run(recording, twin).figure, heldOut: run(heldOut, twin).figure },
      fundedDefault: stats.fundedDefault,
      populationDefault: stats.populationDefault,
      idle: whole.first.summary.idleShareWhileRequests,
      held: whole.first.summary.reservedShare,
      calibration: calibrationFigure(recording, strategy),
      secondHalf: calibrationFigure(secondHalf, strategy),
      grades: world.lendingClub ? loansByGrade(recording, whole.first) : undefined,
    };
  });
  const hurdle = bestOracleHurdle(recording, options, draws);
  const trained = await trainedStrategy(sliceRecording(recording, 0, cut), world.file, world.dir);
  return {
    strategies,
    naive: { all: run(recording, naive).figure, heldOut: run(heldOut, naive).figure },
    oracle: { ...run(recording, oracleStrategy(recording, undefined, hurdle)).figure, hurdle },
    trained: run(heldOut, trained).figure,
  };
}
