// The learned default level (src/engine/market/calibration-learner.ts) on synthetic books: loans
// whose true default is the score's moved by a known level and slope, fed month by month as a
// replay or a daemon would (payments, then defaults where they happen).
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/clock/time-constants.js';
import { CalibrationLearner, fitCalibration, type CalibrationSettings } from '../../../src/engine/market/calibration-learner.js';
import { defaultShareBy, emptyTiming, addDefault, addExposure } from '../../../src/engine/market/default-timing.js';
import { logistic as sigmoid, logit } from '../../../src/math/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';

const SETTINGS: CalibrationSettings = { levelSd: 1.5, slopeSd: 0.5, levelMean: 0 };
const TERM = 12;
const MONTH_MS = 30 * DAY_MS;

interface Book {
  learner: CalibrationLearner;
  /** Mean true default of the book's loans, and the score's mean default. */
  trueMean: number;
  scoreMean: number;
}

/**
 * `loans` funded evenly over `fundingMonths`, each with pd_score uniform in [0.02, 0.30] and true
 * default σ(level + slope · logit(pd_score)), defaulting (when it does) at an instalment uniform
 * over the term; fed through month `months` after the first funding.
 */
function book(level: number, slope: number, loans: number, months: number, seed = 7, fundingMonths = 6): Book {
  const random = seededRandom(seed);
  const learner = new CalibrationLearner(SETTINGS);
  const all = Array.from({ length: loans }, (_, i) => {
    const pdScore = 0.02 + 0.28 * random();
    const p = sigmoid(level + slope * logit(pdScore));
    const defaultsAt = random() < p ? 1 + Math.floor(random() * TERM) : null;
    return { key: `L${i}`, pdScore, p, defaultsAt, fundedMonth: Math.floor((i * fundingMonths) / loans) };
  });
  for (let month = 0; month <= months; month += 1) {
    for (const loan of all) {
      const age = month - loan.fundedMonth;
      if (age === 0) learner.funded(loan.key, loan.pdScore, TERM);
      else if (age > 0 && age <= TERM) {
        if (loan.defaultsAt === age) learner.defaulted(loan.key, age);
        else if (loan.defaultsAt === null || age < loan.defaultsAt) learner.paid(loan.key, age);
      }
    }
    learner.refitIfDue(month * MONTH_MS);
  }
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { learner, trueMean: mean(all.map((loan) => loan.p)), scoreMean: mean(all.map((loan) => loan.pdScore)) };
}

/** The learner's mean predicted default over the score range the books draw from. */
function predictedMean(learner: CalibrationLearner): number {
  const [a = 0, b = 1] = learner.posterior.mean;
  let sum = 0;
  for (let i = 0; i < 100; i += 1) sum += sigmoid(a + b * logit(0.02 + 0.28 * ((i + 0.5) / 100)));
  return sum / 100;
}

describe('the calibration learner', () => {
  it.each([
    ['x0.4', Math.log(0.4)],
    ['x1', 0],
    ['x2', Math.log(2)],
  ])('recovers the default level of a world where default is %s the score', (_name, level) => {
    const { learner, trueMean, scoreMean } = book(level, 1, 3000, 24);
    expect(learner.evidence.loans).toBe(3000);
    // Within sampling noise of the truth (3,000 loans: about ±0.007 at 16 % default).
    expect(Math.abs(predictedMean(learner) - trueMean)).toBeLessThan(0.015);
    expect(Math.abs(predictedMean(learner) - trueMean)).toBeLessThan(Math.abs(scoreMean - trueMean) / 3 + 0.015);
    const [a = 0, b = 0] = learner.posterior.mean;
    expect(Math.abs(a - level)).toBeLessThan(0.35);
    expect(Math.abs(b - 1)).toBeLessThan(0.2);
  });

  it('recovers a slope other than 1', () => {
    const { learner } = book(0.3, 1.5, 4000, 24);
    const [, b = 0] = learner.posterior.mean;
    expect(b).toBeGreaterThan(1.25);
    expect(b).toBeLessThan(1.8);
  });

  it('moves on payments before any loan has run its term, and the survival evidence is what moves it', () => {
    // Four months in: no loan has completed; only the defaults so far and the months paid are known.
    const { learner, trueMean, scoreMean } = book(Math.log(0.4), 1, 2000, 4, 11, 1);
    const state = learner.snapshotState;
    expect(state.finished.every(([, , repaid]) => repaid === 0)).toBe(true);
    expect(state.evidence.defaults).toBeGreaterThan(0);
    const predicted = predictedMean(learner);
    // Towards the truth from the score's level already.
    expect(Math.abs(predicted - trueMean)).toBeLessThan(Math.abs(scoreMean - trueMean) / 2);
    // Without the running loans' survival the same evidence is defaults alone: the level runs up, past the score.
    const withoutSurvival = fitCalibration({ ...state, running: [] }, SETTINGS, [0, 1]);
    expect(withoutSurvival.mean[0] ?? 0).toBeGreaterThan(0.5);
  });

  it('is uncertain before evidence and sure after, and the same twice (deterministic)', () => {
    const cold = new CalibrationLearner(SETTINGS);
    expect(Math.sqrt(cold.posterior.cov[0] ?? 0)).toBeCloseTo(1.5, 6);
    const first = book(0, 1, 1500, 18);
    const second = book(0, 1, 1500, 18);
    expect(Math.sqrt(first.learner.posterior.cov[0] ?? 0)).toBeLessThan(0.4);
    expect(first.learner.snapshotState).toEqual(second.learner.snapshotState);
    expect(JSON.stringify(first.learner.posterior)).toBe(JSON.stringify(second.learner.posterior));
  });

  it('refits at most once a day, and only when evidence changed', () => {
    const learner = new CalibrationLearner(SETTINGS);
    learner.funded('a', 0.1, 12);
    expect(learner.refitIfDue(0)).toBe(false);
    learner.paid('a', 1);
    expect(learner.refitIfDue(DAY_MS)).toBe(true);
    learner.paid('a', 2);
    expect(learner.refitIfDue(DAY_MS + 1000)).toBe(false);
    expect(learner.refitIfDue(2 * DAY_MS)).toBe(true);
    expect(learner.version).toBe(2);
    expect(learner.evidence).toEqual({ loans: 1, defaults: 0, loanMonths: 2 });
  });

  it('resumes from its stored state as plain data', () => {
    const { learner } = book(Math.log(2), 1, 500, 8);
    const restored = new CalibrationLearner(SETTINGS, JSON.parse(JSON.stringify(learner.snapshotState)));
    expect(restored.posterior).toEqual(learner.posterior);
    restored.paid('L499', 9);
    learner.paid('L499', 9);
    restored.refitIfDue(100 * MONTH_MS);
    learner.refitIfDue(100 * MONTH_MS);
    expect(restored.snapshotState).toEqual(learner.snapshotState);
  });
});

describe('when defaults happen (default timing)', () => {
  it('is F(t) = t before any default, and learns early defaults from the time at risk', () => {
    const timing = emptyTiming();
    expect(defaultShareBy(timing)(0.25)).toBe(0.25);
    // 1,000 loans followed for the whole term; 60 defaults, all in the first quarter.
    addExposure(timing, 0, 1);
    for (let bin = 0; bin < 12; bin += 1) timing.exposure[bin] = 1000 / 12;
    for (let i = 0; i < 60; i += 1) addDefault(timing, 0.1 + (i % 3) * 0.05);
    const share = defaultShareBy(timing);
    expect(share(0.25)).toBeGreaterThan(0.5);
    expect(share(1)).toBeCloseTo(1, 9);
  });
});
