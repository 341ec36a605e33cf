/**
 * Running `lendbot` in tests. `runCli` drives the real program (buildProgram, the command table,
 * the error boundary) inside the test process, with its own stdout, stderr and environment: a
 * spawn through tsx costs 1 to 7 s, this costs milliseconds. `spawnCli` runs the real binary as a
 * child process, for the few tests about exit codes, signals and start-up.
 */
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import type { CliIo } from '../../src/cli/cli-io.js';
import { reportError } from '../../src/cli/error-boundary.js';
import { buildProgram } from '../../src/cli/program.js';

export const BIN = fileURLToPath(new URL('../../bin/lendbot.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** This process's environment without LENDBOT_*: a developer's own settings never leak into a test. */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => !entry[0].startsWith('LENDBOT_') && entry[1] !== undefined),
  );
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Runs `lendbot ARGS` in this process, as bin/lendbot.js would (src/cli/main.ts), and collects its output. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const out = collector();
  const err = collector();
  const io: CliIo = { stdout: out.stream, stderr: err.stream, env: { ...cleanEnv(), ...env } };
  let code = 0;
  try {
    await buildProgram(io).parseAsync(['node', 'lendbot', ...args]);
  } catch (error) {
    if (error instanceof CommanderError) {
      code = error.exitCode;
    } else {
      const report = reportError(error);
      err.stream.write(`${report.text}\n`);
      code = report.exitCode;
    }
  }
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Runs the real `lendbot` binary as a child process. */
export function spawnCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...cleanEnv(), ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
