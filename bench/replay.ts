/**
 * Backtest replay against its I/O floor, side by side in one run (figures printed, never asserted):
 *   node --import tsx bench/replay.ts [requests] [rounds]
 *
 * floor:   readline + JSON.parse of every line of the recording file, nothing else;
 * lendbot: what `lendbot backtest --data FILE` does before its report: read, validate and
 *          prepare the recording, then replay it once with strategies/balanced.yaml as shipped.
 * Each round runs both, alternately; the medians and their ratio are printed, in wall time and in
 * CPU time (this process's user + system time, GC threads included): on a machine shared with
 * other work the wall times stretch with the load, the CPU times much less.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { loadRecording, runBacktest } from '../src/backtest/index.js';
import { loadStrategyFile } from '../src/engine/index.js';
import { median, syntheticLines, writeLines } from './synthetic-recording.js';

const count = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 3);
const dir = await mkdtemp(join(tmpdir(), 'lendbot-replay-'));
const file = join(dir, 'rec.jsonl');
await writeLines(file, syntheticLines(count));
const strategy = await loadStrategyFile(new URL('../strategies/balanced.yaml', import.meta.url).pathname);
const options = { startingBalanceCents: 10_000_000 };

/** Seconds of this process's CPU time since `start`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

async function floor(): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let parsed = 0;
  for await (const text of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (text === '') continue;
    JSON.parse(text);
    parsed += 1;
  }
  if (parsed !== count) throw new Error(`floor read ${parsed} lines`);
  return { wall: (performance.now() - t0) / 1000, cpu: cpuSince(c0) };
}

async function lendbot(): Promise<{ total: number; load: number; cpu: number; offers: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const recording = await loadRecording(file, {}, (issue) => {
    throw new Error(`bad line ${issue.line}: ${issue.message}`);
  });
  const t1 = performance.now();
  const result = runBacktest(recording, [strategy], options);
  const t2 = performance.now();
  if (result.summary.requests !== count) throw new Error(`replayed ${result.summary.requests}`);
  return { total: (t2 - t0) / 1000, load: (t1 - t0) / 1000, cpu: cpuSince(c0), offers: result.summary.offers };
}

const floors: number[] = [];
const floorCpus: number[] = [];
const totals: number[] = [];
const loads: number[] = [];
const cpus: number[] = [];
let offers = 0;
for (let round = 0; round < rounds; round += 1) {
  const base = await floor();
  floors.push(base.wall);
  floorCpus.push(base.cpu);
  const run = await lendbot();
  totals.push(run.total);
  loads.push(run.load);
  cpus.push(run.cpu);
  offers = run.offers;
}
const f = median(floors);
const l = median(totals);
const ld = median(loads);
const fc = median(floorCpus);
const lc = median(cpus);
const rate = (seconds: number): string => `${Math.round(count / seconds).toLocaleString('en-US')} requests/s`;
console.log(`replay of ${count} requests, medians of ${rounds} rounds (one core each):`);
console.log(`  baseline (readline + JSON.parse): ${f.toFixed(3)} s = ${rate(f)}`);
console.log(`  lendbot  (load + validate + prepare + replay, balanced.yaml, ${offers} offers): ${l.toFixed(3)} s = ${rate(l)} (load ${ld.toFixed(3)} s, replay ${(l - ld).toFixed(3)} s)`);
console.log(`  ratio lendbot/baseline throughput: ${(f / l).toFixed(2)}`);
console.log(`  CPU time: baseline ${fc.toFixed(3)} s, lendbot ${lc.toFixed(3)} s = ${rate(lc)} per CPU second; ratio ${(fc / lc).toFixed(2)}`);
await rm(dir, { recursive: true, force: true });
