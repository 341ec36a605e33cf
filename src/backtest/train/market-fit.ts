/**
 * The market response (src/engine/market-response.ts) fitted from the same recording:
 *
 * - competition.share: of the requests whose recording says whether anyone else offered
 *   (`best_competing_rate` present, a rate or null), the share with a competing offer;
 * - competition.intercept, per_default, spread: least squares of the best competing rate on the
 *   trained model's default probability; spread is the residuals' standard deviation;
 * - take_up: the curve of take-up-fit.ts (midpoint and steepness, and their change per unit of
 *   default probability when the fates show borrowers answer by their quality), from one of two
 *   samples, each observation a rate position, the borrower's default probability (the trained
 *   model's) and whether the borrower took an offer at that rate:
 *   1. own_offers (preferred): the investor's own offers (`offer` on a line, as the daemon's
 *      export writes it), accepted against rejected, expired or lost, at OUR rate; an offer not
 *      accepted on a line that names the rate another lender's offer was taken at counts as that
 *      take instead (outbid is the competition model's part, not the borrower walking away);
 *   2. all_offers: every fate the recording shows: our own offers as above, and on the other
 *      requests the competing offer the borrower took (funded) or walked away from (unfunded
 *      although a competitor offered). A recording with no refusals of ours still has these.
 *   With `historyRates`, the rates of a borrower's past loans (marketplace 4.9: rates it once took) join
 *   sample 2 as takes; by default they are only counted (an old rate says little about today's).
 *   A sample is used with at least MIN_TAKE_UP_LINES fates of either kind and when refusals rise
 *   with the rate; otherwise the next one is tried, and the report says why.
 *
 * Never from `outcome.reservation_rate`: a real lender does not see it (it is for judging).
 */
import { ratePosition } from '../../engine/index.js';
import type { MarketSection } from '../../engine/model/index.js';
import type { Outcome } from '../../recording/index.js';
import type { TrainingLine } from './training-data.js';
import { fitTakeUpCurve, MIN_TAKE_UP_LINES, round, type TakeUpObservation } from './take-up-fit.js';

export { MIN_TAKE_UP_LINES };
const MIN_COMPETITION_LINES = 10;
/** Below this many observations a fitted part is called thin. */
export const THIN_LINES = 200;

/** How much one part of the fit rests on, with a plain verdict. */
export interface PartEvidence {
  lines: number;
  verdict: 'fitted' | 'thin' | 'none';
}

interface MarketEvidence {
  competitionShare: PartEvidence;
  competitionRate: PartEvidence;
  takeUp: PartEvidence & {
    took: number;
    walked: number;
    /** Fates of our own offers, of competitors' offers, and borrower-history rates in the sample used. */
    ownOffers: number;
    competingOffers: number;
    historyRates: number;
    /** History rates the recording carries (used or not). */
    historyRatesSeen: number;
    /** Whether the curve depends on the borrower, and the likelihood-ratio statistic that decided. */
    borrowerDependent: boolean;
    borrowerEvidence: number;
  };
}

export interface MarketFit {
  section: MarketSection;
  /** Why a part was left out, for the report. */
  notes: string[];
  /** The lines of the take-up source used (or, when none was, of the pooled fates). */
  takeUpLines: { took: number; walked: number };
  evidence: MarketEvidence;
}

export interface MarketFitOptions {
  /** Borrower-history rates (marketplace 4.9) join the pooled sample as takes. */
  historyRates?: boolean;
}

/** Fates, with where each came from. */
interface TakeUpSample {
  observations: TakeUpObservation[];
  own: number;
  competing: number;
  history: number;
}

function verdict(lines: number, fitted: boolean): PartEvidence['verdict'] {
  if (!fitted) return 'none';
  return lines < THIN_LINES ? 'thin' : 'fitted';
}

