/**
 * How well a learned default level (score.calibration method learned) predicted its own funded
 * loans late in a replay: over the loans funded in the second half of the requests' span (when
 * the learner has seen the first half's payments), the mean default probability each was priced
 * with against the share that defaulted, beside what the prior alone (the score moved by the
 * prior's centre) would have predicted for the same loans. Loans the recording leaves open are
 * left out of both sides.
 */
import { logistic, logit } from '../../math/index.js';
import type { BacktestResult } from '../backtest-result.js';

export interface LearnedLevelCheck {
  /** Second-half funded loans with a known fate. */
  n: number;
  /** Mean default probability the loans were priced with (learned so far). */
  predicted: number;
  /** Mean default probability the prior alone gives the same loans. */
  prior: number;
  /** Share of them that defaulted. */
  realised: number;
}

/** The check over `result`'s loans of `strategy`; `levelMean` is the prior's centre (log-odds of default). */
export function learnedLevelCheck(result: BacktestResult, strategy: string, levelMean = 0): LearnedLevelCheck {
  const from = Date.parse(result.period.from ?? '');
  const to = Date.parse(result.period.to ?? '');
  const middle = from + (to - from) / 2;
  let n = 0;
  let predicted = 0;
  let prior = 0;
  let defaulted = 0;
  for (const loan of result.loans) {
    if (loan.strategy !== strategy || loan.calibration === undefined || loan.outcome === 'open') continue;
    if (!(Date.parse(loan.fundedAt) >= middle)) continue;
    n += 1;
    predicted += loan.calibration.predictedDefault;
    prior += logistic(logit(loan.calibration.scoreDefault, 0) + levelMean);
    if (loan.outcome === 'defaulted') defaulted += 1;
  }
  return n === 0
    ? { n, predicted: Number.NaN, prior: Number.NaN, realised: Number.NaN }
    : { n, predicted: predicted / n, prior: prior / n, realised: defaulted / n };
}
