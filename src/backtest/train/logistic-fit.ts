/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) with an L2
 * penalty: maximises
 *
 *   Σ [y·ln p + (1 − y)·ln(1 − p)] − (l2 / 2)·Σ w_j²,   p = 1 / (1 + e^−(x·w))
 *
 * where the penalty skips the columns marked unpenalised (the intercept). Each step solves
 * H·Δ = g with H = XᵀWX + l2·I (Cholesky) and halves the step until the objective rises, so it
 * also converges on separable data once l2 > 0. Exact, and fast for the tens of columns and
 * thousands of rows a recording gives. (npm's ml-logistic-regression has no penalty and fits by
 * plain gradient descent, so it was not used.)
 */

export interface FitOptions {
  /** Penalty on the squared weights; 0 is plain maximum likelihood. */
  l2: number;
  /** Columns the penalty skips (by default column 0, the intercept). */
  unpenalised?: readonly number[];
}

/** Newton steps at the most; the fit has converged once no weight moves by more than TOLERANCE. */
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-9;

export interface FitResult {
  weights: number[];
  converged: boolean;
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** ln(1 + e^x) without overflow. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

function dot(row: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let j = 0; j < weights.length; j += 1) sum += (row[j] ?? 0) * (weights[j] ?? 0);
  return sum;
}

/** The probability the model gives each row. */
export function predictRows(rows: readonly (readonly number[])[], weights: readonly number[]): number[] {
  return rows.map((row) => sigmoid(dot(row, weights)));
}

function penaltyMask(columns: number, unpenalised: readonly number[]): number[] {
  const mask = new Array<number>(columns).fill(1);
  for (const column of unpenalised) mask[column] = 0;
  return mask;
}

/** The penalised log-likelihood. */
function penalisedLogLikelihood(
  rows: readonly (readonly number[])[],
  y: readonly number[],
  weights: readonly number[],
  l2: number,
  mask: readonly number[],
): number {
  let total = 0;
  rows.forEach((row, i) => {
    const eta = dot(row, weights);
    // y·η − ln(1 + e^η) is the Bernoulli log-likelihood in terms of the linear predictor.
    total += (y[i] ?? 0) * eta - softplus(eta);
  });
  for (let j = 0; j < weights.length; j += 1) total -= ((l2 * (mask[j] ?? 1)) / 2) * (weights[j] ?? 0) ** 2;
  return total;
}

/** The gradient of the penalised log-likelihood (zero at the answer). */
export function gradient(
  rows: readonly (readonly number[])[],
  y: readonly number[],
  weights: readonly number[],
  l2: number,
  mask: readonly number[],
): number[] {
  const g = weights.map((w, j) => -l2 * (mask[j] ?? 1) * w);
  rows.forEach((row, i) => {
    const residual = (y[i] ?? 0) - sigmoid(dot(row, weights));
    for (let j = 0; j < g.length; j += 1) g[j] = (g[j] ?? 0) + residual * (row[j] ?? 0);
  });
  return g;
}

/** Solves A·x = b for a symmetric positive definite A (Cholesky); null when A is not. */
export function solveSpd(a: readonly (readonly number[])[], b: readonly number[]): number[] | null {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1) {
    const li = l[i] as number[];
    for (let j = 0; j <= i; j += 1) {
      const lj = l[j] as number[];
      let sum = a[i]?.[j] ?? 0;
      for (let k = 0; k < j; k += 1) sum -= (li[k] as number) * (lj[k] as number);
      if (i === j) {
        if (!(sum > 0)) return null;
        li[i] = Math.sqrt(sum);
      } else {
        li[j] = sum / (lj[j] as number);
      }
    }
  }
  const z = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i += 1) {
    let sum = b[i] ?? 0;
    for (let k = 0; k < i; k += 1) sum -= (l[i]?.[k] ?? 0) * (z[k] ?? 0);
    z[i] = sum / (l[i]?.[i] ?? 1);
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i -= 1) {
    let sum = z[i] ?? 0;
    for (let k = i + 1; k < n; k += 1) sum -= (l[k]?.[i] ?? 0) * (x[k] ?? 0);
    x[i] = sum / (l[i]?.[i] ?? 1);
  }
  return x;
}

function hessian(rows: readonly (readonly number[])[], weights: readonly number[], l2: number, mask: readonly number[]): number[][] {
  const n = weights.length;
  const h = Array.from({ length: n }, (_, j) => {
    const line = new Array<number>(n).fill(0);
    line[j] = l2 * (mask[j] ?? 1);
    return line;
  });
  for (const row of rows) {
    const p = sigmoid(dot(row, weights));
    const w = p * (1 - p);
    if (w === 0) continue;
    for (let j = 0; j < n; j += 1) {
      const xj = (row[j] ?? 0) * w;
      if (xj === 0) continue;
      const line = h[j] as number[];
      for (let k = 0; k <= j; k += 1) line[k] = (line[k] as number) + xj * (row[k] ?? 0);
    }
  }
  for (let j = 0; j < n; j += 1) for (let k = j + 1; k < n; k += 1) (h[j] as number[])[k] = (h[k] as number[])[j] as number;
  return h;
}

/**
 * Fits the weights (one per column of `rows`; put a column of ones first for an intercept).
 * `y` holds 1 or 0 per row.
 */
export function fitLogistic(rows: readonly (readonly number[])[], y: readonly number[], options: FitOptions): FitResult {
  if (rows.length !== y.length) throw new RangeError(`${rows.length} rows but ${y.length} labels`);
  const columns = rows[0]?.length ?? 0;
  const mask = penaltyMask(columns, options.unpenalised ?? [0]);
  let weights = new Array<number>(columns).fill(0);
  let objective = penalisedLogLikelihood(rows, y, weights, options.l2, mask);
  for (let iteration = 1; iteration <= MAX_ITERATIONS; iteration += 1) {
    const g = gradient(rows, y, weights, options.l2, mask);
    const h = hessian(rows, weights, options.l2, mask);
    // A flat direction (l2 = 0 and a column that never varies) makes H singular: a tiny ridge
    // picks the smallest step, as a pseudo-inverse would.
    let step = solveSpd(h, g);
    for (let ridge = 1e-10; step === null && ridge < 1e3; ridge *= 100) {
      step = solveSpd(
        h.map((line, j) => line.map((value, k) => (j === k ? value + ridge : value))),
        g,
      );
    }
    if (step === null) return { weights, converged: false };
    let scale = 1;
    let next = weights.map((w, j) => w + (step[j] ?? 0));
    let nextObjective = penalisedLogLikelihood(rows, y, next, options.l2, mask);
    while (nextObjective < objective - 1e-12 && scale > 1e-6) {
      scale /= 2;
      next = weights.map((w, j) => w + scale * (step[j] ?? 0));
      nextObjective = penalisedLogLikelihood(rows, y, next, options.l2, mask);
    }
    // No step along Newton's direction improves: the objective is at its maximum to rounding.
    if (nextObjective < objective) return { weights, converged: true };
    const moved = Math.max(0, ...step.map((value) => Math.abs(value * scale)));
    weights = next;
    objective = nextObjective;
    if (moved < TOLERANCE) return { weights, converged: true };
  }
  return { weights, converged: false };
}
