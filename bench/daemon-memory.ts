/**
 * A memory soak of the daemon (issue 14, row 5): starts it as `npm start` does (the command of
 * package.json's `start` script: `lendbot run --sandbox`, the daemon trading against the embedded
 * sandbox), samples the resident memory (RSS, from /proc) of the daemon's own process and,
 * separately, of its child processes (the embedded sandbox), and prints the samples, the lows of
 * each quarter of the run and the trend of the per-minute lows. The baseline in the same run is
 * the peak RSS of `lendbot --help` (the bare CLI) and of `node -e 0`. Not asserted anywhere.
 *
 * Run: node --import tsx bench/daemon-memory.ts [--minutes N] [--interval S] [--root DIR]
 *   --minutes   how long to soak (default 10)
 *   --interval  seconds between samples (default 10)
 *   --root      another checkout to measure (default this one)
 * Linux only (reads /proc).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

interface Args {
  minutes: number;
  intervalS: number;
  root: string;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { minutes: 10, intervalS: 10, root: fileURLToPath(new URL('..', import.meta.url)) };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--minutes' && Number(value) > 0) args.minutes = Number(value);
    else if (flag === '--interval' && Number(value) > 0) args.intervalS = Number(value);
    else if (flag === '--root' && value !== undefined) args.root = resolve(value);
    else {
      console.error('usage: node --import tsx bench/daemon-memory.ts [--minutes N] [--interval S] [--root DIR]');
      process.exit(2);
    }
  }
  return args;
}

const MB = 1024 * 1024;

/** Resident memory of one process in bytes (VmRSS), or 0 once it is gone. */
function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

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

/** The command `npm start` runs, as node arguments. */
function startCommand(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [program, ...args] = (manifest.scripts.start ?? '').trim().split(/\s+/);
  if (program !== 'node') throw new Error(`npm start is not a node command: ${manifest.scripts.start}`);
  return args;
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
  return [
    `${label}: first ${mb(values[0] ?? 0)} MB, last ${mb(values.at(-1) ?? 0)} MB, max ${mb(Math.max(...values))} MB`,
    `  lows by quarter: ${quarters.map((q) => (Number.isNaN(q) ? '-' : mb(q))).join(', ')} MB`,
    `  trend of the per-minute lows after the first minute: ${(slope(lows) * 10).toFixed(1)} MB per 10 min`,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-memory-'));
  const hook = join(dir, 'maxrss.cjs');
  writeFileSync(hook, "process.on('exit', () => process.stderr.write(`\\nLENDBOT_BENCH_MAXRSS ${process.resourceUsage().maxRSS}\\n`));\n");
  const command = startCommand(args.root);
  console.log(`root ${args.root}; npm start = node ${command.join(' ')}; ${args.minutes} min, a sample every ${args.intervalS} s`);
  const baselineNode = peakRss(['-e', '0'], args.root, hook);
  // The script npm start runs (after any node flags), with --help.
  const script = command.find((arg) => !arg.startsWith('-')) ?? 'bin/lendbot.js';
  const baselineHelp = peakRss([script, '--help'], args.root, hook);
  console.log(`baseline peak RSS: node -e 0 ${mb(baselineNode)} MB; lendbot --help ${mb(baselineHelp)} MB`);

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('LENDBOT_')) env[key] = value;
  env.LENDBOT_DB = join(dir, 'lendbot.db');
  env.LENDBOT_WEBHOOK_PORT = String(await freePort());
  const child = spawn(process.execPath, command, { cwd: args.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the daemon did not start');
  let offers = 0;
  let webhooks = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('"msg":"offer placed"')) offers += 1;
    else if (line.includes('"msg":"webhook received"')) webhooks += 1;
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));

  const samples: Sample[] = [];
  const started = Date.now();
  console.log(`${'t (s)'.padStart(6)} ${'daemon MB'.padStart(10)} ${'sandbox MB'.padStart(11)} ${'offers'.padStart(7)} ${'webhooks'.padStart(9)}`);
  while (Date.now() - started < args.minutes * 60_000) {
    await new Promise((done) => setTimeout(done, args.intervalS * 1000));
    if (child.exitCode !== null) throw new Error(`the daemon exited (${child.exitCode}): ${stderr}`);
    const sample = { atS: (Date.now() - started) / 1000, daemon: rssOf(pid), sandbox: descendants(pid).reduce((sum, p) => sum + rssOf(p), 0) };
    samples.push(sample);
    console.log(`${sample.atS.toFixed(0).padStart(6)} ${mb(sample.daemon).padStart(10)} ${(sample.sandbox === 0 ? 'in-process' : mb(sample.sandbox)).padStart(11)} ${String(offers).padStart(7)} ${String(webhooks).padStart(9)}`);
  }
  child.kill('SIGTERM');
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