function leastSquares(x: readonly number[], y: readonly number[]): { intercept: number; slope: number; spread: number } {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  x.forEach((xi, i) => {
    sxy += (xi - mx) * ((y[i] ?? 0) - my);
    sxx += (xi - mx) ** 2;
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  const intercept = my - slope * mx;
  let ssr = 0;
  x.forEach((xi, i) => {
    ssr += ((y[i] ?? 0) - intercept - slope * xi) ** 2;
  });
  return { intercept, slope, spread: Math.sqrt(ssr / Math.max(1, n - 2)) };
}

/** Fits the market section; `repaidProbability` is the trained model's prediction for a line. */
export function fitMarket(
  lines: readonly TrainingLine[],
  repaidProbability: (line: TrainingLine) => number,
  options: MarketFitOptions = {},
): MarketFit {
  const notes: string[] = [];
  const known = lines.filter((entry) => entry.line.outcome?.best_competing_rate !== undefined);
  const competed = known.filter((entry) => typeof entry.line.outcome?.best_competing_rate === 'number');
  const section: MarketSection = {};
  let levelFitted = false;
  if (known.length === 0) {
    notes.push('no line says whether anyone else offered (outcome.best_competing_rate): no competition fitted');
  } else {
    section.competition = { share: round(competed.length / known.length), lines: known.length };
    if (competed.length >= MIN_COMPETITION_LINES) {
      const fit = leastSquares(
        competed.map((entry) => 1 - repaidProbability(entry)),
        competed.map((entry) => entry.line.outcome?.best_competing_rate as number),
      );
      Object.assign(section.competition, { intercept: round(fit.intercept), per_default: round(fit.slope), spread: round(fit.spread) });
      levelFitted = true;
    } else {
      notes.push(`${competed.length} lines with a competing rate (< ${MIN_COMPETITION_LINES}): competing rate level not fitted`);
    }
  }
  const pd = (entry: TrainingLine): number => 1 - repaidProbability(entry);
  const historyRatesSeen = lines.reduce((total, entry) => total + historyRates(entry).length, 0);
  const evidenceOf = (sample: TakeUpSample, fitted: ReturnType<typeof fitTakeUpCurve> | undefined): MarketEvidence => {
    const took = sample.observations.filter((o) => o.took === 1).length;
    const curve = fitted === undefined || typeof fitted === 'string' ? undefined : fitted;
    return {
      competitionShare: { lines: known.length, verdict: verdict(known.length, known.length > 0) },
      competitionRate: { lines: competed.length, verdict: verdict(competed.length, levelFitted) },
      takeUp: {
        lines: sample.observations.length,
        verdict: verdict(Math.min(took, sample.observations.length - took), curve !== undefined),
        took,
        walked: sample.observations.length - took,
        ownOffers: sample.own,
        competingOffers: sample.competing,
        historyRates: sample.history,
        historyRatesSeen,
        borrowerDependent: curve !== undefined && (curve.midpointPerDefault !== 0 || curve.steepnessPerDefault !== 0),
        borrowerEvidence: curve?.borrowerEvidence ?? 0,
      },
    };
  };
  const counts = (sample: TakeUpSample): MarketFit['takeUpLines'] => {
    const took = sample.observations.filter((o) => o.took === 1).length;
    return { took, walked: sample.observations.length - took };
  };

  const own = ownOfferSample(lines, pd);
  if (own.observations.length > 0) {
    const fit = fitTakeUpCurve(own.observations);
    if (typeof fit !== 'string') {
      section.take_up = { ...takeUpSection(fit), lines: own.observations.length, source: 'own_offers' };
      return { section, notes, takeUpLines: counts(own), evidence: evidenceOf(own, fit) };
    }
    notes.push(`take-up not fitted from our own offers: ${fit}; trying every offer's fate`);
  }
  const pooled = pooledSample(lines, pd, options.historyRates === true);
  const fit = fitTakeUpCurve(pooled.observations);
  if (typeof fit === 'string') {
    notes.push(`take-up not fitted: ${fit}`);
    return { section, notes, takeUpLines: counts(pooled), evidence: evidenceOf(pooled, fit) };
  }
  section.take_up = { ...takeUpSection(fit), lines: pooled.observations.length, source: 'all_offers' };
  return { section, notes, takeUpLines: counts(pooled), evidence: evidenceOf(pooled, fit) };
}

type TakeUpSection = { midpoint: number; steepness: number; midpoint_per_default?: number; steepness_per_default?: number };

/** The fitted curve as the model file's section; per-default terms only when not 0. */
function takeUpSection(fit: Exclude<ReturnType<typeof fitTakeUpCurve>, string>): TakeUpSection {
  const section: TakeUpSection = { midpoint: fit.midpoint, steepness: fit.steepness };
  if (fit.midpointPerDefault !== 0 || fit.steepnessPerDefault !== 0) {
    section.midpoint_per_default = fit.midpointPerDefault;
    section.steepness_per_default = fit.steepnessPerDefault;
  }
  return section;
}

/**
 * Our own settled offers at our rate: accepted against rejected, expired or lost (pending says
 * nothing yet). An offer not accepted on a request someone else funded, whose line names the rate
 * taken (c), says the borrower took c and nothing about our rate: below ours, we were outbid (the
 * competition model prices that, so counting it as walking away would count it twice); not below,
 * ours came too late. Only the take at c counts. Without a named rate, the borrower refused the
 * cheapest offer it saw: ours, or a cheaper competing one the line names. Each line thus gives the
 * borrower's answer at the cheapest offer, whatever the outcome: counting a take at c only when c
 * was taken, and a refusal at ours otherwise, would set takes at lower rates than refusals by
 * construction and fit a curve steeper than the borrowers'.
 */
function ownOfferFates(entry: TrainingLine, pd: number): TakeUpObservation[] | undefined {
  const offer = entry.line.offer;
  if (offer === undefined || offer.status === 'pending') return undefined;
  const maxRate = entry.line.loan_request.max_interest_rate;
  const u = ratePosition(offer.rate, maxRate);
  if (offer.status === 'accepted') return [{ u, pd, took: 1 }];
  const taken = takenRate(entry.line.outcome);
  if (taken !== undefined) return [{ u: ratePosition(taken, maxRate), pd, took: 1 }];
  const competing = entry.line.outcome?.best_competing_rate;
  const cheapest = typeof competing === 'number' ? Math.min(competing, offer.rate) : offer.rate;
  return [{ u: ratePosition(cheapest, maxRate), pd, took: 0 }];
}

function ownOfferSample(lines: readonly TrainingLine[], pd: (entry: TrainingLine) => number): TakeUpSample {
  const sample: TakeUpSample = { observations: [], own: 0, competing: 0, history: 0 };
  for (const entry of lines) {
    const fates = ownOfferFates(entry, pd(entry));
    if (fates === undefined) continue;
    sample.observations.push(...fates);
    sample.own += fates.length;
  }
  return sample;
}

/** The rate a funded request was taken at, when the line says: funded_rate, else the competing rate. */
function takenRate(outcome: Outcome | undefined): number | undefined {
  if (outcome === undefined || outcome.status === 'unfunded') return undefined;
  return outcome.funded_rate ?? outcome.best_competing_rate ?? undefined;
}

/** The rates of the borrower's past loans the line carries (marketplace 4.9), as numbers. */
function historyRates(entry: TrainingLine): number[] {
  const items = entry.line.borrower_history ?? [];
  return items.map((item) => Number(item.interest_rate)).filter((rate) => Number.isFinite(rate) && rate > 0);
}

/**
 * Every fate the recording shows: our settled offers as in ownOfferFates; on a request without
 * one, the competing offer taken (funded, at the rate taken) or walked away from (unfunded
 * although a competitor offered: the borrower refused the cheapest offer, so every dearer one);
 * with `withHistory`, the borrower's past loan rates as takes.
 */
function pooledSample(lines: readonly TrainingLine[], pd: (entry: TrainingLine) => number, withHistory: boolean): TakeUpSample {
  const sample: TakeUpSample = { observations: [], own: 0, competing: 0, history: 0 };
  for (const entry of lines) {
    const p = pd(entry);
    const maxRate = entry.line.loan_request.max_interest_rate;
    const fates = ownOfferFates(entry, p);
    if (fates !== undefined) {
      sample.observations.push(...fates);
      sample.own += fates.length;
    } else {
      const outcome = entry.line.outcome;
      const competing = outcome?.best_competing_rate;
      if (outcome !== undefined && typeof competing === 'number') {
        const took = outcome.status !== 'unfunded';
        sample.observations.push({
          u: ratePosition(took ? (outcome.funded_rate ?? competing) : competing, maxRate),
          pd: p,
          took: took ? 1 : 0,
        });
        sample.competing += 1;
      }
    }
    if (!withHistory) continue;
    for (const rate of historyRates(entry)) {
      sample.observations.push({ u: ratePosition(rate, maxRate), pd: p, took: 1 });
      sample.history += 1;
    }
  }
  return sample;
}
