/**
 * Backtest replay against its I/O floor, side by side in one run (figures printed, never asserted):
 *   node --expose-gc --import tsx bench/replay.ts [requests] [rounds] [--compiled] [--dist DIR]...
 *
 * floor:   readline + JSON.parse of every line of the recording file, nothing else;
 * lendbot: what `lendbot backtest --data FILE` does before its report: read, validate and
 *          prepare the recording, then replay it once with strategies/balanced.yaml as shipped.
 * Each round runs both, alternately; the medians and their ratio are printed, in wall time and in
 * CPU time (this process's user + system time, GC threads included): on a machine shared with
 * other work the wall times stretch with the load, the CPU times much less.
 *
 * --compiled also runs lendbot as compiled to dist/ (what users and the image run; `npm run build`
 * first: a dist/ older than the sources is named stale in the output), in the same rounds, and
 * prints both. --dist DIR takes the compiled tree from DIR instead (a build of its own, e.g.
 * `npx tsc -p tsconfig.build.json --outDir /tmp/dist`); give --dist more than once to compare
 * builds (before and after a change) in the same rounds.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import * as backtestSources from '../src/backtest/index.js';
import * as engineSources from '../src/engine/index.js';
import { median, syntheticLines, writeLines } from './synthetic-recording.js';

const args = process.argv.slice(2);
/** Every `--dist DIR` given (several compare builds, e.g. before and after a change, in the same rounds). */
const distDirs = args.flatMap((arg, index) => (arg === '--dist' && args[index + 1] !== undefined ? [args[index + 1] as string] : []));
const compiled = args.includes('--compiled') || distDirs.length > 0;
const positional = args.filter((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--dist');
const count = Number(positional[0] ?? 100_000);
const rounds = Number(positional[1] ?? 3);

/** Whether dist/ was built from the sources as they are (bin/source-stamp.js): fresh, stale or missing. */
async function distState(): Promise<string> {
  const stamp = (await import(new URL('../bin/source-stamp.js', import.meta.url).href)) as { distState(): string };
  return stamp.distState();
}

/**
 * The backtest's entry points and the strategy loader, both of one build (the sources through tsx,
 * or compiled JavaScript): a strategy compiled by one build's engine and replayed by another's
 * would measure a mix of the two.
 */
type Backtest = Pick<typeof backtestSources, 'loadRecording' | 'runBacktest'> & Pick<typeof engineSources, 'loadStrategyFile'>;
const builds: Array<{ name: string; backtest: Backtest }> = [{ name: 'sources (tsx)', backtest: { ...backtestSources, loadStrategyFile: engineSources.loadStrategyFile } }];

/** A compiled tree's backtest and strategy loader. */
async function compiledBuild(dir: string): Promise<Backtest> {
  const backtest = (await import(pathToFileURL(join(dir, 'backtest', 'index.js')).href)) as Backtest;
  const engine = (await import(pathToFileURL(join(dir, 'engine', 'index.js')).href)) as Pick<typeof engineSources, 'loadStrategyFile'>;
  return { loadRecording: backtest.loadRecording, runBacktest: backtest.runBacktest, loadStrategyFile: engine.loadStrategyFile };
}
if (compiled && distDirs.length === 0) {
  const dir = new URL('../dist', import.meta.url).pathname;
  builds.push({ name: `compiled (${dir}, ${await distState()})`, backtest: await compiledBuild(dir) });
}
for (const dir of distDirs) {
  builds.push({ name: `compiled (${dir}, built by hand)`, backtest: await compiledBuild(dir) });
}
const dir = await mkdtemp(join(tmpdir(), 'lendbot-replay-'));
const file = join(dir, 'rec.jsonl');
await writeLines(file, syntheticLines(count));
const strategyFile = new URL('../strategies/balanced.yaml', import.meta.url).pathname;
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

async function lendbot({ loadRecording, runBacktest, loadStrategyFile }: Backtest): Promise<{ total: number; load: number; cpu: number; offers: number }> {
  // Loaded afresh each round, as `lendbot backtest` loads it once per run: nothing a previous
  // round computed (features, prices) is remembered. Outside the timing (a few milliseconds).
  const strategy = await loadStrategyFile(strategyFile);
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

interface Runs {
  totals: number[];
  loads: number[];
  cpus: number[];
  offers: number;
}
const floors: number[] = [];
const floorCpus: number[] = [];
const runs: Runs[] = builds.map(() => ({ totals: [], loads: [], cpus: [], offers: 0 }));
/**
 * With `node --expose-gc`, a full collection before each measured run, so no run pays for the
 * garbage of the one before it (a replay leaves a recording of about 100 MB behind).
 */
const collect = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);
for (let round = 0; round < rounds; round += 1) {
  collect();
  const base = await floor();
  floors.push(base.wall);
  floorCpus.push(base.cpu);
  for (const [index, build] of builds.entries()) {
    collect();
    const run = await lendbot(build.backtest);
    const into = runs[index] as Runs;
    into.totals.push(run.total);
    into.loads.push(run.load);
    into.cpus.push(run.cpu);
    into.offers = run.offers;
  }
}
const f = median(floors);
const fc = median(floorCpus);
const rate = (seconds: number): string => `${Math.round(count / seconds).toLocaleString('en-US')} requests/s`;
console.log(`replay of ${count} requests, medians of ${rounds} rounds (one core each):`);
console.log(`  baseline (readline + JSON.parse): ${f.toFixed(3)} s = ${rate(f)}; CPU ${fc.toFixed(3)} s`);
for (const [index, build] of builds.entries()) {
  const { totals, loads, cpus, offers } = runs[index] as Runs;
  const l = median(totals);
  const ld = median(loads);
  const lc = median(cpus);
  console.log(`  lendbot, ${build.name} (load + validate + prepare + replay, balanced.yaml, ${offers} offers):`);
  console.log(`    ${l.toFixed(3)} s = ${rate(l)} (load ${ld.toFixed(3)} s, replay ${(l - ld).toFixed(3)} s); ratio lendbot/baseline throughput ${(f / l).toFixed(2)}`);
  console.log(`    CPU time ${lc.toFixed(3)} s = ${rate(lc)} per CPU second; ratio ${(fc / lc).toFixed(2)}`);
}
await rm(dir, { recursive: true, force: true });
