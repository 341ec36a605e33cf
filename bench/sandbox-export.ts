/**
 * How fast the sandbox exports a recording headless, and how much it holds:
 * `npx tsx bench/sandbox-export.ts [requests] [arrivals per hour]` (default 10 000 at 30 an hour).
 * Prints wall and CPU time, the outcome mix, the most requests the market held at once (open ones
 * and running loans) and the most final requests that waited for an earlier one's line, and the
 * process's peak RSS. The held and waiting counts level off once the longest loans (about two
 * simulated years) end as fast as new ones start: at 1 an hour from about 20,000 requests, at 30
 * an hour from about 600,000; what the export holds does not grow with the request count beyond.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSandboxRecording } from '../src/sandbox/index.js';

async function main(): Promise<void> {
  const requests = Number(process.argv[2] ?? 10_000);
  const arrivalsPerHour = Number(process.argv[3] ?? 30);
  const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-export-'));
  const file = join(dir, 'bench.jsonl');
  let held = 0;
  let waiting = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const summary = await exportSandboxRecording(file, {
    seed: 42,
    requests,
    arrivalsPerHour,
    onProgress: (progress) => {
      held = Math.max(held, progress.held);
      waiting = Math.max(waiting, progress.waiting);
    },
  });
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const seconds = (performance.now() - started) / 1000;
  const megabytes = statSync(file).size / 1_000_000;
  console.log(
    `sandbox export: ${summary.lines} requests at ${arrivalsPerHour} an hour in ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU (${Math.round(summary.lines / cpuSeconds)} requests per CPU second), ${megabytes.toFixed(1)} MB`,
  );
  console.log(`simulated ${summary.simulatedFrom} to ${summary.simulatedUntil}; outcomes ${JSON.stringify(summary.byStatus)}`);
  console.log(
    `held at most ${held} requests at once, ${waiting} final ones waiting for an earlier line; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
  rmSync(dir, { recursive: true, force: true });
}

await main();
