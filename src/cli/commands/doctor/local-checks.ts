/**
 * The checks of `lendbot doctor` on this machine: the database file (writable, owner-only), each
 * strategy file with its model, and the operator listener's port. Nothing is created or changed:
 * the database is opened read-only, as every command that only reads opens it.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { loadStrategyFile } from '../../../engine/index.js';
import { reachableHost } from '../../../operator/operator-listener.js';
import { AppError } from '../../../domain/index.js';
import { databaseFileProblem, LATEST_VERSION, openStoreReadOnly, StoreNeedsUpgradeError } from '../../../store/index.js';
import { errorText, failed, passed, warned, type CheckOutcome } from './check-runner.js';

export function checkDatabase(path: string): CheckOutcome {
  if (path === ':memory:')
    return warned('the database is in memory: everything is lost at exit', 'set LENDBOT_DB (or db: in the config) to a file');
  const stats = statOrUndefined(path);
  if (stats === undefined) {
    const folder = nearestExisting(dirname(path));
    if (!writable(folder))
      return failed(
        `${path} does not exist and ${folder} is not writable`,
        `make ${folder} writable by this user, or point LENDBOT_DB elsewhere`,
      );
    return passed(`${path} does not exist yet; lendbot creates it owner-only (0600) in ${folder}`);
  }
  // The store's own rule (a folder, a device, a file that is not SQLite, for the file or its -wal and -shm), which `lendbot run` would refuse.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const problem = databaseFileProblem(file);
    if (problem !== undefined)
      return failed(
        `${file} is ${problem}, not a database file`,
        'point LENDBOT_DB (or --db) at a file: a new name lendbot creates, or a database lendbot made',
      );
  }
  const content = contentProblem(path, stats);
  if (content !== undefined) return content;
  if (!writable(path)) return failed(`${path} is not writable by this user`, `chown or chmod u+w ${path}, or run lendbot as its owner`);
  const mode = stats.mode & 0o777;
  const octal = `0${mode.toString(8)}`;
  if ((mode & 0o077) !== 0) {
    return warned(`${path} is open to other users (mode ${octal}); lendbot tightens it at start`, `chmod go-rwx ${path}`);
  }
  return passed(`${path} is writable, owner only (mode ${octal})`);
}

/** Whether the file is lendbot's database at this build's version (an empty file is one lendbot run fills). */
function contentProblem(path: string, stats: Stats): CheckOutcome | undefined {
  if (stats.size === 0)
    return warned(`${path} is an empty file; lendbot run makes it its database`, 'check LENDBOT_DB (or --db) names the file you mean');
  try {
    openStoreReadOnly(path).close();
    return undefined;
  } catch (error) {
    if (error instanceof StoreNeedsUpgradeError)
      return warned(
        `${path} is lendbot's database at schema version ${error.fileVersion}; lendbot run upgrades it to ${LATEST_VERSION} when it starts`,
        'back it up first if you may go back to the older lendbot',
      );
    if (error instanceof AppError) return failed(error.message, 'point LENDBOT_DB (or --db) at the database lendbot made');
    throw error;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function nearestExisting(folder: string): string {
  let current = folder;
  while (statOrUndefined(current) === undefined && dirname(current) !== current) current = dirname(current);
  return current;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Loads one strategy file (and its model), as the daemon does at start. */
export async function checkStrategy(file: string): Promise<CheckOutcome> {
  try {
    const strategy = await loadStrategyFile(file);
    return passed(`${file} loads: strategy ${strategy.name}`);
  } catch (error) {
    return failed(`${file}: ${errorText(error)}`, 'lendbot strategy check shows every problem with its line');
  }
}

/**
 * The operator listener's port: free (the daemon will bind it), or held. A running lendbot (its
 * dashboard answers there) is a warning, not a pass: `lendbot run` with this config refuses to
 * start beside it (issue 36, item 4), which is right only when that lendbot is this bot, already
 * running. Anything else holding it is a failure.
 */
export async function checkOperatorPort(host: string, port: number, timeoutMs: number): Promise<CheckOutcome> {
  const where = `${host}:${port}`;
  const problem = await bindProblem(host, port);
  if (problem === undefined) return passed(`${where} is free for the operator listener`);
  if (problem !== 'EADDRINUSE')
    return failed(
      `cannot listen on ${where}: ${problem}`,
      'set ops.host (LENDBOT_OPS_HOST) to an address of this machine, and LENDBOT_OPS_PORT',
    );
  if (await servedByLendbot(host, port, timeoutMs))
    return warned(
      `${where} is served by a running lendbot: lendbot run with this config cannot start beside it`,
      'if that is this bot, it is already running (lendbot status); else stop it, or set LENDBOT_OPS_PORT to a free port',
    );
  return failed(`${where} is taken by another program`, 'stop it, or set LENDBOT_OPS_PORT to a free port');
}

function bindProblem(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

async function servedByLendbot(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const shown = reachableHost(host);
  try {
    const response = await fetch(`http://${shown}:${port}/`, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    return (await response.text()).includes('<title>lendbot dashboard</title>');
  } catch {
    return false;
  }
}
