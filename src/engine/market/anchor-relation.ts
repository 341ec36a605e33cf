/**
 * Whether the market's past prices track risk, learned across borrowers without outcomes
 * (docs/market-model.md, "The market's own prices as a cold-start anchor"). One borrower's history
 * cannot tell a market whose past prices follow risk from one whose prices are noise; many can.
 * Each request the history anchor read adds a pair: x, the score's log-odds of default before the
 * learned calibration, and z, the history's implied log-odds (history-anchor.ts). The least-squares
 * slope of z on x says how far the past prices move per unit of risk the score sees:
 *
 *   trust = clamp(β̂ − 2·se(β̂), 0, 1)
 *
 * 0 while few requests were seen or where the prices are noise (the sandbox's uniform draw, a
 * market pricing blind to risk), near 1 where they move with the score one for one. A measurement
 * z = βη + noise carries β² of the information of one that reads η itself, so the anchor's variance
 * is divided by trust² (history-anchor.ts, anchoredLevel). Sums only: bounded, and the same bits in
 * a daemon and its replay, which add the same pairs in the same order (the decide step's outcome).
 */

/** Running sums of the pairs (x, z), as plain data (stored with the calibration learner). */
export interface AnchorRelation {
  n: number;
  sx: number;
  sz: number;
  sxx: number;
  sxz: number;
  szz: number;
}

export function emptyRelation(): AnchorRelation {
  return { n: 0, sx: 0, sz: 0, sxx: 0, sxz: 0, szz: 0 };
}

/** Adds one request's pair. */
export function addPair(relation: AnchorRelation, x: number, z: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(z)) return;
  relation.n += 1;
  relation.sx += x;
  relation.sz += z;
  relation.sxx += x * x;
  relation.sxz += x * z;
  relation.szz += z * z;
}

/** The slope of z on x and its standard error, or undefined below three pairs or without spread in x. */
export function relationSlope(relation: AnchorRelation): { slope: number; se: number } | undefined {
  const { n } = relation;
  if (n < 3) return undefined;
  const sxx = relation.sxx - (relation.sx * relation.sx) / n;
  const sxz = relation.sxz - (relation.sx * relation.sz) / n;
  const szz = relation.szz - (relation.sz * relation.sz) / n;
  if (!(sxx > 1e-9 * n)) return undefined;
  const slope = sxz / sxx;
  const residual = Math.max(0, szz - slope * sxz) / (n - 2);
  return { slope, se: Math.sqrt(residual / sxx) };
}

/** How much the anchor is trusted, 0 to 1: the slope's lower bound (about 97.5 %), clamped. */
export function relationTrust(relation: AnchorRelation | undefined): number {
  const fit = relation === undefined ? undefined : relationSlope(relation);
  if (fit === undefined) return 0;
  return Math.min(1, Math.max(0, fit.slope - 2 * fit.se));
}
