/**
 * How a tune judges its candidate (docs/backtesting.md): ONE held-out backtest of the candidate
 * and ONE of the current values, each over the whole held-out period with the real starting
 * balance and risk limits, so both live under the same cash constraint as a real run would.
 * The two runs see the same requests, so they are compared request by request:
 *
 *   d_i = candidate's contribution of request i − current values' contribution of request i,
 *
 * each run's contributions (cents) turned into its net annualized return (÷ starting balance ÷
 * that run's years), so the d_i add up to exactly the difference of the two runs' returns, the
 * objective's unit. A block bootstrap over consecutive requests (block-bootstrap.ts) gives the
 * interval. With walk-forward windows every window's held-out run counts, each resampled within
 * itself, and the gain is the mean over windows, as the training gain is.
 *
 * The objectives other than net_return subtract a penalty (drawdown, default rate above a cap)
 * that is not a sum over requests. It is judged on the two runs as measured, without an interval
 * of its own: any increase of the candidate's penalty is subtracted from the return gain and its
 * interval; a decrease earns nothing, so a candidate must win on money.
 */
import { BOOTSTRAP_CONFIDENCE, BOOTSTRAP_RESAMPLES, blockBootstrap, blockLengthFor, type BootstrapSeries } from './block-bootstrap.js';
import type { TrialOutcome } from './trial-context.js';

/** One window's two held-out runs. */
export interface HeldOutPair {
  candidate: TrialOutcome;
  baseline: TrialOutcome;
  /** Time from the first to the last held-out request, for the block length. */
  spanMs: number;
}

export interface HeldOutEvidence {
  /** Held-out requests compared, over all windows. */
  requests: number;
  /** Loans funded in the held-out runs, over all windows. */
  candidateFunded: number;
  baselineFunded: number;
  /** Mean over windows of the candidate's net annualized return minus the current values'. */
  returnGain: number;
  /** Mean over windows of the candidate's objective penalty minus the current values' (0 for net_return). */
  penaltyIncrease: number;
  /** The held-out gain in the objective's unit: returnGain − max(0, penaltyIncrease). */
  gain: number;
  /** The gain's interval: the bootstrap interval of returnGain, less the same penalty charge. */
  low: number;
  high: number;
  confidence: number;
  resamples: number;
  /** Requests per bootstrap block, per window. */
  blockLengths: number[];
}

/** Compares the candidate with the current values on the held-out runs of every window. */
export function compareHeldOut(pairs: readonly HeldOutPair[], startingBalanceCents: number, seed: number): HeldOutEvidence {
  const weight = pairs.length > 0 ? 1 / pairs.length : 0;
  const series: BootstrapSeries[] = pairs.map((pair) => {
    const values = requestDifferences(pair, startingBalanceCents);
    return { values, blockLength: blockLengthFor(values.length, pair.spanMs), weight };
  });
  // Its own stream, so the bootstrap does not reuse the draws that sampled the trials.
  const interval = blockBootstrap(series, {
    resamples: BOOTSTRAP_RESAMPLES,
    confidence: BOOTSTRAP_CONFIDENCE,
    seed: (seed ^ 0x5bd1e995) >>> 0,
  });
  const penalty = (outcome: TrialOutcome): number => outcome.figures.netAnnualizedReturn - outcome.score;
  const penaltyIncrease = pairs.reduce((total, pair) => total + weight * (penalty(pair.candidate) - penalty(pair.baseline)), 0);
  const charge = Math.max(0, penaltyIncrease);
  return {
    requests: series.reduce((total, s) => total + s.values.length, 0),
    candidateFunded: pairs.reduce((total, pair) => total + pair.candidate.figures.funded, 0),
    baselineFunded: pairs.reduce((total, pair) => total + pair.baseline.figures.funded, 0),
    returnGain: interval.estimate,
    penaltyIncrease,
    gain: interval.estimate - charge,
    low: interval.low - charge,
    high: interval.high - charge,
    confidence: BOOTSTRAP_CONFIDENCE,
    resamples: BOOTSTRAP_RESAMPLES,
    blockLengths: series.map((s) => s.blockLength),
  };
}

/** d_i in annualized-return units: each run's contribution ÷ starting balance ÷ that run's years. */
function requestDifferences(pair: HeldOutPair, startingBalanceCents: number): number[] {
  const candidate = pair.candidate.requestNetCents ?? [];
  const baseline = pair.baseline.requestNetCents ?? [];
  if (candidate.length !== baseline.length) throw new Error('the two held-out runs saw different requests');
  const scale = (years: number): number => (years > 0 && startingBalanceCents > 0 ? 1 / (startingBalanceCents * years) : 0);
  const c = scale(pair.candidate.years);
  const b = scale(pair.baseline.years);
  return candidate.map((cents, i) => cents * c - (baseline[i] ?? 0) * b);
}
