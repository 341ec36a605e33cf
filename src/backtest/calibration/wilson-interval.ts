/**
 * The 95 % Wilson score interval of a proportion (k of n): unlike p ± 1.96·sd it stays within
 * [0, 1] and is honest for small n and for rates near 0, as default rates are.
 */

/** z for a two-sided 95 % interval. */
const Z = 1.959963984540054;

export interface Proportion {
  n: number;
  /** k / n (0 when n is 0). */
  rate: number;
  low: number;
  high: number;
}

export function wilsonInterval(k: number, n: number): Proportion {
  if (n <= 0) return { n: 0, rate: 0, low: 0, high: 1 };
  const rate = k / n;
  const z2 = Z * Z;
  const centre = (rate + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z * Math.sqrt((rate * (1 - rate)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // At k = 0 and k = n the bound is exactly 0 or 1; the formula gives it only to rounding.
  return { n, rate, low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}
