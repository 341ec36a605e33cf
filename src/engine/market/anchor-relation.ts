/**
 * Whether the market's past prices track risk, learned across borrowers without outcomes
 * (docs/market-model.md, "The market's own prices as a cold-start anchor"). One borrower's history
 * cannot tell a market whose past prices follow risk from one whose prices are noise; many can.
 * Each request the history anchor read adds a pair: x, the score's log-odds of default before the
 * learned calibration, and z, the history's implied log-odds (history-anchor.ts). The least-squares
 * slope of z on x says how far the past prices move per unit of risk the score sees:
 *
 *   trust = clamp(β̂ − t·se(β̂), 0, 1), t Student's 97.5 % quantile at the fit's degrees of freedom
 *
 * The slope is measured within risk levels (x and z centred on each level's means): every level
 * has its own cap on rates, and prices bounded by the cap rise with the level whether or not they
 * follow risk, as the level's risk does. Across levels, noise under rising caps (the sandbox's
 * uniform draw, 8 % to the level's maximum) showed a slope of 0.3 with a standard error of 0.07
 * (trust 0.16 to 0.2) where within each level it was negative; prices that follow risk do so
 * within a level too. t rather than 2 keeps a handful of pairs from being trusted by chance.
 *
 * 0 while few requests were seen or where the prices are noise, near 1 where they move with the
 * score one for one. A measurement z = βη + noise carries β² of the information of one that reads
 * η itself, so the anchor's variance is divided by trust² (history-anchor.ts, anchoredLevel). Sums
 * only: bounded (at most MAX_LEVELS levels), and the same bits in a daemon and its replay, which
 * add the same pairs in the same order (the decide step's outcome).
 */

/** Running sums of the pairs (x, z) of one risk level. */
export interface RelationSums {
  n: number;
  sx: number;
  sz: number;
  sxx: number;
  sxz: number;
  szz: number;
}

/**
 * What was learned, as plain data (stored with the calibration learner): the pairs read, and
 * their sums by risk level. Stores older than the per-level sums hold pooled sums beside `n`,
 * which are not read (they cannot be split by level): the trust starts over from the next pair.
 */
export interface AnchorRelation {
  n: number;
  levels?: Record<string, RelationSums>;
}

/** The marketplace has five risk levels; a request from a further one adds nothing (bounded state). */
const MAX_LEVELS = 8;

export function emptyRelation(): AnchorRelation {
  return { n: 0, levels: {} };
}

/** Adds one request's pair, `level` its risk level. */
export function addPair(relation: AnchorRelation, level: number, x: number, z: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(z)) return;
  const levels = (relation.levels ??= {});
  const key = String(level);
  let sums = levels[key];
  if (sums === undefined) {
    if (Object.keys(levels).length >= MAX_LEVELS) return;
    sums = { n: 0, sx: 0, sz: 0, sxx: 0, sxz: 0, szz: 0 };
    levels[key] = sums;
  }
  relation.n += 1;
  sums.n += 1;
  sums.sx += x;
  sums.sz += z;
  sums.sxx += x * x;
  sums.sxz += x * z;
  sums.szz += z * z;
}

/**
 * The within-level slope of z on x, its standard error and degrees of freedom (pairs less one
 * mean per level less the slope), or undefined below two degrees of freedom or without spread in x.
 */
export function relationSlope(relation: AnchorRelation): { slope: number; se: number; df: number } | undefined {
  let n = 0;
  let groups = 0;
  let sxx = 0;
  let sxz = 0;
  let szz = 0;
  for (const sums of Object.values(relation.levels ?? {})) {
    if (sums.n === 0) continue;
    n += sums.n;
    groups += 1;
    sxx += sums.sxx - (sums.sx * sums.sx) / sums.n;
    sxz += sums.sxz - (sums.sx * sums.sz) / sums.n;
    szz += sums.szz - (sums.sz * sums.sz) / sums.n;
  }
  const df = n - groups - 1;
  if (df < 2 || !(sxx > 1e-9 * n)) return undefined;
  const slope = sxz / sxx;
  const residual = Math.max(0, szz - slope * sxz) / df;
  return { slope, se: Math.sqrt(residual / sxx), df };
}

/**
 * Student's t 97.5 % quantile at `df` degrees of freedom: the Cornish-Fisher expansion about the
 * normal's 1.96 (Abramowitz and Stegun 26.7.5), within 1 % from 2 degrees of freedom (4.27 for
 * 4.30), 3.18 at 3, 2.09 at 20, 1.96 in the limit.
 */
export function tQuantile975(df: number): number {
  const z = 1.959963984540054;
  const [z3, z5, z7, z9] = [z ** 3, z ** 5, z ** 7, z ** 9];
  const g1 = (z3 + z) / 4;
  const g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

/** How much the anchor is trusted, 0 to 1: the within-level slope's lower bound (97.5 %), clamped. */
export function relationTrust(relation: AnchorRelation | undefined): number {
  const fit = relation === undefined ? undefined : relationSlope(relation);
  if (fit === undefined) return 0;
  return Math.min(1, Math.max(0, fit.slope - tQuantile975(fit.df) * fit.se));
}
