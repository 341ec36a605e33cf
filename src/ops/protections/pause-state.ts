/**
 * A pause of new offers as the state table keeps it (`state.protection_pause`, JSON). It lives in
 * the database so a restart keeps it and `lendbot resume`, another process, can lift it.
 */
import { isoFromMs, type Store } from '../../store/index.js';

/** `operator`: paused by hand (the agent connector's pause_offers); it lifts only at resume. */
export type PauseKind = 'account_refusal' | 'default_spike' | 'drawdown' | 'calibration' | 'operator';

export interface Pause {
  kind: PauseKind;
  /** One line with the figures, and how it ends. */
  reason: string;
  sinceMs: number;
  /** When it lifts itself; null: only at resume. */
  untilMs: number | null;
}

export const PAUSE_KEY = 'protection_pause';

type StateReader = Pick<Store['state'], 'get'>;

/** The pause written in the state table, whether or not its time is over. */
export function readPause(state: StateReader): Pause | undefined {
  return readStateJson<Pause>(state, PAUSE_KEY);
}

/** The stored pause if it still holds at `nowMs` (for reports: reading never lifts or notifies). */
export function storedPause(state: StateReader, nowMs: number): Pause | undefined {
  const pause = readPause(state);
  return pause !== undefined && (pause.untilMs === null || nowMs < pause.untilMs) ? pause : undefined;
}

/** A pause as the status, the operator API and the agent connector show it (ISO times). */
export function pauseJson(pause: Pause): { kind: PauseKind; reason: string; since: string; until: string | null } {
  return {
    kind: pause.kind,
    reason: pause.reason,
    since: isoFromMs(pause.sinceMs),
    until: pause.untilMs === null ? null : isoFromMs(pause.untilMs),
  };
}

/** A JSON value kept under `key`; the text `null` (what a lift writes) reads as none. */
export function readStateJson<T>(state: StateReader, key: string): T | undefined {
  const text = state.get(key);
  if (text === undefined || text === '' || text === 'null') return undefined;
  return JSON.parse(text) as T;
}
