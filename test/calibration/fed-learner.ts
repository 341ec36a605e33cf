/**
 * A default-level learner as a daemon's payment sync or a replay leaves it: the example
 * strategies' prior (level_sd 1, slope_sd 0.3), fed forty funded loans' six months of instalments
 * (one in five defaulted), refitted each month.
 */
import { HOUR_MS } from '../../src/clock/time-constants.js';
import { CalibrationLearner } from '../../src/engine/market/index.js';

export function fedCalibrationLearner(): CalibrationLearner {
  const learner = new CalibrationLearner({ levelSd: 1, slopeSd: 0.3, levelMean: 0 });
  for (let i = 0; i < 40; i += 1) learner.funded(`L${i}`, 0.04 + (i % 8) * 0.02, 12);
  for (let month = 1; month <= 6; month += 1) {
    for (let i = 0; i < 40; i += 1) {
      if (i % 5 === 0 && month === 1 + (i % 6)) learner.defaulted(`L${i}`, month);
      else learner.paid(`L${i}`, month);
    }
    learner.refitIfDue(month * 31 * 24 * HOUR_MS);
  }
  return learner;
}
