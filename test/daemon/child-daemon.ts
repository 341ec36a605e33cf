/**
 * `lendbot run` as a child process (so a test can SIGKILL it), and reading its SQLite file the
 * way an operator would while it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { BIN } from '../cli/run-cli.js';

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
