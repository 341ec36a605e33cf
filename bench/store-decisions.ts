// Store speed: inserting decisions and listing them from a large table, on a real temp file.
// Run: npx tsx bench/store-decisions.ts [rows]   (default 1,000,000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { databaseOf, openStore } from '../src/store/index.js';
import { otherReason } from '../src/domain/decision-reason.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'lendbot-bench-'));
const store = openStore(join(dir, 'bench.db'));
const start = Date.parse('2026-01-01T00:00:00Z');

function time<T>(label: string, run: () => T): T {
  const began = performance.now();
  const result = run();
  console.log(`${label.padEnd(48)} ${(performance.now() - began).toFixed(1).padStart(10)} ms`);
  return result;
}

try {
  // Bulk load in one transaction: the daemon writes one row per request, this only fills the table.
  time(`insert ${rows.toLocaleString()} decisions (one transaction)`, () => {
    databaseOf(store).transaction(() => {
      for (let i = 0; i < rows; i += 1) {
        store.decisions.record({
          loanRequestId: i,
          strategy: 'bench',
          action: i % 3 === 0 ? 'offer' : 'skip',
          reasons: [otherReason('bench')],
          dryRun: true,
          decidedAtMs: start + i * 1000,
          rate: 0.2,
        });
      }
    })();
  });
  time('insert 1,000 decisions, one commit each (synchronous=FULL)', () => {
    for (let i = 0; i < 1000; i += 1) {
      store.decisions.record({ loanRequestId: rows + i, action: 'skip', reasons: [], dryRun: true, decidedAtMs: start });
    }
  });
  const since = start + Math.floor(rows / 2) * 1000;
  time('list 100 since the middle', () => store.decisions.list({ sinceMs: since, limit: 100 }));
  time('list latest 100 offers', () => store.decisions.list({ action: 'offer', order: 'desc', limit: 100 }));
  const all = time('list every offer', () => store.decisions.list({ action: 'offer' }));
  console.log(`(${all.length.toLocaleString()} offers listed)`);
  time('has() x 10,000', () => {
    for (let i = 0; i < 10_000; i += 1) store.decisions.has(i * 37);
  });
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
