/**
 * Which database a sandbox run writes. The embedded sandbox is a new market at every start, and
 * its loan request ids (1001, 1002, ...) would collide with an earlier run's, or with the real
 * marketplace's in a live database, where a sandbox decision would make the daemon skip a real
 * request as "already decided". So sandbox runs never share a file with anything:
 * - with the default path, the sandbox uses `sandbox.db` beside it, emptied at every start;
 * - with a path the user chose, it must be new or hold no decisions yet, or the run stops.
 */
import { existsSync, rmSync } from 'node:fs';
import type { Logger } from '../../../log/logger.js';
import { ConfigurationError } from '../../../domain/index.js';
import { fileHoldsDecisions } from '../../../store/index.js';
import { sandboxDatabasePath } from './sandbox-database-path.js';

export function sandboxDatabase(configured: string, defaultPath: string, log: Logger): string {
  if (configured === defaultPath) {
    const path = sandboxDatabasePath(defaultPath);
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
