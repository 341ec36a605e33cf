/**
 * Backtest replay against its I/O floor, side by side in one run (figures printed, never asserted):
 *   node --expose-gc --import tsx bench/replay.ts [requests] [rounds] [--compiled] [--dist DIR]...
 *
 * floor:   readline + JSON.parse of every line of the recording file, nothing else;
 * lendbot: what `lendbot backtest --data FILE` does before its report: read, validate and
 *          prepare the recording, then replay it once with strategies/balanced.yaml as shipped.
 * Each build (the sources through tsx, and any compiled tree) runs in a process of its own, where
 * each round runs the floor and lendbot, alternately; the medians and their ratio are printed, in
 * wall time and in CPU time (the process's user + system time, GC threads included): on a
 * machine shared with other work the wall times stretch with the load, the CPU times much less.
 * A process per build, because two builds in one process slowed each other: the second build's
 * replay measured about a third slower than the same build alone (the ratio 0.45 in one process,
 * 0.53 alone), whichever came second.
 *
 * --compiled also runs lendbot as compiled to dist/ (what users and the image run; `npm run build`
 * first: a dist/ older than the sources is named stale in the output). --dist DIR takes the
 * compiled tree from DIR instead (a build of its own, e.g. `npx tsc -p tsconfig.build.json
 * --outDir /tmp/dist` with node_modules beside it); give --dist more than once to compare builds
 * (before and after a change).
 */
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as backtestSources from '../src/backtest/index.js';
import type * as engineSources from '../src/engine/index.js';
import { median, syntheticLines, writeLines } from './synthetic-recording.js';

const args = process.argv.slice(2);
/** Every `--dist DIR` given (several compare builds, e.g. before and after a change). */
const distDirs = args.flatMap((arg, index) => (arg === '--dist' && args[index + 1] !== undefined ? [args[index + 1] as string] : []));
const positional = args.filter((arg, index) => !arg.startsWith('--') && !['--dist', '--child', '--file'].includes(args[index - 1] ?? ''));
const count = Number(positional[0] ?? 100_000);
const rounds = Number(positional[1] ?? 3);
const strategyFile = fileURLToPath(new URL('../strategies/balanced.yaml', import.meta.url));
const options = { startingBalanceCents: 10_000_000 };

/** The figures one build's process reports: every round's, in seconds. */
interface BuildRuns {
  floors: number[];
  floorCpus: number[];
  totals: number[];
  loads: number[];
  cpus: number[];
  offers: number;
}

/**
 * The backtest's entry points and the strategy loader, both of one build (the sources through tsx,
 * or compiled JavaScript): a strategy compiled by one build's engine and replayed by another's
 * would measure a mix of the two.
 */
type Backtest = Pick<typeof backtestSources, 'loadRecording' | 'runBacktest'> & Pick<typeof engineSources, 'loadStrategyFile'>;

async function loadBuild(dir: string): Promise<Backtest> {
  const backtest = (await import(pathToFileURL(join(dir, 'backtest', 'index.js')).href)) as Backtest;
  const engine = (await import(pathToFileURL(join(dir, 'engine', 'index.js')).href)) as Pick<typeof engineSources, 'loadStrategyFile'>;
  return { loadRecording: backtest.loadRecording, runBacktest: backtest.runBacktest, loadStrategyFile: engine.loadStrategyFile };
}

/** Seconds of this process's CPU time since `start`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

async function floor(file: string): Promise<{ wall: number; cpu: number }> {
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

async function lendbot(
  file: string,
  { loadRecording, runBacktest, loadStrategyFile }: Backtest,
): Promise<{ total: number; load: number; cpu: number; offers: number }> {
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

/** One build's rounds, in this process (the child's part): prints its BuildRuns as JSON. */
async function runChild(file: string, dir: string): Promise<void> {
  const build = await loadBuild(dir);
  /**
   * With `node --expose-gc`, a full collection before each measured run, so no run pays for the
   * garbage of the one before it (a replay leaves a recording of about 100 MB behind).
   */
  const collect = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);
  const runs: BuildRuns = { floors: [], floorCpus: [], totals: [], loads: [], cpus: [], offers: 0 };
  for (let round = 0; round < rounds; round += 1) {
    collect();
    const base = await floor(file);
    runs.floors.push(base.wall);
    runs.floorCpus.push(base.cpu);
    collect();
    const run = await lendbot(file, build);
    runs.totals.push(run.total);
    runs.loads.push(run.load);
    runs.cpus.push(run.cpu);
    runs.offers = run.offers;
  }
  process.stdout.write(`${JSON.stringify(runs)}\n`);
}

/** Whether dist/ was built from the sources as they are (bin/source-stamp.js): fresh, stale or missing. */
async function distState(): Promise<string> {
  const stamp = (await import(new URL('../bin/source-stamp.js', import.meta.url).href)) as { distState(): string };
  return stamp.distState();
}

/** Runs one build's rounds in a child process of its own and reads back its figures. */
function runBuild(file: string, dir: string): BuildRuns {
  const self = fileURLToPath(import.meta.url);
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', self, String(count), String(rounds), '--child', dir, '--file', file],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as BuildRuns;
}

function report(name: string, runs: BuildRuns): void {
  const rate = (seconds: number): string => `${Math.round(count / seconds).toLocaleString('en-US')} requests/s`;
  const f = median(runs.floors);
  const fc = median(runs.floorCpus);
  const l = median(runs.totals);
  const ld = median(runs.loads);
  const lc = median(runs.cpus);
  console.log(`  ${name}:`);
  console.log(`    baseline (readline + JSON.parse) in its process: ${f.toFixed(3)} s = ${rate(f)}; CPU ${fc.toFixed(3)} s`);
  console.log(
    `    lendbot (load + validate + prepare + replay, balanced.yaml, ${runs.offers} offers): ${l.toFixed(3)} s = ${rate(l)} (load ${ld.toFixed(3)} s, replay ${(l - ld).toFixed(3)} s); ratio lendbot/baseline throughput ${(f / l).toFixed(2)}`,
  );
  console.log(`    CPU time ${lc.toFixed(3)} s = ${rate(lc)} per CPU second; ratio ${(fc / lc).toFixed(2)}`);
}

const childIndex = args.indexOf('--child');
if (childIndex !== -1) {
  const fileIndex = args.indexOf('--file');
  await runChild(args[fileIndex + 1] as string, args[childIndex + 1] as string);
} else {
  const builds: Array<{ name: string; dir: string }> = [{ name: 'sources (tsx)', dir: fileURLToPath(new URL('../src', import.meta.url)) }];
  if (args.includes('--compiled') && distDirs.length === 0) {
    const dir = fileURLToPath(new URL('../dist', import.meta.url));
    builds.push({ name: `compiled (${dir}, ${await distState()})`, dir });
  }
  for (const dir of distDirs) builds.push({ name: `compiled (${dir}, built by hand)`, dir });
  const temp = await mkdtemp(join(tmpdir(), 'lendbot-replay-'));
  try {
    const file = join(temp, 'rec.jsonl');
    await writeLines(file, syntheticLines(count));
    console.log(`replay of ${count} requests, medians of ${rounds} rounds, each build in a process of its own (one core each):`);
    for (const build of builds) report(build.name, runBuild(file, build.dir));
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
