/**
 * Borrower worlds (docs/backtesting.md, "A band across borrower worlds"): structurally different
 * rules for how borrowers answer a rate, for the lines of a recording that do not record it
 * (no `outcome.reservation_rate`), or, for the report's band, for every line (replaceRecorded). Each world is a law of the borrower's reservation rate R (the
 * highest rate they accept) per line; a seeded draw picks R from it, so a world run is judged by
 * recorded acceptance (recorded-acceptance.ts) exactly as a recording that had R: the borrower
 * takes the cheapest of our offer and the recorded competing one at or below R.
 *
 * R is the world's, not conditioned on what the recorded borrower did with the competing offer:
 * a world is a counterfactual market whose borrowers may walk away from the offer the real one
 * took (otherwise every world would agree wherever a competitor's offer was taken, and a recording
 * of funded loans only would show no band at all). The draw is the market's acceptance draw
 * (market-draws.ts), so strategies meet the same borrowers in every world, and on a request
 * nobody else offered on the `assumed` world gives the verdicts of the curve run.
 */
import { takeUpProbability, type MarketResponse } from '../engine/index.js';
import { logistic, logit, MIN_OFFER_RATE } from '../math/index.js';
import type { LineWithoutData } from '../recording/index.js';
import { marketDraw } from './market-draws.js';
import { worldFacts, type PreparedRecording } from './prepared-recording.js';
import type { DefaultCount } from './realised-fate.js';
import type { ReservationSource } from './recorded-acceptance.js';
import { worldGroupOf } from './world-facts.js';

export const WORLD_NAMES = ['insensitive', 'linear', 'quality', 'assumed'] as const;
export type WorldName = (typeof WORLD_NAMES)[number];

export interface BorrowerWorld extends ReservationSource {
  name: WorldName;
  /** One line for reports. */
  label: string;
}

/** The law of one borrower's reservation rate R, as its quantile function. */
type ReservationLaw = (p: number) => number;

/** R for draw `u` (uniform in [0, 1)): 1 − u, so a small draw is a borrower who accepts a lot, as the curve's "draw < P(accept)". */
function reservationOf(law: ReservationLaw, u: number): number {
  return law(1 - u);
}

const pointMass =
  (rate: number): ReservationLaw =>
  () =>
    rate;

/** (a) Rate-insensitive: every borrower accepts any rate up to the request's maximum. */
function insensitiveLaw(maxRate: number): ReservationLaw {
  return pointMass(maxRate);
}

/** Share of borrowers who accept their maximum in the linear world. */
const LINEAR_TAKE_UP_AT_MAX = 0.1;

/**
 * (b) Linear take-up: the share of borrowers accepting rate r falls linearly in r's position,
 * from all at the lowest allowed rate (0.03) to LINEAR_TAKE_UP_AT_MAX at the request's maximum.
 */
function linearLaw(maxRate: number): ReservationLaw {
  if (maxRate <= MIN_OFFER_RATE) return pointMass(maxRate);
  const spread = 1 - LINEAR_TAKE_UP_AT_MAX;
  return (p) => (p >= spread ? maxRate : MIN_OFFER_RATE + (p / spread) * (maxRate - MIN_OFFER_RATE));
}

/** (d) The assumed curve: take-up(r) = P(R >= r) is the market response's logistic take-up. */
function curveLaw(maxRate: number, response: MarketResponse): ReservationLaw {
  const { midpoint, steepness } = response.takeUp;
  if (steepness === 0 || maxRate <= MIN_OFFER_RATE) {
    // Take-up does not depend on the rate: a share accepts anything, the rest nothing.
    const never = 1 - takeUpProbability(maxRate, maxRate, response.takeUp);
    return (p) => (p < never ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY);
  }
  // P(R < r) = 1 − take-up(r), logistic in r's position: its inverse.
  return (p) => MIN_OFFER_RATE + (midpoint + logit(p, 0) / steepness) * (maxRate - MIN_OFFER_RATE);
}

// The quality-tied world (c). A borrower's quality q is their default probability as they know it,
// latent: the recording does not reveal it. It is drawn per borrower and per seed around the
// default rate the recording shows for borrowers with the same risk level and credit score range
// (shrunk towards the risk level's, then the recording's, by QUALITY_PRIOR_LOANS pseudo-loans):
// logit(q) = logit(group rate) + QUALITY_SPREAD × a logistic draw. Never the borrower's own
// recorded fate (a world that read it rewarded a strategy for refusing exactly the borrowers who
// later defaulted, which no strategy can know), never the strategy's own score. (The borrower's
// fate weighs at most 1/21 in it: one of the group's n resolved loans, beside 20 pseudo-loans.)
const QUALITY_PRIOR_LOANS = 20;
/** Scale of the logistic spread of logit(q) around the group's: a standard deviation of about 0.9 on the logit. */
const QUALITY_SPREAD = 0.5;
/** The fair price for a default probability q over `terms` months: FAIR_BASE + FAIR_PER_DEFAULT × q / years. */
const FAIR_BASE = 0.04;
// Losing 60 % of the principal with probability q, earned back on the half of it that is
// outstanding on average over the term.
const FAIR_PER_DEFAULT = 0.6 / 0.5;

/** The borrower's fair price: the rate whose interest pays for their expected loss, plus the money's cost. */
export function fairRate(quality: number, terms: number): number {
  return FAIR_BASE + (FAIR_PER_DEFAULT * quality) / (terms / 12);
}

