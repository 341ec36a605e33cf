/**
 * Where a sandbox run with the default database path writes (sandbox-database.ts says why). A file
 * of its own, without the store, for the commands that only look for that file (backtest).
 */
import { dirname, join } from 'node:path';

/** The file a sandbox run writes when the configured database is the default one. */
export function sandboxDatabasePath(defaultPath: string): string {
  return join(dirname(defaultPath), 'sandbox.db');
}
