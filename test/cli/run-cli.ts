/** Runs the real `lendbot` command as a child process and collects what it printed. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/lendbot.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    // Start from a clean environment so a developer's own LENDBOT_* settings never leak in.
    const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('LENDBOT_')));
    execFile(process.execPath, [BIN, ...args], { env: { ...baseEnv, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
