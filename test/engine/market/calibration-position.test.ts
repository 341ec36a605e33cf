// The learned level's position term (src/engine/market/calibration-position.ts): the learner told
// which price each loan was won at predicts the loans a cheaper price wins, not the dear ones' level.
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/clock/time-constants.js';
import { CalibrationLearner, type CalibrationSettings } from '../../../src/engine/market/calibration-learner.js';
import { positionCurveOf, type LevelEvidence } from '../../../src/engine/compile/learned-calibration.js';
import { economicsAt } from '../../../src/engine/pricing/won-economics.js';
import { logistic as sigmoid, logit, type LoanEconomics } from '../../../src/math/index.js';
import { seededRandom } from '../../../src/engine/market/seeded-normals.js';

const BASE: CalibrationSettings = { levelSd: 1, slopeSd: 0.3, levelMean: 0 };
const TERM = 12;

/**
 * 800 loans of one score band (pd 0.15): half won dear (u 0.85) defaulting at 40 %, half won cheap
 * (u 0.25) defaulting at 10 %, every one run to its fate.
 */
function taught(settings: CalibrationSettings): CalibrationLearner {
  const random = seededRandom(3);
  const learner = new CalibrationLearner(settings);
  for (let i = 0; i < 800; i += 1) {
    const dear = i % 2 === 0;
    const key = `L${i}`;
    learner.funded(key, 0.15, TERM, dear ? 0.85 : 0.25);
    if (random() < (dear ? 0.4 : 0.1)) learner.defaulted(key, 1 + Math.floor(random() * TERM));
    else learner.paid(key, TERM);
  }
  learner.refitIfDue(DAY_MS);
  return learner;
}

function evidenceOf(learner: CalibrationLearner): LevelEvidence {
  const [a = 0, b = 1] = learner.posterior.mean;
  const position = learner.position;
  return {
    used: { version: learner.version, ...learner.evidence, scoreDefault: 0.15 },
    mean: a + b * logit(0.15),
    sd: 0,
    ...(position === undefined ? {} : { position }),
  };
}

/** P(default | won at `rate`) as pricing values it (max rate 0.33: u = rate − 0.03 over 0.30). */
function defaultAt(learner: CalibrationLearner, rate: number): number {
  const level = evidenceOf(learner);
  const economics = { probability: 1 - sigmoid(level.mean) } as LoanEconomics;
  return 1 - economicsAt(economics, rate, 0.33, positionCurveOf(level)).probability;
}

describe('the learned level with a position term', () => {
  it("prices a cheap offer's default below a dear one's when dear-won loans defaulted and cheap-won ones repaid", () => {
    const learner = taught({ ...BASE, positionSd: 1 });
    const term = learner.position;
    expect(term?.mean ?? 0).toBeGreaterThan(0.5);
    // Final fates are counted in bands of u 0.1 wide: 0.85 and 0.25 count at 0.9 and 0.3.
    expect(term?.centre ?? 0).toBeCloseTo(0.6, 6);
    const cheap = defaultAt(learner, 0.03 + 0.25 * 0.3);
    const dear = defaultAt(learner, 0.03 + 0.85 * 0.3);
    expect(dear - cheap).toBeGreaterThan(0.1);
    expect(cheap).toBeLessThan(0.2);
  });

  it('without it (position_sd absent) every price carries the one level, as before', () => {
    const learner = taught(BASE);
    expect(learner.position).toBeUndefined();
    expect(learner.snapshotState.running.every((loan) => loan.u === undefined)).toBe(true);
    expect(defaultAt(learner, 0.03 + 0.25 * 0.3)).toBe(defaultAt(learner, 0.03 + 0.85 * 0.3));
  });

  it('keeps final fates as counts per band of score and price (bounded state) and resumes from them', () => {
    const learner = taught({ ...BASE, positionSd: 1 });
    const state = learner.snapshotState;
    expect(state.running).toHaveLength(0);
    expect(state.finished).toHaveLength(2);
    const restored = new CalibrationLearner({ ...BASE, positionSd: 1 }, JSON.parse(JSON.stringify(state)));
    restored.funded('extra', 0.15, TERM, 0.5);
    restored.paid('extra', TERM);
    restored.refitIfDue(3 * DAY_MS);
    expect(restored.snapshotState.finished).toHaveLength(3);
  });
});
