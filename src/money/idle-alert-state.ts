/**
 * The idle-cash alert's state as the state table keeps it. The alert's check (src/cash-flow/idle-cash-alert.ts)
 * writes it and the idle-cash view (idle-cash-report.ts) shows it; it sits apart because the
 * alert's message uses the view's reasons, so in either file the two would import each other.
 */
import type { Store } from '../store/index.js';

export const IDLE_ALERT_KEY = 'idle_cash_alert';

/** Since when the share has been above the threshold, and when the alert was told (null: not yet). */
export interface IdleAlertState {
  aboveSinceMs: number;
  alertedAtMs: number | null;
  /** The machine's time when the share went above, on a sped-up clock only. */
  aboveSinceWallMs?: number;
}

/** The alert's stored state (undefined while the share is not above the threshold). */
export function storedIdleAlert(state: Pick<Store['state'], 'get'>): IdleAlertState | undefined {
  const text = state.get(IDLE_ALERT_KEY);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<IdleAlertState> | null;
    if (value === null || typeof value.aboveSinceMs !== 'number') return undefined;
    const wall = typeof value.aboveSinceWallMs === 'number' ? { aboveSinceWallMs: value.aboveSinceWallMs } : {};
    return { aboveSinceMs: value.aboveSinceMs, alertedAtMs: typeof value.alertedAtMs === 'number' ? value.alertedAtMs : null, ...wall };
  } catch {
    return undefined;
  }
}
