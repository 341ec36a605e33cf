/**
 * The calibration protection: realised default of the lender's recent loans runs above what the
 * strategies predicted for them, beyond noise (src/ops/calibration.ts: the low end of the 95 %
 * interval of realised default above the mean prediction, on at least `min_loans` loans of the
 * last `window_months` vintages). It is an alert, kept in the state table like the silent-webhooks
 * one and notified when it begins; with `pause: true` it also pauses new offers (protections.ts).
 *
 * A pause is taken on NEW evidence only, as the book protections do: the number of bad loans at the
 * last pause is remembered, so a resume is not undone by the next minute's check unless another
 * loan went bad.
 */
import type { ProtectionSettings } from '../../risk/index.js';
import type { Store } from '../../store/index.js';
import { calibrationFigures, calibrationSummary, defaultAbovePrediction, type VintageCalibration } from '../calibration.js';
import { readStateJson } from './pause-state.js';

export interface CalibrationDrift {
  sinceMs: number;
  /** The pooled figures when the alert began, in words. */
  figures: string;
}

const CALIBRATION_DRIFT_KEY = 'calibration_drift';
/** Bad loans (in default, collection or with a missed payment) of the window at the last calibration pause. */
export const CALIBRATION_PAUSED_BAD_KEY = 'calibration_paused_bad';

export type CalibrationChange =
  | { kind: 'began'; drift: CalibrationDrift; pooled: VintageCalibration }
  | { kind: 'ended' }
  | { kind: 'holds'; drift: CalibrationDrift; pooled: VintageCalibration }
  | undefined;

/** The calibration alert stored now, if any. */
export function storedCalibrationDrift(state: Pick<Store['state'], 'get'>): CalibrationDrift | undefined {
  return readStateJson<CalibrationDrift>(state, CALIBRATION_DRIFT_KEY);
}

/** Updates the stored alert at `nowMs` from the store's loans and says how it stands. */
export function updateCalibrationDrift(
  store: Pick<Store, 'state' | 'calibration'>,
  settings: ProtectionSettings['calibration'],
  nowMs: number,
): CalibrationChange {
  const current = storedCalibrationDrift(store.state);
  // Off, the loans are not read at all.
  const summary = settings.enabled ? calibrationSummary(store, nowMs, settings.window_months) : undefined;
  if (summary === undefined || !defaultAbovePrediction(summary.pooled, settings.min_loans)) {
    if (current === undefined) return undefined;
    store.state.set(CALIBRATION_DRIFT_KEY, 'null', nowMs);
    return { kind: 'ended' };
  }
  const { pooled, since } = summary;
  if (current !== undefined) return { kind: 'holds', drift: current, pooled };
  const drift: CalibrationDrift = { sinceMs: nowMs, figures: `loans since ${since}: ${calibrationFigures(pooled)}` };
  store.state.set(CALIBRATION_DRIFT_KEY, JSON.stringify(drift), nowMs);
  return { kind: 'began', drift, pooled };
}

/** Whether the drift rests on more bad loans than the last calibration pause did (a pause wants new evidence). */
export function newBadLoans(state: Pick<Store['state'], 'get'>, pooled: VintageCalibration): boolean {
  const pausedAt = readStateJson<number>(state, CALIBRATION_PAUSED_BAD_KEY) ?? -1;
  return pooled.defaulted + pooled.delinquent > pausedAt;
}
