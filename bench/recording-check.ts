/**
 * What the recording line check costs (docs/performance.md, the fast-path table): a recording's
 * lines parsed, then checked by zod's schema (the reference) or by the fast check
 * (src/recording/line-check.ts), each way in a process of its own. Prints the CPU of loading and
 * building the check and of three passes over every line (the first cold); figures, never asserted.
 * Run: node --import tsx bench/recording-check.ts FILE [--runs N]
 *   FILE: a recording, e.g. `lendbot sandbox export --requests 20000 --out FILE`
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Way = 'parse' | 'zod' | 'fast';
const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/** One way in this process: the JSON line printed is what the parent reads. */
async function measure(way: Way, file: string): Promise<void> {
  const began = cpuMs();
  let check: ((json: unknown) => boolean) | undefined;
  if (way === 'zod') {
    const { recordingLineSchema } = await import('../src/recording/recording-schema.js');
    check = (json) => recordingLineSchema.safeParse(json).success;
  } else if (way === 'fast') {
    check = (await import('../src/recording/line-check.js')).recordingLineCheck();
    if (check === undefined) throw new Error('no fast check: run node --import tsx scripts/generate-line-check.ts');
  }
  const built = cpuMs();
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const passes: number[] = [];
  let good = 0;
  for (let pass = 0; pass < 3; pass += 1) {
    const start = cpuMs();
    good = 0;
    for (const text of lines) {
      const json: unknown = JSON.parse(text);
      if (check === undefined || check(json)) good += 1;
    }
    passes.push(Math.round(cpuMs() - start));
  }
  console.log(JSON.stringify({ way, loadMs: Math.round(built - began), lines: lines.length, good, passes }));
}

const [file, flag, runs] = process.argv.slice(2);
if (file === '--way') await measure(flag as Way, runs as string);
else if (file === undefined) {
  console.error('usage: node --import tsx bench/recording-check.ts FILE [--runs N]');
  process.exit(2);
} else {
  const rounds = flag === '--runs' && Number(runs) >= 1 ? Math.floor(Number(runs)) : 3;
  const self = fileURLToPath(import.meta.url);
  console.log('CPU ms; passes: JSON.parse (and the check) of every line, the first cold');
  for (let round = 0; round < rounds; round += 1) {
    for (const way of ['parse', 'zod', 'fast'] as const) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--way', way, file], { encoding: 'utf8' });
      process.stdout.write(child.status === 0 ? child.stdout : child.stderr);
    }
  }
}
