/**
 * Whether a database holds a dry run or live offers (docs/daemon.md, "Dry-run databases"). The
 * daemon records it when it opens the file and refuses to mix the two; every view (status, the
 * dashboard, the API, the agent connector, /metrics) reads the paper offers or the live ones
 * from it, so no view needs the config or environment to say "dry run" again.
 */
import type { Database } from 'better-sqlite3';
import { AppError } from '../domain/index.js';
import { isoFromMs } from './sql-values.js';

export type StoreMode = 'live' | 'dry_run';

interface StoreModeRow {
  mode: StoreMode;
  /** When the daemon set it (its clock); null when inferred from the rows at migration. */
  setAt: string | null;
  how: 'daemon' | 'switched' | 'inferred';
}

export interface StoreModeRepository {
  /** The recorded mode; undefined until a daemon opened the file (or its rows said, at migration). */
  get(): StoreModeRow | undefined;
  set(mode: StoreMode, atMs: number, how: 'daemon' | 'switched'): void;
}

export function createStoreModeRepository(db: Database): StoreModeRepository {
  const read = db.prepare<[], { mode: StoreMode; set_at: string | null; how: StoreModeRow['how'] }>(
    'SELECT mode, set_at, how FROM store_mode WHERE id = 1',
  );
  const write = db.prepare(
    `INSERT INTO store_mode (id, mode, set_at, how) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, set_at = excluded.set_at, how = excluded.how`,
  );
  return {
    get() {
      const row = read.get();
      return row === undefined ? undefined : { mode: row.mode, setAt: row.set_at, how: row.how };
    },
    set(mode, atMs, how) {
      write.run(mode, isoFromMs(atMs), how);
    },
  };
}

/** A daemon asked to run live on a dry-run database, or the reverse, without --switch-db-mode. */
export class StoreModeError extends AppError {
  override readonly name = 'StoreModeError';
  readonly code = 'STORE_MODE_MISMATCH';

  constructor(path: string, recorded: StoreMode) {
    super(
      recorded === 'dry_run'
        ? `database ${path} holds a dry run: add --dry-run (or LENDBOT_DRY_RUN=true) to go on with it, point --db (LENDBOT_DB) at another file for live offers, or add --switch-db-mode to make this one live`
        : `database ${path} holds live offers: point --db (LENDBOT_DB) at another file for a dry run, drop --dry-run (and LENDBOT_DRY_RUN) to go on live, or add --switch-db-mode to make this one a dry run`,
    );
  }
}

/**
 * The daemon's claim on the file as it opens it: records the mode of a new database, keeps an
 * equal one, and refuses the other unless `switchMode` (then the file changes mode from now on;
 * its earlier offers stay as they were written, each marked dry run or not).
 */
export function claimStoreMode(
  modes: StoreModeRepository,
  input: { dryRun: boolean; switchMode: boolean; path: string; nowMs: number },
): StoreMode {
  const wanted: StoreMode = input.dryRun ? 'dry_run' : 'live';
  const recorded = modes.get();
  if (recorded === undefined) modes.set(wanted, input.nowMs, 'daemon');
  else if (recorded.mode !== wanted) {
    if (!input.switchMode) throw new StoreModeError(input.path, recorded.mode);
    modes.set(wanted, input.nowMs, 'switched');
  }
  return wanted;
}

/** Whether a view reads the dry run's offers: the database's mode, else (none recorded yet) `fallback`, the config's. */
export function storeIsDryRun(modes: StoreModeRepository, fallback: boolean): boolean {
  const recorded = modes.get();
  return recorded === undefined ? fallback : recorded.mode === 'dry_run';
}
