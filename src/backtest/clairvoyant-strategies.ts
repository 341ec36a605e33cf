/**
 * The clairvoyant lenders of bench/pricing-ceiling.ts (docs/backtesting.md, "How far a lender can
 * get: the ceilings"): a strategy (the default) given sight of one thing no lender sees, so the
 * bench can tell how much of the oracle's return better pricing could reach and how much a better
 * score could. Like the oracle (oracle-strategy.ts) they are measuring sticks, not strategies to run.
 *
 * Each wraps a YAML strategy priced for expected profit (without filters on paid scores) and
 * keeps all of it but what it is given:
 * its data purchases, its filters and its min_probability (applied to the probability it prices
 * with). Where the strategy would reach its score's verdict:
 * - risk sight (`repayProbability`): the true chance of full repayment (the sandbox's hidden
 *   truth, not the drawn outcome) replaces the strategy's calibrated probability, and the
 *   strategy's own expected-profit pricing prices with it, under its own market response;
 * - market sight (`reservation`): the borrower's reservation rate and the recorded competing
 *   offer are known, so the offer is the highest rate that wins (min(reservation, best competing
 *   rate − 0.0001, the request's maximum)) when that rate clears the strategy's hurdle on expected
 *   profit at the probability it prices with, else a skip;
 * - both: market sight pricing with the true probability.
 *
 * A strategy that learns its default level (`score.calibration: { method: learned }`) learns it
 * here too, from the clairvoyant's own funded loans: the learner is the strategy's, found by its
 * name, so the clairvoyant answers under that name and its offers carry the calibration they were
 * priced with. Without that its level would stay the prior's for the whole replay, and market
 * sight would be judged with a probability the strategy itself never prices with past its first
 * loans. `feedsLevel: false` keeps the level at the prior on purpose (a bench compares the two).
 */
import { columnSourceOf } from '../engine/compile/compile-strategy.js';
import { compilePricing, type CompiledPricing } from '../engine/compile/compile-pricing.js';
import { resolveNumber } from '../engine/definition/param-values.js';
import { featureSource } from '../engine/features/feature-source.js';
import { curvePoint } from '../engine/pricing/expected-profit.js';
import {
  featureByName,
  formatRatio,
  type CompiledStrategy,
  type Decision,
  type Enrichment,
  type FilterDefinition,
} from '../engine/index.js';
import type { RecordingLine } from '../recording/index.js';
import type { LoanRequest } from '../domain/index.js';
import { otherReason, reasonText } from '../domain/decision-reason.js';
import { recordedCompetition } from './market-model.js';
import { highestWinningRate } from './oracle-strategy.js';
import type { PreparedRecording } from './prepared-recording.js';

/** What a clairvoyant knows beyond the strategy; at least one of the two. */
export interface ClairvoyantSight {
  /** The true chance of full repayment of a request, by id (undefined: not known, a skip). */
  repayProbability?: (requestId: number) => number | undefined;
  /** The highest rate the borrower of `line` accepts (its `reservation_rate`, or a borrower world's). */
  reservation?: (line: RecordingLine) => number | undefined;
}

/** The recorded reservation rate of a line: market sight in the recorded world. */
export const recordedReservation = (line: RecordingLine): number | undefined => line.outcome?.reservation_rate;

/**
 * Whether the strategy's own decision got past its filters to the score's verdict: an offer, or
 * a skip that carries the probability (min_probability or the price; the only other skip with
 * one, a filter on a paid score, is ruled out when the clairvoyant is made).
 */
function reachedVerdict(decision: Decision): boolean {
  return decision.action === 'offer' || (decision.action === 'skip' && decision.probability !== undefined);
}

/** Whether a filter reads a paid score (provider A or B): it is applied after the score. */
function onPaidScore(filter: FilterDefinition): boolean {
  const group = featureByName(filter.feature).group;
  return group === 'provider_a' || group === 'provider_b';
}

/**
 * `base` with the sight given, named `name`. Throws RangeError when `base` is not a YAML strategy
 * with a score and expected-profit pricing (its pricing is what the clairvoyants reuse).
 */
