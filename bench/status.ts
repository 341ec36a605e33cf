// `lendbot status` speed on a large database: a million decisions (and a third as many settled
// offers), on a real temp file. Prints figures; nothing asserts on them.
// Run: npx tsx bench/status.ts [decisions]   (default 1,000,000)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildStatusReport } from '../src/ops/status-report.js';
import { DEFAULT_RISK_LIMITS } from '../src/risk/index.js';
import { openStore } from '../src/store/index.js';
import { seedStatusData } from '../test/ops/status-fixtures.js';
import { time } from './bench-timing.js';

const decisions = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-status-'));
const path = join(dir, 'bench.db');
const nowMs = Date.now();

try {
  const store = openStore(path);
  time(`seed ${decisions.toLocaleString()} decisions, ${Math.floor(decisions / 3).toLocaleString()} offers`, () =>
    seedStatusData(store, { decisions, nowMs }),
  );
  console.log(`database size ${(statSync(path).size / 1e6).toFixed(0)} MB`);
  const input = { store, nowMs, limits: DEFAULT_RISK_LIMITS, budgets: [], dryRun: false };
  time('status report, first (cold statements)', () => buildStatusReport(input));
  const runs = 20;
  const began = performance.now();
  for (let i = 0; i < runs; i += 1) buildStatusReport(input);
  console.log(`${'status report, mean of 20'.padEnd(52)} ${((performance.now() - began) / runs).toFixed(1).padStart(10)} ms`);
  store.close();
  // The whole command as a user runs it: process start (tsx), config, strategies, report.
  const bin = join(import.meta.dirname, '..', 'bin', 'lendbot.js');
  time('`lendbot status --json` (child process, end to end)', () =>
    execFileSync(process.execPath, [bin, 'status', '--db', path, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
