/**
 * A memory soak of the daemon (issue 14, row 5): starts it as `npm start` does (the command of
 * package.json's `start` script: `lendbot run --sandbox`, the daemon trading against the embedded
 * sandbox), samples the resident memory (RSS, from /proc) of the daemon's own process and,
 * separately, of its child processes (the embedded sandbox), and prints the samples, the lows of
 * each quarter of the run and the trend of the per-minute lows. The baseline in the same run is
 * the peak RSS of `lendbot --help` (the bare CLI) and of `node -e 0`. Not asserted anywhere.
 *
 * Run: node --import tsx bench/daemon-memory.ts [--minutes N] [--interval S] [--root DIR] [--tty] [--flags "..."]
 *   --minutes   how long to soak (default 10)
 *   --interval  seconds between samples (default 10)
 *   --root      another checkout to measure (default this one)
 *   --tty       run the daemon on a pseudo-terminal (`script`), as a user's `npm start` does:
 *               human-readable log lines instead of JSON
 *   --flags     node flags instead of the start script's, to try a lever ("" for none)
 * Like `npm start`, it first compiles dist/ when it is out of date (the prestart script) and says
 * whether the compiled code or the sources run. The environment passes through (say
 * MALLOC_ARENA_MAX=2), except LENDBOT_* variables. Linux only (reads /proc).
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rssOf } from './process-rss.js';

interface Args {
  minutes: number;
  intervalS: number;
  root: string;
  tty: boolean;
  flags?: string[];
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { minutes: 10, intervalS: 10, root: fileURLToPath(new URL('..', import.meta.url)), tty: false };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--tty') {
      args.tty = true;
      i -= 1; // a switch, no value
    } else if (flag === '--minutes' && Number(value) > 0) args.minutes = Number(value);
    else if (flag === '--interval' && Number(value) > 0) args.intervalS = Number(value);
    else if (flag === '--root' && value !== undefined) args.root = resolve(value);
    else if (flag === '--flags' && value !== undefined) args.flags = value.split(/\s+/).filter(Boolean);
    else {
      console.error('usage: node --import tsx bench/daemon-memory.ts [--minutes N] [--interval S] [--root DIR] [--tty] [--flags "..."]');
      process.exit(2);
    }
  }
  return args;
}

const MB = 1024 * 1024;

/** Every process below `pid` (children, grandchildren, ...). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const read = (file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return ''; // the process or thread has gone
    }
  };
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    const children = read(`/proc/${pid}/task/${task}/children`);
    for (const child of children.split(' ').filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

/** Peak RSS (bytes) of a short command, from /proc at its exit through a preloaded hook. */
function peakRss(args: string[], cwd: string, hook: string): number {
  const run = spawnSync(process.execPath, ['--require', hook, ...args], { cwd, encoding: 'utf8' });
  const match = /LENDBOT_BENCH_MAXRSS (\d+)/.exec(run.stderr);
  if (!match) throw new Error(`no peak RSS from ${args.join(' ')}: ${run.stderr}`);
  return Number(match[1]) * 1024;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

interface StartScripts {
  /** What `npm start` runs, as node arguments (node flags, the script, its arguments). */
  command: string[];
  /** The shell command npm runs first (dist/ compiled when stale), if any. */
  prestart?: string;
}

/** The commands `npm start` runs, with `flags` (when given) in place of the start script's node flags. */
function startScripts(root: string, flags: readonly string[] | undefined): StartScripts {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [program, ...args] = (manifest.scripts.start ?? '').trim().split(/\s+/);
  if (program !== 'node') throw new Error(`npm start is not a node command: ${manifest.scripts.start}`);
  const command = flags === undefined ? args : [...flags, ...args.slice(args.findIndex((arg) => !arg.startsWith('-')))];
  return { command, ...(manifest.scripts.prestart ? { prestart: manifest.scripts.prestart } : {}) };
}

/** Whether the compiled dist/ or the sources run (bin/lendbot.js's own test). */
async function distState(root: string): Promise<string> {
  const stamp = join(root, 'bin', 'source-stamp.js');
  if (!existsSync(stamp)) return 'unknown';
  const module = (await import(pathToFileURL(stamp).href)) as { distState(root: string): string };
  return module.distState(root);
}

/** Quotes one word for sh. */
const shellWord = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Starts the daemon as `npm start` would, on a pseudo-terminal when asked (util-linux `script`,
 * whose stdout carries what the terminal shows); resolves to the daemon's own process id.
 */
async function startDaemon(
  command: readonly string[],
  root: string,
  env: Record<string, string>,
  tty: boolean,
): Promise<{ child: ChildProcessByStdio<null, Readable, Readable>; daemonPid: number }> {
  if (!tty) {
    const child = spawn(process.execPath, command, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid === undefined) throw new Error('the daemon did not start');
    return { child, daemonPid: child.pid };
  }
  const line = [process.execPath, ...command].map(shellWord).join(' ');
  const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error('script (util-linux) did not start');
  // The daemon is the first node process below `script` (its shell may exec it or fork it).
  for (let tries = 0; tries < 100; tries += 1) {
    const daemonPid = descendants(child.pid).find((pid) => isNode(pid));
    if (daemonPid !== undefined) return { child, daemonPid };
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('no daemon process below script');
}

function isNode(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === process.execPath;
  } catch {
    return false;
  }
}

/** The sample nearest to `minute`, if the run reached it. */
function at(samples: readonly Sample[], minute: number): Sample | undefined {
  const atS = minute * 60;
  if (samples.length === 0 || (samples.at(-1)?.atS ?? 0) < atS - 30) return undefined;
  return samples.reduce((best, s) => (Math.abs(s.atS - atS) < Math.abs(best.atS - atS) ? s : best));
}

interface Sample {
  atS: number;
  daemon: number;
  sandbox: number;
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const sxy = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const sxx = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

const mb = (bytes: number): string => (bytes / MB).toFixed(0);

function summary(label: string, samples: readonly Sample[], pick: (s: Sample) => number, minutes: number): string {
  const values = samples.map(pick);
  const quarters = [0, 1, 2, 3].map((q) => {
    const part = samples.filter((s) => s.atS >= (q * minutes * 60) / 4 && s.atS < ((q + 1) * minutes * 60) / 4 + 1e-9).map(pick);
    return part.length > 0 ? Math.min(...part) : Number.NaN;
  });
  const perMinute = new Map<number, number>();
  for (const s of samples) {
    const minute = Math.floor(s.atS / 60);
    perMinute.set(minute, Math.min(perMinute.get(minute) ?? Number.POSITIVE_INFINITY, pick(s)));
  }
  // The first minute is start-up (JIT, caches filling): the trend is of the lows after it.
  const lows = [...perMinute].filter(([minute]) => minute >= 1).map(([minute, low]) => [minute, low / MB] as const);
  const marks = [10, 30, 60].filter((minute) => minute <= minutes).map((minute) => [minute, at(samples, minute)] as const);
  return [
    `${label}: first ${mb(values[0] ?? 0)} MB, last ${mb(values.at(-1) ?? 0)} MB, max ${mb(Math.max(...values))} MB`,
    ...(marks.length > 0 ? [`  at ${marks.map(([minute, s]) => `${minute} min ${s ? mb(pick(s)) : '-'} MB`).join(', ')}`] : []),
    `  lows by quarter: ${quarters.map((q) => (Number.isNaN(q) ? '-' : mb(q))).join(', ')} MB`,
    `  trend of the per-minute lows after the first minute: ${(slope(lows) * 10).toFixed(1)} MB per 10 min`,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-memory-'));
  const hook = join(dir, 'maxrss.cjs');
  writeFileSync(hook, "process.on('exit', () => process.stderr.write(`\\nLENDBOT_BENCH_MAXRSS ${process.resourceUsage().maxRSS}\\n`));\n");
  const { command, prestart } = startScripts(args.root, args.flags);
  // As npm does before `start`: a stale dist/ is compiled first, so the compiled code is measured.
  if (prestart !== undefined) spawnSync(prestart, { cwd: args.root, shell: true, stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(
    `root ${args.root}; npm start = node ${command.join(' ')}${args.tty ? ', on a pseudo-terminal' : ''}; dist/ ${await distState(args.root)}; ` +
      `${args.minutes} min, a sample every ${args.intervalS} s${process.env.MALLOC_ARENA_MAX ? `; MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}` : ''}`,
  );
  const baselineNode = peakRss(['-e', '0'], args.root, hook);
  // The script npm start runs (after any node flags), with --help.
  const script = command.find((arg) => !arg.startsWith('-')) ?? 'bin/lendbot.js';
  const baselineHelp = peakRss([script, '--help'], args.root, hook);
  console.log(`baseline peak RSS: node -e 0 ${mb(baselineNode)} MB; lendbot --help ${mb(baselineHelp)} MB`);

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('LENDBOT_')) env[key] = value;
  env.LENDBOT_DB = join(dir, 'lendbot.db');
  env.LENDBOT_WEBHOOK_PORT = String(await freePort());
  // Its own operator port too: two soaks (or another daemon on the machine) side by side.
  env.LENDBOT_OPS_PORT = String(await freePort());
  const { child, daemonPid: pid } = await startDaemon(command, args.root, env, args.tty);
  let offers = 0;
  let webhooks = 0;
  // The messages, in JSON lines or in pino-pretty's (a terminal).
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('offer placed')) offers += 1;
    else if (line.includes('webhook received')) webhooks += 1;
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));

  const samples: Sample[] = [];
  const started = Date.now();
  console.log(
    `${'t (s)'.padStart(6)} ${'daemon MB'.padStart(10)} ${'sandbox MB'.padStart(11)} ${'offers'.padStart(7)} ${'webhooks'.padStart(9)}`,
  );
  while (Date.now() - started < args.minutes * 60_000) {
    await new Promise((done) => setTimeout(done, args.intervalS * 1000));
    if (child.exitCode !== null) throw new Error(`the daemon exited (${child.exitCode}): ${stderr}`);
    const sample = {
      atS: (Date.now() - started) / 1000,
      daemon: rssOf(pid),
      sandbox: descendants(pid).reduce((sum, p) => sum + rssOf(p), 0),
    };
    samples.push(sample);
    console.log(
      `${sample.atS.toFixed(0).padStart(6)} ${mb(sample.daemon).padStart(10)} ${(sample.sandbox === 0 ? 'in-process' : mb(sample.sandbox)).padStart(11)} ${String(offers).padStart(7)} ${String(webhooks).padStart(9)}`,
    );
  }
  process.kill(pid, 'SIGTERM');
  const code = await exited;
  console.log(`\nstopped with SIGTERM: exit code ${code}; ${offers} offers placed, ${webhooks} webhooks received`);
  console.log(`baseline: lendbot --help ${mb(baselineHelp)} MB, node -e 0 ${mb(baselineNode)} MB`);
  console.log(summary('daemon', samples, (s) => s.daemon, args.minutes));
  if (samples.some((s) => s.sandbox > 0)) console.log(summary('sandbox (its own process)', samples, (s) => s.sandbox, args.minutes));
  else console.log('sandbox: in the daemon process (its memory is counted in the daemon figure)');
  const median = [...samples.map((s) => s.daemon)].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
  console.log(`daemon median ${mb(median)} MB = ${(median / baselineHelp).toFixed(2)}x lendbot --help`);
  rmSync(dir, { recursive: true, force: true });
}

await main();
