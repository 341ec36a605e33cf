/**
 * The database a reading command (`status`, `decisions`, `resume`) opens: `--db`, else the
 * configured one (LENDBOT_DB, then the config's `db`, then data/lendbot.db). `npm start` runs
 * `lendbot run --sandbox`, which never writes the default file but `sandbox.db` beside it
 * (commands/run/sandbox-database.ts); so when the default file is absent and that one exists,
 * the sandbox run's database is read, and stderr says so in one line.
 */
import { existsSync } from 'node:fs';
import { daemonConfigSchema } from '../daemon/daemon-config.js';
import type { CliIo } from './cli-io.js';
import { sandboxDatabasePath } from './commands/run/sandbox-database-path.js';
import { UserError } from './user-error.js';

/** Where the daemon keeps its database unless LENDBOT_DB or the config says otherwise. */
export function defaultDatabase(): string {
  return daemonConfigSchema.parse({}).db;
}

/** `flag` is --db as given; `configured` the config's `db` after the environment (LENDBOT_DB). */
export function databaseToRead(flag: string | undefined, configured: string, io: CliIo): string {
  const path = flag ?? configured;
  // Reading must never create an empty database where the user mistyped a path.
  if (path === ':memory:' || existsSync(path)) return path;
  const defaultPath = defaultDatabase();
  if (flag === undefined && configured === defaultPath) {
    const sandbox = sandboxDatabasePath(defaultPath);
    if (existsSync(sandbox)) {
      io.stderr.write(`note: no database at ${path}; reading ${sandbox}, the sandbox run's (npm start); pass --db to choose\n`);
      return sandbox;
    }
  }
  throw new UserError(`no database at ${path} (set --db or LENDBOT_DB)`);
}
