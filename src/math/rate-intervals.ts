/**
 * Confidence intervals for a default rate counted in a sample, and for the ratio of two: the
 * 95 % Wilson score interval (honest at small n and at rates near 0, where the normal one is
 * not) and Katz's log interval of a ratio. The backtest's competition table, the calibration
 * and drift reports and the paper book all state their rates with these, so a figure and its
 * interval mean the same on every surface.
 */

const Z95 = 1.959963984540054;

/** A default rate with its 95 % Wilson interval; nulls when the sample is empty. */
export interface DefaultRate {
  defaults: number;
  /** Loans (or requests) whose fate the recording knows. */
  n: number;
  rate: number | null;
  low: number | null;
  high: number | null;
}

/** A ratio of two default rates with its 95 % interval (log method). */
export interface RateRatio {
  ratio: number | null;
  low: number | null;
  high: number | null;
}

/** The 95 % Wilson score interval of `defaults` in `n`. */
export function wilson(defaults: number, n: number): DefaultRate {
  if (n === 0) return { defaults, n, rate: null, low: null, high: null };
  const p = defaults / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { defaults, n, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * a/n1 over c/n2 with the 95 % interval of the log method (Katz). When a count of the two-by-two
 * table is zero (no default, or nothing but defaults, on either side) every count gets half a
 * loan more (Haldane), so a tiny sample gets a wide interval; a ratio of 0 has 0 as its low end;
 * without a default among the offers there is no ratio. The funded loans are a subset of the
 * offers, which makes the interval a little wider than it needs to be (cautious).
 */
export function rateRatio(top: DefaultRate, bottom: DefaultRate): RateRatio {
  if (top.n === 0 || bottom.n === 0 || bottom.defaults === 0) return { ratio: null, low: null, high: null };
  const ratio = top.defaults / top.n / (bottom.defaults / bottom.n);
  const zero = [top.defaults, top.n - top.defaults, bottom.defaults, bottom.n - bottom.defaults].includes(0) ? 0.5 : 0;
  const [a, n1, c, n2] = [top.defaults + zero, top.n + 2 * zero, bottom.defaults + zero, bottom.n + 2 * zero];
  const centre = Math.log(a / n1 / (c / n2));
  const se = Math.sqrt(Math.max(0, 1 / a - 1 / n1 + 1 / c - 1 / n2));
  return { ratio, low: ratio === 0 ? 0 : Math.exp(centre - Z95 * se), high: Math.exp(centre + Z95 * se) };
}