export function clairvoyantStrategy(
  base: CompiledStrategy,
  recording: PreparedRecording,
  sight: ClairvoyantSight,
  name: string,
  options: { feedsLevel?: boolean } = {},
): CompiledStrategy {
  const definition = columnSourceOf(base)?.definition;
  const pricingDefinition = definition?.pricing;
  if (definition?.score === undefined || pricingDefinition?.mode !== 'expected_profit') {
    throw new RangeError(`a clairvoyant needs a YAML strategy with a score and expected_profit pricing; "${base.name}" is not one`);
  }
  if (sight.repayProbability === undefined && sight.reservation === undefined)
    throw new RangeError('a clairvoyant needs risk sight, market sight or both');
  if (definition.filters.some(onPaidScore))
    throw new RangeError(`a clairvoyant cannot tell "${base.name}"'s filters on paid scores from its score's verdict`);
  const fitted = columnSourceOf(base)?.fittedMarket;
  const minProbability = resolveNumber(definition.score.min_probability, base.params);
  const pricing = compilePricing(pricingDefinition, base.params, fitted);
  // Market sight offers up to the request's maximum: it knows the reservation rate, so the
  // strategy's margin under the cap (ceiling, ceiling_share_of_max) has nothing to guard against.
  const { ceiling: _ceiling, ceiling_share_of_max: _share, ...uncapped } = pricingDefinition;
  const openPricing = compilePricing(uncapped, base.params, fitted);
  const lines = new Map(recording.entries.map((entry) => [entry.line.loan_request.id, entry.line]));
  const learnsLevel = definition.score.calibration?.method === 'learned' && options.feedsLevel !== false;
  const identity = { name: learnsLevel ? base.name : name, version: base.version, contentHash: `${base.contentHash}-${name}` };

  const decide = (request: LoanRequest, enrichment: Enrichment): Decision => {
    const own = base.evaluate(request, enrichment);
    // Data rounds and filter skips are the strategy's own.
    if (!reachedVerdict(own) || own.probability === undefined) return { ...own, strategy: identity };
    const probability = sight.repayProbability === undefined ? own.probability : sight.repayProbability(request.id);
    const { automateFund, contributions, features, params } = own;
    const skip = (reason: string): Decision => ({
      action: 'skip',
      automateFund,
      reasons: [otherReason(reason)],
      contributions,
      features,
      strategy: identity,
      params,
      ...(probability === undefined ? {} : { probability }),
    });
    if (probability === undefined) return skip(`${name}: no true repayment probability for request ${request.id}`);
    if (probability < minProbability)
      return skip(`${name}: probability ${formatRatio(probability)} < min_probability ${formatRatio(minProbability)}`);
    const source = featureSource(request, enrichment);
    const offer = (rate: number, price: Extract<ReturnType<CompiledPricing>, { ok: true }>, reason: string): Decision => ({
      action: 'offer',
      automateFund,
      rate,
      probability,
      requiredRate: price.requiredRate,
      ...(price.curve === undefined ? {} : { priceCurve: price.curve }),
      // The modelled outcome is the price's own; at market sight's rate it would not be.
      ...(price.modelled === undefined || price.rate !== rate ? {} : { modelled: price.modelled }),
      reasons: [otherReason(reason)],
      contributions,
      features,
      strategy: identity,
      params,
      // What the loan, if funded, teaches the strategy's learned level (calibrationOfferOf).
      ...(own.calibration === undefined || !learnsLevel ? {} : { calibration: own.calibration }),
    });
    if (sight.reservation === undefined) {
      const price = pricing(source, probability);
      if (!price.ok) return skip(`${name}: ${price.reasons.map(reasonText).join('; ')}`);
      return { ...offer(price.rate, price, `${name}: ${price.reasons.map(reasonText).join('; ')}`), expectedReturn: price.expectedReturn };
    }
    const line = lines.get(request.id);
    const reservation = line === undefined ? undefined : sight.reservation(line);
    if (line === undefined || reservation === undefined) return skip(`${name}: no reservation rate for request ${request.id}`);
    const competition = recordedCompetition(line.outcome, 'win');
    if (competition === 'lose') return skip(`${name}: cannot win`);
    const rate = highestWinningRate(reservation, request.max_interest_rate, competition);
    if (rate === null) return skip(`${name}: no rate from 0.03 wins`);
    const price = openPricing(source, probability);
    if (!price.ok || price.curve === undefined)
      return skip(`${name}: winning rate ${formatRatio(rate)} under the hurdle (${price.reasons.map(reasonText).join('; ')})`);
    const point = curvePoint(price.curve, rate);
    if (!(point.profitCents > 0))
      return skip(`${name}: winning rate ${formatRatio(rate)} under the hurdle (break-even ${formatRatio(price.requiredRate)})`);
    return {
      ...offer(rate, price, `${name}: offer ${formatRatio(rate)}, the highest that wins; break-even ${formatRatio(price.requiredRate)}`),
      expectedReturn: point.expectedReturn,
    };
  };

  const strategy: CompiledStrategy = {
    ...identity,
    description: `${base.name} with sight of ${[sight.repayProbability ? 'the true repayment probability' : '', sight.reservation ? 'the market' : ''].filter(Boolean).join(' and ')}`,
    file: base.file,
    kind: 'plugin',
    params: base.params,
    paramSpecs: base.paramSpecs,
    dataPolicy: base.dataPolicy,
    automateFund: base.automateFund,
    features: base.features,
    evaluate: decide,
    withParams: (overrides) => clairvoyantStrategy(base.withParams(overrides), recording, sight, name, options),
  };
  return strategy;
}
