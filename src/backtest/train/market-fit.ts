/**
 * The market response (src/engine/market-response.ts) fitted from the same recording:
 *
 * - competition.share: of the requests whose recording says whether anyone else offered
 *   (`best_competing_rate` present, a rate or null), the share with a competing offer;
 * - competition.intercept, per_default, spread: least squares of the best competing rate on the
 *   trained model's default probability; spread is the residuals' standard deviation;
 * - take_up.midpoint, steepness: a logistic fit on the rate's position between the lowest allowed
 *   rate and the request's maximum (ratePosition), from one of two sources:
 *   1. own_offers (preferred): the investor's own offers (`offer` on a line, as the daemon's
 *      export writes it), accepted against rejected, expired or lost, at OUR rate (plus, for a
 *      lost offer whose line names the rate taken, that take). With competitors around, "not
 *      accepted" mixes walking away with being outbid, so this is the overall acceptance of our
 *      offers: a cautious take-up;
 *   2. competing_rates: "took an offer" (funded) against "walked away" (unfunded although a
 *      competitor offered) at the competing rate (the sandbox's or a full-market recording).
 *   A source is used with at least MIN_TAKE_UP_LINES lines of either kind and when refusals rise
 *   with the rate; otherwise the next one is tried, and the report says why.
 */
import { ratePosition } from '../../engine/index.js';
import type { MarketSection } from '../../engine/model/index.js';
import { fitLogistic } from './logistic-fit.js';
import type { Outcome } from '../../recording/index.js';
import type { TrainingLine } from './training-data.js';

export const MIN_COMPETITION_LINES = 10;
export const MIN_TAKE_UP_LINES = 20;

export interface MarketFit {
  section: MarketSection;
  /** Why a part was left out, for the report. */
  notes: string[];
  /** The lines of the take-up source used (or, when none was, of the competing rates). */
  takeUpLines: { took: number; walked: number };
}

/** Rate positions of offers taken and of offers not taken, from one source. */
interface TakeUpSample {
  took: number[];
  walked: number[];
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

const round = (value: number): number => Number(value.toFixed(6));

/** Fits the market section; `repaidProbability` is the trained model's prediction for a line. */
export function fitMarket(lines: readonly TrainingLine[], repaidProbability: (line: TrainingLine) => number): MarketFit {
  const notes: string[] = [];
  const known = lines.filter((entry) => entry.line.outcome?.best_competing_rate !== undefined);
  const competed = known.filter((entry) => typeof entry.line.outcome?.best_competing_rate === 'number');
  const section: MarketSection = {};
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
    } else {
      notes.push(`${competed.length} lines with a competing rate (< ${MIN_COMPETITION_LINES}): competing rate level not fitted`);
    }
  }

  const own = ownOfferSample(lines);
  const ownCount = own.took.length + own.walked.length;
  if (ownCount > 0) {
    const fit = fitTakeUp(own);
    if (typeof fit !== 'string') {
      section.take_up = { ...fit, lines: ownCount, source: 'own_offers' };
      return { section, notes, takeUpLines: { took: own.took.length, walked: own.walked.length } };
    }
    notes.push(`take-up not fitted from our own offers: ${fit}; trying competing rates`);
  }
  const competing = competingRateSample(competed);
  const takeUpLines = { took: competing.took.length, walked: competing.walked.length };
  const fit = fitTakeUp(competing);
  if (typeof fit === 'string') {
    notes.push(`take-up not fitted: ${fit}`);
    return { section, notes, takeUpLines };
  }
  section.take_up = { ...fit, lines: takeUpLines.took + takeUpLines.walked, source: 'competing_rates' };
  return { section, notes, takeUpLines };
}

/**
 * Our own settled offers at our rate: accepted against rejected, expired or lost (pending says
 * nothing yet). A lost offer whose line names the rate the borrower took (c) also says the
 * borrower took c; when c is not below our rate, ours lost for some other reason (it came after
 * the borrower chose, say), so it says nothing about our rate and only the take counts.
 */
function ownOfferSample(lines: readonly TrainingLine[]): TakeUpSample {
  const sample: TakeUpSample = { took: [], walked: [] };
  for (const entry of lines) {
    const offer = entry.line.offer;
    if (offer === undefined || offer.status === 'pending') continue;
    const maxRate = entry.line.loan_request.max_interest_rate;
    const u = ratePosition(offer.rate, maxRate);
    if (offer.status === 'accepted') {
      sample.took.push(u);
      continue;
    }
    const taken = offer.status === 'lost' ? takenRate(entry.line.outcome) : undefined;
    if (taken !== undefined) sample.took.push(ratePosition(taken, maxRate));
    if (taken === undefined || taken < offer.rate) sample.walked.push(u);
  }
  return sample;
}

/** The rate a funded request was taken at, when the line says: funded_rate, else the competing rate. */
function takenRate(outcome: Outcome | undefined): number | undefined {
  if (outcome === undefined || outcome.status === 'unfunded') return undefined;
  return outcome.funded_rate ?? outcome.best_competing_rate ?? undefined;
}

/** Requests with a competing offer, at the competing rate: funded against walked away from (unfunded). */
function competingRateSample(competed: readonly TrainingLine[]): TakeUpSample {
  const sample: TakeUpSample = { took: [], walked: [] };
  for (const entry of competed) {
    const u = ratePosition(entry.line.outcome?.best_competing_rate as number, entry.line.loan_request.max_interest_rate);
    if (entry.line.outcome?.status === 'unfunded') sample.walked.push(u);
    else sample.took.push(u);
  }
  return sample;
}

/** The take-up curve of a sample, or why it cannot be fitted. */
function fitTakeUp(sample: TakeUpSample): { midpoint: number; steepness: number } | string {
  const { took, walked } = sample;
  if (took.length < MIN_TAKE_UP_LINES || walked.length < MIN_TAKE_UP_LINES) {
    return `${took.length} offers taken and ${walked.length} not taken (each needs ${MIN_TAKE_UP_LINES})`;
  }
  // A whisper of penalty keeps the fit finite if every refusal lies above every take.
  const fit = fitLogistic([...took, ...walked].map((u) => [1, u]), [...took.map(() => 1), ...walked.map(() => 0)], { l2: 1e-6 });
  const [a = 0, b = 0] = fit.weights;
  const steepness = -b;
  if (!(steepness > 0)) return `refusals do not rise with the rate (slope ${b.toFixed(3)})`;
  return { midpoint: round(a / steepness), steepness: round(steepness) };
}