/**
 * How far above the fair price a borrower of quality q goes: R = fair + (max − fair) × V^a with
 * V uniform, a = (0.15 / q)^1.5 within [0.2, 12]. Good borrowers (q 0.05: a 5.2, half accept less
 * than 3 % of the way from fair to their maximum) shop; q 0.15 spreads evenly; poor ones (q 0.5:
 * a 0.2, half accept 87 % of the way or more) take nearly anything.
 */
export function shoppingExponent(quality: number): number {
  return Math.min(12, Math.max(0.2, (0.15 / Math.max(quality, 1e-6)) ** 1.5));
}

function qualityLaw(maxRate: number, terms: number, quality: number): ReservationLaw {
  const fair = fairRate(quality, terms);
  const span = maxRate - fair;
  if (span <= 0) return pointMass(maxRate);
  const a = shoppingExponent(quality);
  return (p) => fair + span * p ** a;
}

/**
 * Each group's rate (see above), the median of its requests' latent quality, by group
 * (worldGroupOf). Kept by group, not by request: a rate depends on the group alone (the group
 * names its level), and a Map of a rate for each of the 1,000,000 requests held about 45 MB (a
 * number key, a number value) through every world's replay (issue 39's memory goal).
 */
export function groupDefaultRates(recording: PreparedRecording): Map<string, number> {
  // One pass over the requests' groups and fates (a compact recording keeps them while reading;
  // otherwise each line is read in turn, and only its keys kept).
  const levels = new Map<string, DefaultCount>();
  const groups = new Map<string, DefaultCount>();
  const levelOfGroup = new Map<string, string>();
  const all: DefaultCount = { n: 0, defaults: 0 };
  for (const entry of recording.entries) {
    const { group, level, defaulted } = worldFacts(entry);
    levelOfGroup.set(group, level);
    if (defaulted === undefined) continue;
    for (const count of [countOf(levels, level), countOf(groups, group), all]) {
      count.n += 1;
      if (defaulted) count.defaults += 1;
    }
  }
  const shrink = (count: DefaultCount | undefined, prior: number): number =>
    ((count?.defaults ?? 0) + QUALITY_PRIOR_LOANS * prior) / ((count?.n ?? 0) + QUALITY_PRIOR_LOANS);
  // With nothing resolved, a middling 10 %.
  const overall = all.n > 0 ? all.defaults / all.n : 0.1;
  const rates = new Map<string, number>();
  for (const [group, level] of levelOfGroup) rates.set(group, shrink(groups.get(group), shrink(levels.get(level), overall)));
  return rates;
}

function countOf(counts: Map<string, DefaultCount>, key: string): DefaultCount {
  let count = counts.get(key);
  if (count === undefined) counts.set(key, (count = { n: 0, defaults: 0 }));
  return count;
}

// Logits beyond these are certainties no borrower knows of themselves.
const MIN_QUALITY = 1e-4;
const MAX_QUALITY = 1 - 1e-4;

/** A borrower's latent quality for `seed`: the group rate moved on the logit scale by a seeded logistic draw. */
export function latentQuality(groupRate: number, seed: number, loanRequestId: number): number {
  const g = Math.min(MAX_QUALITY, Math.max(MIN_QUALITY, groupRate));
  const u = Math.min(MAX_QUALITY, Math.max(MIN_QUALITY, marketDraw(seed, loanRequestId, 'quality')));
  return logistic(logit(g, 0) + QUALITY_SPREAD * logit(u, 0));
}

function world(
  name: WorldName,
  label: string,
  law: (line: LineWithoutData, seed: number) => ReservationLaw,
  replacesRecorded: boolean,
): BorrowerWorld {
  return {
    name,
    label,
    reservation: (line, seed) => reservationOf(law(line, seed), marketDraw(seed, line.loan_request.id, 'accept')),
    ...(replacesRecorded ? { replacesRecorded } : {}),
  };
}

/** How the worlds treat lines that record acceptance. */
export interface WorldsOptions {
  /**
   * true (the report's band): every borrower answers by the world's rule, recorded or not, so a
   * recording with recorded acceptance still shows how the strategy would fare with other
   * borrowers; false (tune, train): recorded lines keep their own answer.
   */
  replaceRecorded?: boolean;
}

/** The four worlds for `recording`; `response` is the assumed curve of world (d). */
export function borrowerWorlds(recording: PreparedRecording, response: MarketResponse, options: WorldsOptions = {}): BorrowerWorld[] {
  const replaces = options.replaceRecorded === true;
  let groupRates: Map<string, number> | undefined;
  const qualityOf = (line: LineWithoutData, seed: number): number =>
    latentQuality((groupRates ??= groupDefaultRates(recording)).get(worldGroupOf(line)) ?? 0.1, seed, line.loan_request.id);
  const { midpoint, steepness } = response.takeUp;
  return [
    world(
      'insensitive',
      'rate-insensitive: any rate up to the maximum',
      (line) => insensitiveLaw(line.loan_request.max_interest_rate),
      replaces,
    ),
    world(
      'linear',
      `linear take-up: all at 0.03 down to ${LINEAR_TAKE_UP_AT_MAX * 100} % at the maximum`,
      (line) => linearLaw(line.loan_request.max_interest_rate),
      replaces,
    ),
    world(
      'quality',
      'quality-tied: good borrowers shop, poor ones take anything',
      (line, seed) => qualityLaw(line.loan_request.max_interest_rate, line.loan_request.loan_terms, qualityOf(line, seed)),
      replaces,
    ),
    world(
      'assumed',
      `assumed curve: midpoint ${midpoint}, steepness ${steepness}`,
      (line) => curveLaw(line.loan_request.max_interest_rate, response),
      replaces,
    ),
  ];
}
