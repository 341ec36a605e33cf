/**
 * The whole `lendbot tune` command on sandbox exports, each run in a process of its own (issue 39:
 * `--trials 1000` on 1,000,000 requests within 10 minutes on 2 cores, with the backtest's bounded
 * memory; figures printed, never asserted): wall time, CPU (user + system of the process and its
 * worker threads) and peak RSS, with the report's halving and verdict lines.
 *
 * Run: node --import tsx bench/tune-command.ts [--requests 50000,200000x5] [--trials 1000] [--root DIR] [-- extra tune options]
 *   --requests  recording sizes, comma-separated (default 50000); each a `lendbot sandbox export`
 *               kept in the temp folder (bench/measured-process.ts); `200000x5` is five copies of
 *               the 200,000-request export one after another (a million requests in minutes; an
 *               export of a million takes hours on a busy machine)
 *   --trials    trials of each tune (default 1000)
 *   --root      another checkout to measure (default this one), e.g. an older build for "before"
 * Like `npm start`, it first compiles dist/ when it is out of date, so the compiled code runs.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measured, recordingFile, repeatedRecording } from './measured-process.js';

interface Size {
  requests: number;
  /** Copies of the `requests` export one after another (bench/measured-process.ts, repeatedRecording); 1: the export itself. */
  copies: number;
}

interface Args {
  sizes: Size[];
  trials: number;
  root: string;
  extra: string[];
}

/** A size: requests of one export, or `200000x5`, five copies of the 200,000-request export. */
const SIZE = /^([1-9]\d*)(?:x([1-9]\d*))?$/;

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    sizes: [{ requests: 50_000, copies: 1 }],
    trials: 1000,
    root: fileURLToPath(new URL('..', import.meta.url)),
    extra: [],
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--') {
      args.extra = argv.slice(i + 1);
      break;
    }
    if (flag === '--requests' && value !== undefined && value.split(',').every((n) => SIZE.test(n)))
      args.sizes = value.split(',').map((n) => {
        const [, requests, copies] = SIZE.exec(n) ?? [];
        return { requests: Number(requests), copies: copies === undefined ? 1 : Number(copies) };
      });
    else if (flag === '--trials' && Number(value) >= 1) args.trials = Math.floor(Number(value));
    else if (flag === '--root' && value !== undefined) args.root = resolve(value);
    else {
      console.error('usage: node --import tsx bench/tune-command.ts [--requests 50000,200000x5] [--trials N] [--root DIR] [-- options]');
      process.exit(2);
    }
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
spawnSync(process.execPath, ['bin/build-dist.js', '--if-stale'], { cwd: args.root, stdio: 'inherit' });
const tuneArgs = ['--strategy', 'strategies/balanced.yaml', '--trials', String(args.trials), ...args.extra];
console.log(`root ${args.root}; ${availableParallelism()} cores; node bin/lendbot.js tune --data FILE ${tuneArgs.join(' ')}`);
const rows: string[] = [];
for (const { requests: exported, copies } of args.sizes) {
  const file = copies === 1 ? recordingFile(args.root, exported) : await repeatedRecording(recordingFile(args.root, exported), copies);
  const requests = exported * copies;
  const load = loadavg()[0]?.toFixed(1);
  const run = measured('lendbot tune', ['bin/lendbot.js', 'tune', '--data', file, ...tuneArgs], args.root);
  const said = run.stdout.split('\n').filter((line) => /^(Successive halving|improved|not |overfit|too few|no trial)/.test(line));
  const line =
    `${requests.toLocaleString('en-US')} requests (${copies === 1 ? '' : `${copies} copies of ${exported.toLocaleString('en-US')}, `}${Math.round(statSync(file).size / 1e6)} MB), ${args.trials} trials: ` +
    `wall ${(run.wallMs / 1000).toFixed(0)} s, CPU ${(run.cpuMs / 1000).toFixed(0)} s, peak RSS ${run.peakMb.toFixed(0)} MB ` +
    `(load average ${load} before)`;
  console.log(line);
  for (const text of said) console.log(`  ${text.length > 240 ? `${text.slice(0, 240)}...` : text}`);
  rows.push(line);
}
console.log('');
for (const row of rows) console.log(row);
