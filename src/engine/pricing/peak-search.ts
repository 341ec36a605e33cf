/**
 * Pinning one peak of a smooth curve to the best rate an offer may carry: Brent's method
 * (golden-section steps, parabolic ones where the curve allows; Brent 1973, as in Numerical
 * Recipes' `brent`) narrows a bracket around the peak to PEAK_TOLERANCE, then the 4-decimal
 * rates left in the bracket are compared. Within one peak the curve rises then falls, so its
 * best 4-decimal rate is one of the two around the true maximum, and both are in the bracket.
 */

/** Half the width the bracket is narrowed to: far below the 0.0001 between offered rates. */
const PEAK_TOLERANCE = 1e-5;
/** The golden section's smaller part, (3 − √5) / 2. */
const GOLDEN = 0.3819660112501051;
/** More than enough: Brent needs about log1.6(bracket / tolerance) steps at worst (some 20). */
const MAX_STEPS = 100;

/** A rate and the curve's value there. */
export interface Peak {
  rate: number;
  value: number;
}

/**
 * The best rate in [from, to] (every 0.0001 in [low, cap), and cap) near the peak of `value`
 * that the sample `at` (worth `atValue`) shows, where low <= from <= at <= to <= cap and
 * nothing in the bracket is higher than the peak's sides. The peak may be at either end.
 */
export function maximiseNear(
  value: (rate: number) => number,
  from: number,
  at: number,
  to: number,
  atValue: number,
  low: number,
  cap: number,
): Peak {
  // Brent's minimisation of −value over [a, b]; x is the best point so far, w the second best,
  // v the previous w; d the last step, e the one before.
  let a = from;
  let b = to;
  let x = at;
  let w = at;
  let v = at;
  let fx = -atValue;
  let fw = fx;
  let fv = fx;
  let d = 0;
  let e = 0;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const middle = 0.5 * (a + b);
    if (Math.abs(x - middle) <= 2 * PEAK_TOLERANCE - 0.5 * (b - a)) break;
    let golden = true;
    if (Math.abs(e) > PEAK_TOLERANCE) {
      // A parabola through x, w and v; its vertex is taken when it falls inside the bracket
      // and the step is less than half the one before last (else the search could crawl).
      const r = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      q = Math.abs(q);
      const before = e;
      if (Math.abs(p) < Math.abs(0.5 * q * before) && p > q * (a - x) && p < q * (b - x)) {
        e = d;
        d = p / q;
        const u = x + d;
        if (u - a < 2 * PEAK_TOLERANCE || b - u < 2 * PEAK_TOLERANCE) d = middle >= x ? PEAK_TOLERANCE : -PEAK_TOLERANCE;
        golden = false;
      }
    }
    if (golden) {
      e = x >= middle ? a - x : b - x;
      d = GOLDEN * e;
    }
    const u = Math.abs(d) >= PEAK_TOLERANCE ? x + d : x + (d >= 0 ? PEAK_TOLERANCE : -PEAK_TOLERANCE);
    const fu = -value(u);
    if (fu <= fx) {
      if (u >= x) a = x;
      else b = x;
      v = w;
      fv = fw;
      w = x;
      fw = fx;
      x = u;
      fx = fu;
    } else {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w === x) {
        v = w;
        fv = fw;
        w = u;
        fw = fu;
      } else if (fu <= fv || v === x || v === w) {
        v = u;
        fv = fu;
      }
    }
  }
  return bestOfferedRate(value, a, b, low, cap);
}

/** The best of the offered rates from the one at or below `from` to the one at or above `to`. */
function bestOfferedRate(value: (rate: number) => number, from: number, to: number, low: number, cap: number): Peak {
  // Numbers, not a Peak per better candidate: one object is made, for the answer.
  let bestRate = Number.NaN;
  let bestValue = Number.NEGATIVE_INFINITY;
  let previous = Number.NaN;
  const last = Math.ceil(to * 10_000 - 1e-9);
  for (let tenThousandths = Math.floor(from * 10_000 + 1e-9); tenThousandths <= last; tenThousandths += 1) {
    // Offered rates below the break-even are the break-even (low); at or above the cap, the cap.
    const rate = Math.min(cap, Math.max(low, tenThousandths / 10_000));
    if (rate === previous) continue;
    previous = rate;
    const candidate = value(rate);
    if (candidate > bestValue) {
      bestRate = rate;
      bestValue = candidate;
    }
  }
  return { rate: bestRate, value: bestValue };
}
