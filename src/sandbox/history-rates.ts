/**
 * The rates of a borrower's completed loans (marketplace 4.9), as the sandbox draws them.
 *
 * `market` (the default since issue 35): each past loan was priced by one of this world's lenders
 * reading the borrower as competitors read a request now (competitor-model.ts: the observable
 * logit, the share of the hidden risk the shape's lenders see, their estimate error), with the
 * borrower's risk at that time drifting from today's by Normal(0, HISTORY_DRIFT_SD) in log-odds,
 * and the shape's price rule and noise. So a shifted world's histories move with its default
 * level, as a real market's past prices would, and a shape whose lenders price blind to risk
 * (`urgent`) has histories that say nothing about the borrower.
 *
 * `uniform`: evenly between 8 % and the risk level's maximum, whatever the borrower or the world
 * (every sandbox before issue 35): kept so that recordings exported before can be made again to
 * the byte, and as a world where the histories carry no information.
 */
import { logistic } from '../math/index.js';
import { competitorRate } from './competitor-model.js';
import type { LoanRequestRecord } from './market-types.js';
import { clamp, forkRandom, type Random } from './random.js';
import type { HistoryRateMode, MarketShape } from './shapes/market-shape.js';

/** How far a borrower's risk when it took an earlier loan may sit from today's (sd, log-odds). */
export const HISTORY_DRIFT_SD = 0.3;

/** The lowest rate of the uniform draw (the sandbox's since the loan history was served). */
const UNIFORM_LOW = 0.08;

/** The mode a shape draws history rates with. */
export function historyRateMode(shape: MarketShape): HistoryRateMode {
  return shape.historyRates ?? 'market';
}

/**
 * The rates of the borrower's completed loans, one per loan, as numbers. `stream` is the history's
 * own stream (lender, amount and terms are drawn from it too): the uniform draw takes one number of
 * it per loan in either mode, so the other fields of an item are the same whatever the mode, and
 * the market's draws come from a stream of their own.
 */
export function historyRates(seed: number, request: LoanRequestRecord, shape: MarketShape): (stream: Random) => number {
  const max = request.maxInterestRate;
  if (historyRateMode(shape) === 'uniform') return (stream) => stream.between(UNIFORM_LOW, max);
  const lenders = shape.competitors;
  const priced = forkRandom(seed, 'history-rates', request.borrower.id);
  const { observableLogit, noise } = request.truth;
  return (stream) => {
    stream.between(UNIFORM_LOW, max);
    const then = observableLogit + lenders.readsHiddenRisk * noise + priced.normal(0, HISTORY_DRIFT_SD);
    const believed = logistic(then + priced.normal(0, lenders.estimateErrorSd));
    // A completed loan was funded, so at or under the request's maximum, and at least the service's 3 %.
    return clamp(competitorRate(1 - believed, lenders, priced), 0.03, max);
  };
}
