/**
 * The market response (src/engine/market-response.ts) fitted from the same recording:
 *
 * - competition.share: of the requests whose recording says whether anyone else offered
 *   (`best_competing_rate` present, a rate or null), the share with a competing offer;
 * - competition.intercept, per_default, spread: least squares of the best competing rate on the
 *   trained model's default probability; spread is the residuals' standard deviation;
 * - take_up.midpoint, steepness: a logistic fit of "took an offer" (funded) against "walked away"
 *   (unfunded although a competitor offered) on the competing rate's position between the
 *   lowest allowed rate and the request's maximum (ratePosition). Left out with fewer than
 *   MIN_TAKE_UP_LINES of either kind, or when walking away does not rise with the rate.
 */
import { ratePosition } from '../../engine/index.js';
import type { MarketSection } from '../../engine/model/index.js';
import { fitLogistic } from './logistic-fit.js';
import type { TrainingLine } from './training-data.js';

export const MIN_COMPETITION_LINES = 10;
export const MIN_TAKE_UP_LINES = 20;

export interface MarketFit {
  section: MarketSection;
  /** Why a part was left out, for the report. */
  notes: string[];
  takeUpLines: { took: number; walked: number };
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

  const took: number[] = [];
  const walked: number[] = [];
  for (const entry of competed) {
    const u = ratePosition(entry.line.outcome?.best_competing_rate as number, entry.line.loan_request.max_interest_rate);
    if (entry.line.outcome?.status === 'unfunded') walked.push(u);
    else took.push(u);
  }
  const takeUpLines = { took: took.length, walked: walked.length };
  if (took.length < MIN_TAKE_UP_LINES || walked.length < MIN_TAKE_UP_LINES) {
    notes.push(`take-up not fitted: ${took.length} offers taken and ${walked.length} walked away from (each needs ${MIN_TAKE_UP_LINES})`);
    return { section, notes, takeUpLines };
  }
  // A whisper of penalty keeps the fit finite if every walk-away lies above every take.
  const fit = fitLogistic([...took, ...walked].map((u) => [1, u]), [...took.map(() => 1), ...walked.map(() => 0)], { l2: 1e-6 });
  const [a = 0, b = 0] = fit.weights;
  const steepness = -b;
  if (!(steepness > 0)) {
    notes.push(`take-up not fitted: walking away does not rise with the rate (slope ${b.toFixed(3)})`);
    return { section, notes, takeUpLines };
  }
  section.take_up = { midpoint: round(a / steepness), steepness: round(steepness), lines: took.length + walked.length };
  return { section, notes, takeUpLines };
}
