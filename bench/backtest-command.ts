/**
 * The whole `lendbot backtest` command against its I/O floor, each in a process of its own, side
 * by side in one run (issue 29, item 6; figures printed, never asserted):
 *   floor:   node reading the recording with readline and JSON.parse of every line, nothing else;
 *   lendbot: node bin/lendbot.js backtest --data FILE --strategy strategies/balanced.yaml
 *            --draws 1 --no-sensitivity (the command a user types, from the checkout's root, so
 *            with its config/lendbot.yaml: start-up, reading and checking the recording, the
 *            replay, the report's sections, writing the report).
 * Each round runs both, alternately; the CPU time (user + system of the process and its threads,
 * from /proc) and the wall time of each are kept, and the medians printed with the ratio the
 * issue states: floor CPU / lendbot CPU (goal >= 0.5, i.e. lendbot at most 2x the floor).
 * Two more processes each round say where the rest goes, side by side:
 *   keep:     the floor, keeping every parsed line in an array (what any replay that reads the
 *             recording once and passes over it several times holds: draws, calibration, worlds);
 *   start-up: the same lendbot command on the recording's first 100 lines (its fixed cost).
 * start-up + keep is what an in-memory backtest costs before it decides anything; the bound
 * printed, floor / (start-up + keep), is the best ratio such a design can reach.
 *
 * Run: node --import tsx bench/backtest-command.ts [--requests N] [--source sandbox|synthetic]
 *        [--runs N] [--root DIR] [--profile DIR] [-- extra backtest options]
 *   --requests  recording size (default 50000)
 *   --source    sandbox (default): `lendbot sandbox export` (banking data, both providers'
 *               scores, recorded acceptance; about 3 KB a line, made once and kept in the temp
 *               folder, 50k requests take 1-2 min); synthetic: bench/synthetic-recording.ts
 *               (no banking data, no scores: about 0.9 KB a line)
 *   --runs      rounds (default 3)
 *   --root      another checkout to measure (default this one)
 *   --profile   also write a CPU profile of one lendbot run into DIR (node --cpu-prof)
 * Like `npm start`, it first compiles dist/ when it is out of date, so the compiled code runs.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuMs } from './bench-timing.js';
import { median, syntheticLines, writeLines } from './synthetic-recording.js';

interface Args {
  requests: number;
  source: 'sandbox' | 'synthetic';
  runs: number;
  root: string;
  profile?: string;
  extra: string[];
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { requests: 50_000, source: 'sandbox', runs: 3, root: fileURLToPath(new URL('..', import.meta.url)), extra: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--') {
      args.extra = argv.slice(i + 1);
      break;
    }
    if (flag === '--requests' && Number(value) >= 1) args.requests = Math.floor(Number(value));
    else if (flag === '--source' && (value === 'sandbox' || value === 'synthetic')) args.source = value;
    else if (flag === '--runs' && Number(value) >= 1) args.runs = Math.floor(Number(value));
    else if (flag === '--root' && value !== undefined) args.root = resolve(value);
    else if (flag === '--profile' && value !== undefined) args.profile = resolve(value);
    else {
      console.error(
        'usage: node --import tsx bench/backtest-command.ts [--requests N] [--source sandbox|synthetic] [--runs N] [--root DIR] [--profile DIR] [-- options]',
      );
      process.exit(2);
    }
  }
  return args;
}

/** The recording file, made once per source and size and kept in the temp folder. */
async function recordingFile(args: Args): Promise<string> {
  const dir = join(tmpdir(), 'lendbot-bench-recordings');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${args.source}-${args.requests}.jsonl`);
  if (existsSync(file)) return file;
  const partial = `${file}.partial`;
  console.log(`making ${file} ...`);
  if (args.source === 'synthetic') {
    await writeLines(partial, syntheticLines(args.requests));
  } else {
    const made = spawnSync(
      process.execPath,
      ['bin/lendbot.js', 'sandbox', 'export', '--out', partial, '--requests', String(args.requests)],
      { cwd: args.root, stdio: 'inherit' },
    );
    if (made.status !== 0) throw new Error(`lendbot sandbox export exited ${made.status}`);
  }
  renameSync(partial, file);
  return file;
}

/**
 * The floor: read and parse every line, keep nothing. With the argument `keep`, the floor that
 * keeps what it parsed: every line's JSON held to the end, as a replay holds it.
 */
const FLOOR = `
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
(async () => {
  const keep = process.argv[2] === 'keep';
  const kept = [];
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) {
    if (line !== '') {
      const value = JSON.parse(line);
      lines += 1;
      if (keep) kept.push(value);
    }
  }
  if (lines === 0) process.exit(1);
})();
`;

/** The first `count` lines of a file, read no further than they go. */
async function firstLines(path: string, count: number): Promise<string[]> {
  const lines: string[] = [];
  const input = createReadStream(path);
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lines.push(line);
    if (lines.length >= count) break;
  }
  input.destroy();
  return lines;
}

interface Run {
  wallMs: number;
  cpuMs: number;
}

/** One child process, its wall and CPU time; throws when it fails. */
function timed(label: string, args: readonly string[], cwd: string): Run {
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${label} exited ${run.status}: ${run.stderr.slice(-2000)}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore };
}

const args = parseArgs(process.argv.slice(2));
// As npm does before `start`: a stale dist/ is compiled first, so the compiled code is measured.
spawnSync(process.execPath, ['bin/build-dist.js', '--if-stale'], { cwd: args.root, stdio: 'inherit' });
const file = await recordingFile(args);
const command = [
  'bin/lendbot.js',
  'backtest',
  '--data',
  file,
  '--strategy',
  'strategies/balanced.yaml',
  '--draws',
  '1',
  '--no-sensitivity',
  ...args.extra,
];
console.log(`root ${args.root}; recording ${file}; ${args.runs} rounds\nlendbot: node ${command.join(' ')}`);
// The start-up run: the same command on the first 100 lines.
const head = join(tmpdir(), 'lendbot-bench-recordings', `head-100-of-${args.source}-${args.requests}.jsonl`);
writeFileSync(head, `${(await firstLines(file, 100)).join('\n')}\n`);
const startupCommand = command.map((part) => (part === file ? head : part));
// One untimed run of each warms the file cache, as a user's second command would find it.
timed('floor', ['-e', FLOOR, file], args.root);
timed('lendbot', command, args.root);
const floors: Run[] = [];
const lendbots: Run[] = [];
const keeps: Run[] = [];
const startups: Run[] = [];
for (let round = 0; round < args.runs; round += 1) {
  floors.push(timed('floor', ['-e', FLOOR, file], args.root));
  lendbots.push(timed('lendbot', command, args.root));
  keeps.push(timed('keep', ['-e', FLOOR, file, 'keep'], args.root));
  startups.push(timed('start-up', startupCommand, args.root));
  const [floor, lendbot, keep, startup] = [floors, lendbots, keeps, startups].map((runs) => runs.at(-1) as Run) as [Run, Run, Run, Run];
  console.log(
    `round ${round + 1}: floor CPU ${floor.cpuMs} ms (wall ${floor.wallMs.toFixed(0)}), lendbot CPU ${lendbot.cpuMs} ms (wall ${lendbot.wallMs.toFixed(0)}): ${(floor.cpuMs / lendbot.cpuMs).toFixed(2)} of the floor; keep ${keep.cpuMs} ms, start-up ${startup.cpuMs} ms`,
  );
}
const cpu = { floor: median(floors.map((r) => r.cpuMs)), lendbot: median(lendbots.map((r) => r.cpuMs)) };
const wall = { floor: median(floors.map((r) => r.wallMs)), lendbot: median(lendbots.map((r) => r.wallMs)) };
console.log(
  `\nmedians of ${args.runs}: floor CPU ${cpu.floor} ms, lendbot CPU ${cpu.lendbot} ms: ${(cpu.floor / cpu.lendbot).toFixed(2)} of the floor by CPU (goal >= 0.5)`,
);
console.log(
  `             floor wall ${wall.floor.toFixed(0)} ms, lendbot wall ${wall.lendbot.toFixed(0)} ms: ${(wall.floor / wall.lendbot).toFixed(2)} by wall time`,
);
const keep = median(keeps.map((r) => r.cpuMs));
const startup = median(startups.map((r) => r.cpuMs));
console.log(
  `where it goes: keep (floor + holding every parsed line) CPU ${keep} ms; start-up (the command on 100 lines) CPU ${startup} ms;\n` +
    `             an in-memory backtest costs start-up + keep = ${startup + keep} ms before deciding anything: at best ${(cpu.floor / (startup + keep)).toFixed(2)} of the floor;\n` +
    `             lendbot's own work beyond that: ${cpu.lendbot - startup - keep} ms (checking, preparing, replay, calibration, report)`,
);
if (args.profile !== undefined) {
  timed('lendbot --cpu-prof', ['--cpu-prof', '--cpu-prof-dir', args.profile, ...command], args.root);
  console.log(`CPU profile of one lendbot run written to ${args.profile}`);
}
