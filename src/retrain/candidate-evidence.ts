/**
 * A retraining candidate's evidence, as stored with its round and shown: the fit's held-out
 * calibration before and after, and the held-out money check per borrower world.
 */
import { ownAcceptedRate, points, type PreparedRecording } from '../backtest/index.js';
import { checkAcrossWorlds, type WorldsCheck } from '../backtest/train/index.js';
import { strategyCalibration, type CalibrationMethod } from '../backtest/calibration/index.js';
import type { CompiledStrategy } from '../engine/index.js';

/** Predicted against realised default, and the Brier score, of a strategy on the resolved loans of a recording. */
export interface CalibrationFigures {
  n: number;
  predicted: number;
  realised: number;
  brier: number;
}

/** `strategy`'s probabilities against what happened on `recording`'s resolved loans (the backtest's calibration section). */
export function calibrationOn(recording: PreparedRecording, strategy: CompiledStrategy): CalibrationFigures {
  const stats = strategyCalibration(recording, strategy);
  return { n: stats.overall.n, predicted: stats.overall.predicted, realised: stats.overall.realised, brier: stats.brier };
}

/** The fit in figures, as stored with the round (held-out calibration before and after). */
export interface FitFigures {
  /** The calibration refitted (platt, isotonic), or the strategy's model ('model'). */
  method: CalibrationMethod | 'model';
  fitted: number;
  heldOut: number;
  before: CalibrationFigures;
  after: CalibrationFigures;
}

/** The held-out check in figures: the gain (net annualized return, candidate minus current) per world. */
export interface HeldOutFigures {
  requests: number;
  assumed: { gain: number; low: number; high: number; candidateFunded: number; baselineFunded: number };
  worlds: Array<{ world: string; gain: number; low: number; high: number; candidateFunded: number; baselineFunded: number }>;
  losing: Array<{ world: string; gain: number }>;
  holds: boolean;
  /**
   * Of the requests, those that became our own loans (own-accepted-offer.ts): an offer at or
   * below the rate their borrower took is judged by what happened; absent on rounds recorded before.
   */
  ownLoans?: number;
}

export type CandidateOutcome =
  | { kind: 'refused'; reason: string; resolvedLoans: number; fit?: FitFigures; heldOut?: HeldOutFigures; calibration?: unknown }
  | {
      kind: 'holds';
      reason: string;
      resolvedLoans: number;
      fit: FitFigures;
      heldOut: HeldOutFigures;
      /** The calibration refitted on every resolved loan (or the model's summary): what would run. */
      calibration: unknown;
      /** The strategy's text with it. */
      text: string;
      /** The refitted model file (JSON) its score.model reads instead of the file's, for a strategy with a model. */
      model?: string;
    };

/** The held-out requests (from `heldOutFrom` on) that became our own loans at a rate the recording names. */
function ownLoansFrom(recording: PreparedRecording, heldOutFrom: number): number {
  let count = 0;
  for (let i = heldOutFrom; i < recording.entries.length; i += 1) if (ownAcceptedRate(recording.entries[i]!.line) !== undefined) count += 1;
  return count;
}

/**
 * `candidate` against `current` on `recording` from `heldOutFrom` on, in every borrower world
 * (held-out-check.ts), as the figures stored and shown.
 */
export function heldOutCheck(
  recording: PreparedRecording,
  heldOutFrom: number,
  candidate: CompiledStrategy,
  current: CompiledStrategy,
): HeldOutFigures {
  const check = checkAcrossWorlds([{ recording, heldOutFrom }], candidate, current);
  const figures = (e: WorldsCheck['assumed']) => ({
    gain: e.gain,
    low: e.low,
    high: e.high,
    candidateFunded: e.candidateFunded,
    baselineFunded: e.baselineFunded,
  });
  return {
    requests: check.assumed.requests,
    assumed: figures(check.assumed),
    worlds: check.worlds.map((w) => ({ world: w.world, ...figures(w.evidence) })),
    losing: check.losing,
    holds: check.holds,
    ownLoans: ownLoansFrom(recording, heldOutFrom),
  };
}

/**
 * The money comparison in words, with what judged it: on our own loans (the store's recording
 * names the rate each borrower took from us) an offer at or below that rate is taken as it was,
 * one above it is judged by the take-up curve or the borrower world; elsewhere the curve or the
 * world decides. An empty comparison is said plainly.
 */
export function fundedText(figures: HeldOutFigures): string {
  const { candidateFunded, baselineFunded } = figures.assumed;
  const own =
    figures.ownLoans === undefined
      ? ''
      : ` (${figures.ownLoans} of them our own loans: an offer at or below the rate the borrower took is judged by what happened, a dearer one by the curve or the world)`;
  const text = `${candidateFunded} loans funded against ${baselineFunded} in the backtest of its ${figures.requests} requests${own}`;
  return candidateFunded === 0 && baselineFunded === 0 ? `${text}: the money comparison is empty and says nothing either way` : text;
}

/** Where the worlds check loses, in words: "insensitive -0.31 points, linear -0.12 points". */
export function losingText(figures: HeldOutFigures): string {
  return figures.losing.map((w) => `${w.world} ${points(w.gain)}`).join(', ');
}
