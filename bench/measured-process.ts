/**
 * What the whole-command benches share (backtest-memory.ts, tune-command.ts): the sandbox exports
 * they measure on, made once and kept in the temp folder, and a command run in a process of its
 * own with its wall time, CPU (user + system of the process and its threads) and peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DAY_MS } from '../src/clock/time-constants.js';
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

/**
 * `copies` copies of the recording `file`, one after another in time, made once in the temp
 * folder: copy k has every time (ISO instants and dates) moved k spans of the file later and every
 * request and borrower id moved by k × 10,000,000, so no request or borrower repeats. A million
 * requests from the 200,000-request export in a few minutes, where exporting a million from the
 * sandbox takes hours on a busy machine.
 */
export async function repeatedRecording(file: string, copies: number): Promise<string> {
  const out = file.replace(/\.jsonl$/, `-x${copies}.jsonl`);
  if (existsSync(out)) return out;
  const first = (await firstAndLastSeen(file)) ?? { firstMs: 0, lastMs: 0 };
  // Whole days, so a moved date ("2026-01-01") stays the date of the moved instants.
  const spanMs = Math.ceil((first.lastMs - first.firstMs + 1) / DAY_MS) * DAY_MS;
  console.log(`making ${out} (${copies} copies of ${file}, each ${spanMs / DAY_MS} days later) ...`);
  const partial = `${out}.partial`;
  const writer = createWriteStream(partial);
  for (let k = 0; k < copies; k += 1) {
    const shiftMs = k * spanMs;
    const idShift = k * 10_000_000;
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (line === '') continue;
      const moved =
        k === 0
          ? line
          : line
              .replace(
                /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)"/g,
                (_, iso: string) => `"${new Date(Date.parse(iso) + shiftMs).toISOString()}"`,
              )
              .replace(/"(\d{4}-\d\d-\d\d)"/g, (_, day: string) => `"${new Date(Date.parse(day) + shiftMs).toISOString().slice(0, 10)}"`)
              .replace(
                /"(id|loan_request_id|fav_loan_request_id)":(\d+)/g,
                (_, key: string, id: string) => `"${key}":${Number(id) + idShift}`,
              )
              .replace(/"loan_request_id":"(\d+)"/g, (_, id: string) => `"loan_request_id":"${Number(id) + idShift}"`);
      if (!writer.write(`${moved}\n`)) await once(writer, 'drain');
    }
  }
  writer.end();
  await once(writer, 'finish');
  renameSync(partial, out);
  return out;
}

/** The first and last `seen_at` of a recording, in milliseconds. */
async function firstAndLastSeen(file: string): Promise<{ firstMs: number; lastMs: number } | undefined> {
  let firstMs = Number.POSITIVE_INFINITY;
  let lastMs = Number.NEGATIVE_INFINITY;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const seen = /"seen_at":"([^"]+)"/.exec(line);
    if (!seen) continue;
    const ms = Date.parse(seen[1] as string);
    if (ms < firstMs) firstMs = ms;
    if (ms > lastMs) lastMs = ms;
  }
  return Number.isFinite(firstMs) ? { firstMs, lastMs } : undefined;
}
