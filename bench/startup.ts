/**
 * `lendbot --help` start-up against `node -e 0` in the same run (issue 14, row 6): wall time
 * (median of several runs) and CPU time (user + system, mean) of
 *   - node -e 0                                  the baseline: Node itself
 *   - node dist/cli/main.js --help               compiled JavaScript, what the container runs
 *   - node bin/lendbot.js --help                 the command users type (dist when it is fresh)
 *   - node --import tsx src/cli/main.ts --help   the sources through tsx
 * Not asserted anywhere.
 *
 * Run: node --import tsx bench/startup.ts [--runs N] [--root DIR]
 *   --root  another checkout to measure (default this one); its dist/ is built when missing
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuMs } from './bench-timing.js';

interface Args {
  runs: number;
  root: string;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { runs: 9, root: fileURLToPath(new URL('..', import.meta.url)) };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--runs' && value !== undefined && Number(value) >= 1) args.runs = Math.floor(Number(value));
    else if (flag === '--root' && value !== undefined) args.root = resolve(value);
    else {
      console.error('usage: node --import tsx bench/startup.ts [--runs N] [--root DIR]');
      process.exit(2);
    }
  }
  return args;
}

interface Figure {
  label: string;
  wallMs: number;
  cpuMs: number;
}

function measure(label: string, args: string[], cwd: string, runs: number): Figure {
  const walls: number[] = [];
  // One untimed run warms the file cache, as a second `lendbot` command in a shell would find it.
  const check = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`${label} exited ${check.status}: ${check.stderr}`);
  const cpuBefore = childrenCpuMs();
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    spawnSync(process.execPath, args, { cwd, stdio: 'ignore' });
    walls.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const cpuMs = (childrenCpuMs() - cpuBefore) / runs;
  walls.sort((a, b) => a - b);
  return { label, wallMs: walls[Math.floor(walls.length / 2)] ?? 0, cpuMs };
}

function ensureDist(root: string): void {
  if (existsSync(join(root, 'dist/cli/main.js'))) return;
  console.log(`building ${root}/dist (tsc -p tsconfig.build.json) ...`);
  const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error(`the build did not produce dist/cli/main.js (exit ${build.status})`);
}

const args = parseArgs(process.argv.slice(2));
ensureDist(args.root);
const baseline = measure('node -e 0', ['-e', '0'], args.root, args.runs);
const figures = [
  baseline,
  measure('compiled: node dist/cli/main.js --help', ['dist/cli/main.js', '--help'], args.root, args.runs),
  measure('bin: node bin/lendbot.js --help', ['bin/lendbot.js', '--help'], args.root, args.runs),
  measure('tsx: node --import tsx src/cli/main.ts --help', ['--import', 'tsx', 'src/cli/main.ts', '--help'], args.root, args.runs),
];
console.log(`\nlendbot --help start-up, ${args.root} (median wall of ${args.runs} runs; CPU = user + system, mean)`);
console.log(`${'command'.padEnd(48)} ${'wall ms'.padStart(8)} ${'x node'.padStart(7)} ${'CPU ms'.padStart(8)} ${'x node'.padStart(7)}`);
for (const figure of figures) {
  const wallRatio = figure.wallMs / baseline.wallMs;
  const cpuRatio = baseline.cpuMs > 0 ? figure.cpuMs / baseline.cpuMs : Number.NaN;
  console.log(
    `${figure.label.padEnd(48)} ${figure.wallMs.toFixed(0).padStart(8)} ${wallRatio.toFixed(1).padStart(6)}x ${figure.cpuMs.toFixed(0).padStart(8)} ${cpuRatio.toFixed(1).padStart(6)}x`,
  );
}
