/**
 * What the whole-command benches share (backtest-memory.ts, tune-command.ts): the sandbox exports
 * they measure on, made once and kept in the temp folder, and a command run in a process of its
 * own with its wall time, CPU (user + system of the process and its threads) and peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenCpuMs } from './bench-timing.js';

/** The sandbox export of `requests` requests, made once and kept in the temp folder (shared with bench/backtest-command.ts). */
export function recordingFile(root: string, requests: number): string {
  const dir = join(tmpdir(), 'lendbot-bench-recordings');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `sandbox-${requests}.jsonl`);
  if (existsSync(file)) return file;
  const partial = `${file}.partial`;
  console.log(`making ${file} ...`);
  const made = spawnSync(process.execPath, ['bin/lendbot.js', 'sandbox', 'export', '--out', partial, '--requests', String(requests)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (made.status !== 0) throw new Error(`lendbot sandbox export exited ${made.status}`);
  renameSync(partial, file);
  return file;
}

/** Preloaded into each measured process: its own peak RSS (kB), written to stderr as it exits. */
const PEAK_HOOK = `data:text/javascript,process.on('exit', () => process.stderr.write('\\npeak-rss-kb ' + process.resourceUsage().maxRSS + '\\n'));`;

export interface Run {
  cpuMs: number;
  wallMs: number;
  peakMb: number;
  stdout: string;
}

/** Runs node with `args` in `cwd`; throws with the end of its stderr when it fails. */
export function measured(label: string, args: readonly string[], cwd: string): Run {
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--import', PEAK_HOOK, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${label} exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const peak = /peak-rss-kb (\d+)\s*$/.exec(run.stderr);
  if (!peak) throw new Error(`${label}: no peak RSS reported`);
  return { cpuMs: childrenCpuMs() - cpuBefore, wallMs, peakMb: Number(peak[1]) / 1024, stdout: run.stdout };
}
