/**
 * How fast the sandbox exports a recording headless: `npx tsx bench/sandbox-export.ts [requests]`
 * (default 10 000). Prints wall time, requests per second and the outcome mix.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSandboxRecording } from '../src/sandbox/index.js';

async function main(): Promise<void> {
  const requests = Number(process.argv[2] ?? 10_000);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-export-'));
  const file = join(dir, 'bench.jsonl');
  const started = performance.now();
  const summary = await exportSandboxRecording(file, { seed: 42, requests });
  const seconds = (performance.now() - started) / 1000;
  const megabytes = statSync(file).size / 1_000_000;
  console.log(
    `sandbox export: ${summary.lines} requests in ${seconds.toFixed(2)} s (${Math.round(summary.lines / seconds)} requests/s), ${megabytes.toFixed(1)} MB`,
  );
  console.log(`simulated ${summary.simulatedFrom} to ${summary.simulatedUntil}; outcomes ${JSON.stringify(summary.byStatus)}`);
  rmSync(dir, { recursive: true, force: true });
}

await main();
