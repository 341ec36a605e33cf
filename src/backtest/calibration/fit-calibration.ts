/**
 * Fitting a strategy's `score.calibration` on its own score (the probability before any
 * calibration it has), from resolved requests it scored:
 *
 * - platt: logistic regression of repayment on the score's log-odds s, unpenalised:
 *   P(repaid) = 1 / (1 + e^-(a·s + b)). Two numbers: steady on a few hundred requests.
 * - isotonic: pool-adjacent-violators on the score's probability (the rising step function closest
 *   to the repayment labels), blocks merged until each holds at least MIN_BLOCK requests and a
 *   MAX_POINTS-th of them, one point per block at (its mean score probability, its repayment
 *   rate with one repaid and one defaulted request added: a block where all 30 borrowers repaid
 *   says 31/32, "very likely", not "certain"). Follows any rising shape, needs more data.
 */
import { compileCalibration } from '../../engine/compile/compile-calibration.js';
import type { CalibrationDefinition, FittedCalibrationDefinition } from '../../engine/definition/strategy-schema.js';
import { fitLogistic } from '../train/logistic-fit.js';
import { logistic, logit } from '../../math/index.js';
import type { ScoredRequest } from './strategy-probabilities.js';

export type CalibrationMethod = 'platt' | 'isotonic';

/** Each isotonic block (one point of the map) holds at least this many requests... */
export const MIN_BLOCK = 30;
/** ...and at least this share of them, so a map has at most this many points. */
const MAX_POINTS = 25;

/** A fit that cannot be made; the message says why. */
export class CalibrationFitError extends Error {
  override readonly name = 'CalibrationFitError';
}

/** Raw scores are kept this far from 0 and 1 before taking log-odds: a fit must not see an infinity. */
const SCORE_EDGE = 1e-9;
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

function fitPlatt(items: readonly ScoredRequest[]): FittedCalibrationDefinition {
  const rows = items.map((item) => [1, logit(item.rawProbability, SCORE_EDGE)]);
  const fit = fitLogistic(
    rows,
    items.map((item) => 1 - item.defaulted),
    { l2: 0, unpenalised: [0, 1] },
  );
  const [b = 0, a = 0] = fit.weights;
  if (!(a > 0)) {
    throw new CalibrationFitError(
      `the score does not rank repaid above defaulted requests here (Platt slope ${a.toFixed(3)}): calibration keeps the order, so it cannot help`,
    );
  }
  return { method: 'platt', a: round4(a), b: round4(b) };
}

interface Block {
  n: number;
  sumP: number;
  repaid: number;
}

const rateOf = (block: Block): number => block.repaid / block.n;
const merge = (left: Block, right: Block): Block => ({
  n: left.n + right.n,
  sumP: left.sumP + right.sumP,
  repaid: left.repaid + right.repaid,
});

/** Pool-adjacent-violators over blocks already in score order: repayment rates that never fall. */
function poolViolators(blocks: readonly Block[]): Block[] {
  const stack: Block[] = [];
  for (const block of blocks) {
    let current = block;
    // Equal rates are pooled too: the fit is the same with fewer points.
    while (stack.length > 0 && rateOf(stack[stack.length - 1] as Block) >= rateOf(current)) current = merge(stack.pop() as Block, current);
    stack.push(current);
  }
  return stack;
}

/** Merges the smallest block below `min` into its neighbour with the closer rate, until none is. */
function mergeSmall(blocks: Block[], min: number): Block[] {
  const out = [...blocks];
  for (;;) {
    let index = -1;
    for (let i = 0; i < out.length; i += 1)
      if ((out[i] as Block).n < min && (index < 0 || (out[i] as Block).n < (out[index] as Block).n)) index = i;
    if (index < 0 || out.length < 2) return out;
    const block = out[index] as Block;
    const left = out[index - 1];
    const right = out[index + 1];
    const useLeft =
      right === undefined || (left !== undefined && Math.abs(rateOf(left) - rateOf(block)) <= Math.abs(rateOf(right) - rateOf(block)));
    if (useLeft) out.splice(index - 1, 2, merge(left as Block, block));
    else out.splice(index, 2, merge(block, right as Block));
  }
}

function fitIsotonic(items: readonly ScoredRequest[]): FittedCalibrationDefinition {
  const order = [...items].sort((a, b) => a.rawProbability - b.rawProbability);
  // Requests with the same score are one block from the start (a scorecard gives many ties).
  const ties: Block[] = [];
  order.forEach((item, i) => {
    const block = { n: 1, sumP: item.rawProbability, repaid: 1 - item.defaulted };
    const last = ties[ties.length - 1];
    if (last !== undefined && order[i - 1]?.rawProbability === item.rawProbability) ties[ties.length - 1] = merge(last, block);
    else ties.push(block);
  });
  const minBlock = Math.min(Math.max(MIN_BLOCK, Math.ceil(items.length / MAX_POINTS)), Math.floor(items.length / 2));
  const blocks = mergeSmall(poolViolators(ties), minBlock);
  const points: Array<[number, number]> = [];
  for (const block of blocks) {
    const p = round4(block.sumP / block.n);
    const last = points[points.length - 1];
    // The added pair can lower a small block below a large one before it: never fall.
    const q = Math.max(last?.[1] ?? 0, round4((block.repaid + 1) / (block.n + 2)));
    // Rounding can bring two blocks' score probabilities together: one point, the higher value.
    if (last !== undefined && last[0] >= p) last[1] = q;
    else points.push([p, q]);
  }
  if (points.length < 2) {
    throw new CalibrationFitError(
      'the score gives every request the same probability here (one isotonic block): nothing to calibrate against',
    );
  }
  return { method: 'isotonic', points };
}

/** Fits `method` on the score's probabilities (before the strategy's own calibration) and labels of `items`. */
export function fitCalibration(items: readonly ScoredRequest[], method: CalibrationMethod): FittedCalibrationDefinition {
  return method === 'platt' ? fitPlatt(items) : fitIsotonic(items);
}

/** The score's probability (before calibration) to the calibrated one, under `calibration`. */
export function calibrator(calibration: CalibrationDefinition): (rawProbability: number) => number {
  const map = compileCalibration(calibration, {});
  return (rawProbability) => logistic(map(logit(rawProbability, SCORE_EDGE)));
}
