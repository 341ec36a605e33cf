/**
 * Which database a sandbox run writes. The embedded sandbox is a new market at every start, and
 * its loan request ids (1001, 1002, ...) would collide with an earlier run's, or with the real
 * marketplace's in a live database, where a sandbox decision would make the daemon skip a real
 * request as "already decided". So sandbox runs never share a file with anything:
 * - with the default path, the sandbox uses `sandbox.db` beside it, emptied at every start;
 * - with a path the user chose, it must be new or hold no decisions yet, or the run stops.
 * The default file is never emptied under a sandbox run that is still writing it (a second
 * `npm start` beside the first would otherwise leave the first one's status and dashboard empty,
 * then stop on the port the first one holds).
 */
import { existsSync, rmSync } from 'node:fs';
import type { Logger } from '../../../log/logger.js';
import { ConfigurationError } from '../../../domain/index.js';
import { statusClock } from '../../../ops/status-clock.js';
import { fileHoldsDecisions, openStoreReadOnly } from '../../../store/index.js';
import { sandboxDatabasePath } from './sandbox-database-path.js';

/** `wallNowMs`: this machine's time, to tell a sandbox run still writing the file from a stopped one. */
export function sandboxDatabase(configured: string, defaultPath: string, log: Logger, wallNowMs: number): string {
  if (configured === defaultPath) {
    const path = sandboxDatabasePath(defaultPath);
    if (stillWritten(path, wallNowMs)) {
      throw new ConfigurationError(
        `${path} belongs to a sandbox run that is still running (npm start in another terminal?): stop it first, or point LENDBOT_DB (or --db) at a new file`,
      );
    }
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    log.info({ db: path }, 'sandbox run: starting from an empty sandbox database');
    return path;
  }
  if (configured !== ':memory:' && existsSync(configured) && fileHoldsDecisions(configured)) {
    throw new ConfigurationError(
      `${configured} holds decisions from another run, but the sandbox market starts afresh each time and its request ids would collide; point LENDBOT_DB (or --db) at a new file, or drop --sandbox (and LENDBOT_SANDBOX) and set LENDBOT_BASE_URL to trade for real`,
    );
  }
  return configured;
}

/** Whether a sandbox run's clock in the file still moves; a file lendbot cannot read is no run's. */
function stillWritten(path: string, wallNowMs: number): boolean {
  if (!existsSync(path)) return false;
  let store;
  try {
    store = openStoreReadOnly(path);
  } catch {
    return false;
  }
  try {
    return statusClock(store.state, wallNowMs).clock.running === true;
  } finally {
    store.close();
  }
}
