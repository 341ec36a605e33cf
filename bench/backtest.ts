/**
 * Backtest and tuning throughput on a generated 100,000-request recording (figures printed, never
 * asserted):  node --import tsx bench/backtest.ts [requests]
 */
import { performance } from 'node:perf_hooks';
import { prepareRecording, runBacktest, tune, workerCount, workerPoolEvaluator } from '../src/backtest/index.js';
import { recordingLineSchema, type RecordingLine } from '../src/recording/index.js';
import { seededRandom } from '../src/backtest/tune/seeded-random.js';
import { loadStrategyFile } from '../src/engine/index.js';

const count = Number(process.argv[2] ?? 100_000);
const random = seededRandom(42);
const start = Date.parse('2026-01-01T00:00:00Z');
const lines: RecordingLine[] = [];
for (let i = 0; i < count; i += 1) {
  const low = 540 + 20 * Math.floor(random() * 12);
  const amount = 200 + 50 * Math.floor(random() * 30);
  const level = Math.floor(random() * 3);
  lines.push(
    recordingLineSchema.parse({
      v: 1,
      seen_at: new Date(start + i * 60_000).toISOString(),
      loan_request: {
        id: 1_000_000 + i,
        borrower: { id: 500_000 + i, avatar: 1, initial: 'A.B.', svc_score: 700, credit_score: `${low}-${low + 50}`, svc_color: level, hard_inquiries: Math.floor(random() * 6), deregatory_mark: 0, total_accounts: 8, credit_utilization: 0.3, annual_income: 30_000 + Math.floor(random() * 60_000), payment_history: 95, completed_loans_count: Math.floor(random() * 4) },
        borrower_card_color: level,
        loan_amount: `${amount}.00`,
        loan_terms: [3, 6, 12, 18, 24][Math.floor(random() * 5)],
        total_amount: `${amount + 20}.00`,
        total_fees: '20.00',
        fee_legislative: '5.00',
        fee_extra: '0.00',
        fee_svc: '15.00',
        created: new Date(start + i * 60_000).toISOString(),
        fav_loan_request_id: null,
        svc_prediction_purchased: false,
        count_views: 1,
        census_tract_geo_id: '06037206300',
        max_interest_rate: 0.4 + random() * 0.6,
        borrower_data_aggs: { avg_credit: 1500, avg_debit: 1300, sum_values: [] },
      },
      outcome: { status: random() < 0.85 ? 'completed' : 'default', best_competing_rate: random() < 0.3 ? null : 0.1 + random() * 0.5, repaid_fraction: 1 },
    }),
  );
}
for (const line of lines) if (line.outcome?.status === 'default') line.outcome.repaid_fraction = Math.round(random() * 60) / 100;

const recording = prepareRecording(lines);
const strategy = await loadStrategyFile(new URL('../strategies/balanced.yaml', import.meta.url).pathname);
const options = { startingBalanceCents: 10_000_000 };
runBacktest(recording, [strategy], options); // warm up
let t0 = performance.now();
const result = runBacktest(recording, [strategy], options);
let seconds = (performance.now() - t0) / 1000;
console.log(`backtest: ${count} requests in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} requests/s (one core; ${result.summary.offers} offers, ${result.summary.funded} funded)`);

const trials = 8;
t0 = performance.now();
const report = await tune(recording, strategy, { trials, seed: 1, objective: { objective: 'net_return', maxDefault: 0.1 }, split: { kind: 'split', trainShare: 0.7 }, backtest: options });
seconds = (performance.now() - t0) / 1000;
const evaluations = trials * Math.round(count * 0.7) + 6 * Math.round(count * 0.3) + 2 * Math.round(count * 0.3);
console.log(`tune (in-process): ${trials} trials in ${seconds.toFixed(2)} s = ${(trials / seconds).toFixed(2)} trial-evaluations/s on ${count} requests (${Math.round(evaluations / seconds)} request-evaluations/s); ${report.verdict.split(';')[0] ?? ''}`);

// The same tune on worker threads (they read the recording from a file, as `lendbot tune` does).
const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const dir = await mkdtemp(join(tmpdir(), 'lendbot-bench-'));
const file = join(dir, 'rec.jsonl');
await writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n'));
const threads = workerCount();
const split = { kind: 'split', trainShare: 0.7 } as const;
t0 = performance.now();
await tune(recording, strategy, {
  trials,
  seed: 1,
  objective: { objective: 'net_return', maxDefault: 0.1 },
  split,
  backtest: options,
  evaluator: workerPoolEvaluator({ file, period: {}, strategyFile: strategy.file, split }, threads),
});
seconds = (performance.now() - t0) / 1000;
console.log(`tune (${threads} worker threads): ${trials} trials in ${seconds.toFixed(2)} s = ${(trials / seconds).toFixed(2)} trial-evaluations/s (workers load the recording first)`);
await rm(dir, { recursive: true, force: true });
