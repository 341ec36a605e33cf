/**
 * Peak memory and CPU of the whole `lendbot backtest` command against its floor, side by side
 * (issue 39; figures printed, never asserted), each in a process of its own:
 *   floor:   node reading the recording with readline and JSON.parse of every line, nothing kept;
 *   lendbot: node bin/lendbot.js backtest --data FILE --strategy strategies/balanced.yaml
 *            --draws 1 --no-sensitivity (the command of the goal: start-up, reading the
 *            recording into its compact form, calibration, the replay, the worlds, the report).
 * Each process reports its own peak resident set (getrusage's ru_maxrss, read at exit by a
 * preloaded hook); CPU is user + system of the process and its threads (/proc).
 * Goals (issue 39): peak RSS at most 400 MB on 200,000 requests and 1 GB on 1,000,000; the
 * command at least 0.4 of the floor's CPU on 50,000.
 *
 * Run: node --import tsx bench/backtest-memory.ts [--requests 50000,200000] [--runs N] [--root DIR] [-- extra backtest options]
 *   --requests  recording sizes, comma-separated (default 50000); each is a `lendbot sandbox export`
 *               kept in the temp folder (about 3 KB a line; 50k take 1-2 min to make, 200k about 5)
 *   --runs      rounds per size (default 1); medians printed
 *   --root      another checkout to measure (default this one), e.g. an older build for "before"
 * Like `npm start`, it first compiles dist/ when it is out of date, so the compiled code runs.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measured, recordingFile, type Run } from './measured-process.js';
import { median } from './synthetic-recording.js';

interface Args {
  sizes: number[];
  runs: number;
  root: string;
  extra: string[];
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { sizes: [50_000], runs: 1, root: fileURLToPath(new URL('..', import.meta.url)), extra: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--') {
      args.extra = argv.slice(i + 1);
      break;
    }
    if (flag === '--requests' && value !== undefined && value.split(',').every((n) => Number(n) >= 1))
      args.sizes = value.split(',').map((n) => Math.floor(Number(n)));
    else if (flag === '--runs' && Number(value) >= 1) args.runs = Math.floor(Number(value));
    else if (flag === '--root' && value !== undefined) args.root = resolve(value);
    else {
      console.error('usage: node --import tsx bench/backtest-memory.ts [--requests 50000,200000] [--runs N] [--root DIR] [-- options]');
      process.exit(2);
    }
  }
  return args;
}

const FLOOR = `
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
(async () => {
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) {
    if (line !== '') {
      JSON.parse(line);
      lines += 1;
    }
  }
  if (lines === 0) process.exit(1);
})();
`;

/** The one-replay command, after `backtest --data FILE`. */
const ONE_REPLAY = ['--strategy', 'strategies/balanced.yaml', '--draws', '1', '--no-sensitivity'];

const args = parseArgs(process.argv.slice(2));
spawnSync(process.execPath, ['bin/build-dist.js', '--if-stale'], { cwd: args.root, stdio: 'inherit' });
console.log(`root ${args.root}; ${args.runs} round(s) per size`);
const rows: string[] = [];
for (const requests of args.sizes) {
  const file = recordingFile(args.root, requests);
  const command = ['bin/lendbot.js', 'backtest', '--data', file, ...ONE_REPLAY, ...args.extra];
  const floors: Run[] = [];
  const lendbots: Run[] = [];
  for (let round = 0; round < args.runs; round += 1) {
    floors.push(measured('floor', ['-e', FLOOR, file], args.root));
    lendbots.push(measured('lendbot', command, args.root));
  }
  const m = (runs: Run[], key: 'cpuMs' | 'wallMs' | 'peakMb'): number => median(runs.map((r) => r[key]));
  const [floorCpu, lendbotCpu] = [m(floors, 'cpuMs'), m(lendbots, 'cpuMs')];
  const line =
    `${requests.toLocaleString('en-US')} requests (${Math.round(statSync(file).size / 1e6)} MB): ` +
    `floor CPU ${floorCpu} ms, wall ${m(floors, 'wallMs').toFixed(0)} ms, peak RSS ${m(floors, 'peakMb').toFixed(0)} MB | ` +
    `lendbot CPU ${lendbotCpu} ms, wall ${m(lendbots, 'wallMs').toFixed(0)} ms, peak RSS ${m(lendbots, 'peakMb').toFixed(0)} MB | ` +
    `${(floorCpu / lendbotCpu).toFixed(2)} of the floor by CPU`;
  console.log(line);
  rows.push(line);
}
console.log(`\nlendbot: node ${['bin/lendbot.js', 'backtest', '--data', 'FILE', ...ONE_REPLAY, ...args.extra].join(' ')}`);
for (const row of rows) console.log(row);
