/**
 * A database file that a failed start created. `lendbot run` opens its database before the
 * start-up read of the marketplace; when that read refuses the start (wrong keys, a wrong or dead
 * LENDBOT_BASE_URL), the new file holds nothing of value, yet its mere existence made `lendbot
 * status`, `decisions` and the backtest read it (an empty account: balance 0.00) instead of the
 * sandbox run's data/sandbox.db (src/cli/database-to-read.ts). So a file this start created is
 * removed again with the refusal; a file that was there before is never touched.
 */
import { existsSync, rmSync } from 'node:fs';

/** Call before the database is opened; the returned function removes it if this start created it. */
export function rememberDatabaseBeforeStart(path: string): { forgetIfCreated: () => void } {
  const created = path !== ':memory:' && !existsSync(path);
  return {
    forgetIfCreated: () => {
      if (!created) return;
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}
