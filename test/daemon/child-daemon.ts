/**
 * `lendbot run` as a child process (so a test can SIGKILL it), and reading its SQLite file the
 * way an operator would while it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { BIN, cleanEnv } from '../cli/run-cli.js';

export interface ChildDaemon {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `lendbot run --config FILE`; every child started is kept in `children` for cleanup. */
export function startChildDaemon(configFile: string, env: Record<string, string>, children: ChildProcess[]): ChildDaemon {
  const child = spawn(process.execPath, [BIN, 'run', '--config', configFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/** Runs a read-only query on the daemon's database; [] before the file or its tables exist. */
export function queryDatabase<T>(file: string, sql: string, ...params: unknown[]): T[] {
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } catch (error) {
    if (error instanceof Error && /no such table/.test(error.message)) return [];
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Writes a config for a child daemon on `port` with `db`: one strategy, jobs off (the poll runs
 * at start unless `pollAtStart` is false, and on `pollSchedule` when given), no risk caps (these
 * tests are about crashes).
 */
export function writeChildConfig(
  file: string,
  options: { db: string; port: number; strategy: string; pollSchedule?: string; pollAtStart?: boolean },
): void {
  writeFileSync(
    file,
    [
      `db: ${options.db}`,
      'strategies:',
      `  - ${options.strategy}`,
      'webhook:',
      '  host: 127.0.0.1',
      `  port: ${options.port}`,
      // A port of its own: 8081 may be taken by a parallel test, which now stops start-up.
      'ops:',
      '  port: 0',
      'poll:',
      `  schedule: ${options.pollSchedule === undefined ? 'off' : JSON.stringify(options.pollSchedule)}`,
      `  at_start: ${options.pollAtStart ?? true}`,
      'jobs:',
      '  balance_refresh: off',
      '  reconcile: off',
      '  fund_accepted: off',
      '  protections: off',
      'risk:',
      '  max_open_exposure: null',
      '  max_per_borrower: null',
      '  max_amount_per_day: null',
      '',
    ].join('\n'),
  );
}

/** The environment of a child daemon trading on `sandbox` as if it were the real marketplace. */
export function childEnv(sandbox: SandboxHandle): Record<string, string> {
  return {
    ...cleanEnv(),
    LENDBOT_BASE_URL: sandbox.url,
    LENDBOT_API_KEY: sandbox.credentials.apiKey,
    LENDBOT_SECRET_KEY: sandbox.credentials.secretKey,
    LENDBOT_WEBHOOK_SECRET: sandbox.credentials.webhookSecret,
    LENDBOT_READ_RETRIES: '0',
  };
}
