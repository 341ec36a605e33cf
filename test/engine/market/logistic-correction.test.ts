// The learned correction's arithmetic: the online Laplace update finds a correction it was not
// told (including a pd-dependent slope: better borrowers more rate-sensitive), the predictive
// follows it, and draws are reproducible.
import { describe, expect, it } from 'vitest';
import {
  correctionAt,
  drawFrom,
  predictive,
  priorPosterior,
  updated,
  type Posterior,
} from '../../../src/engine/market/logistic-correction.js';
import { logistic } from '../../../src/math/index.js';
import { seededNormals, seededRandom } from '../../../src/engine/market/seeded-normals.js';

describe('the logistic correction over the prior', () => {
  it('learns a correction where better borrowers are more rate-sensitive, and predicts acceptance within 0.02', () => {
    // The world: prior log-odds 2 − 4u; the truth adds θ* whose position slope is −2 + 8·pd,
    // so for good borrowers (pd small) acceptance falls faster with the rate than for poor ones.
    const truth = [-0.5, -2, 1, 8];
    const priorLogit = (u: number): number => 2 - 4 * u;
    const random = seededRandom(1);
    let posterior: Posterior = priorPosterior(2);
    for (let n = 0; n < 4000; n += 1) {
      const u = random();
      const pd = 0.3 * random();
      const x = [1, u, pd, u * pd];
      const p = logistic(priorLogit(u) + x.reduce((sum, value, i) => sum + value * (truth[i] ?? 0), 0));
      posterior = updated(posterior, { position: u, defaultProbability: pd, priorLogit: priorLogit(u) }, random() < p);
    }
    for (const [u, pd] of [
      [0.2, 0.02],
      [0.8, 0.02],
      [0.5, 0.15],
      [0.9, 0.28],
    ] as const) {
      const x = [1, u, pd, u * pd];
      const truthP = logistic(priorLogit(u) + x.reduce((sum, value, i) => sum + value * (truth[i] ?? 0), 0));
      const { mean, variance } = correctionAt(posterior, u, pd);
      expect(Math.abs(predictive(priorLogit(u), mean, variance) - truthP), `u ${u} pd ${pd}`).toBeLessThan(0.03);
    }
    // The covariance shrank from the prior's 4 on every term.
    expect(correctionAt(posterior, 0.5, 0.1).variance).toBeLessThan(0.05);
  });

  it('keeps the prior where nothing was observed, pulled towards one half by its uncertainty', () => {
    const prior = priorPosterior(1);
    const { mean, variance } = correctionAt(prior, 0.5, 0.1);
    expect(mean).toBe(0);
    expect(variance).toBeCloseTo(1 + 0.25 + 0.01 + 0.0025, 12);
    expect(predictive(-2, mean, variance)).toBeGreaterThan(logistic(-2));
    expect(predictive(-2, mean, 0)).toBe(logistic(-2));
  });

  it('draws the same θ for the same key, and a different one for another', () => {
    const posterior = priorPosterior(1);
    const a = drawFrom(posterior, seededNormals('17:3', 4));
    expect(drawFrom(posterior, seededNormals('17:3', 4))).toEqual(a);
    expect(drawFrom(posterior, seededNormals('17:4', 4))).not.toEqual(a);
    expect(a).toHaveLength(4);
  });
});
