/**
 * The generated recording the backtest, replay and tune benches share: `count` requests one a
 * minute from 2026-01-01, credit scores, amounts, terms and rate caps drawn from a seeded
 * generator, 15 % defaults, a competing rate on 70 % of them.
 */
import { writeFile } from 'node:fs/promises';
import { recordingLineSchema, type RecordingLine } from '../src/recording/index.js';
import { seededRandom } from '../src/engine/market/seeded-normals.js';

export function syntheticLines(count: number, seed = 42): RecordingLine[] {
  const random = seededRandom(seed);
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
          borrower: {
            id: 500_000 + i,
            avatar: 1,
            initial: 'A.B.',
            svc_score: 700,
            credit_score: `${low}-${low + 50}`,
            svc_color: level,
            hard_inquiries: Math.floor(random() * 6),
            deregatory_mark: 0,
            total_accounts: 8,
            credit_utilization: 0.3,
            annual_income: 30_000 + Math.floor(random() * 60_000),
            payment_history: 95,
            completed_loans_count: Math.floor(random() * 4),
          },
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
        outcome: {
          status: random() < 0.85 ? 'completed' : 'default',
          best_competing_rate: random() < 0.3 ? null : 0.1 + random() * 0.5,
          repaid_fraction: 1,
        },
      }),
    );
  }
  for (const line of lines) if (line.outcome?.status === 'default') line.outcome.repaid_fraction = Math.round(random() * 60) / 100;
  return lines;
}

/** Writes `lines` as a JSON Lines file. */
export async function writeLines(file: string, lines: readonly RecordingLine[]): Promise<void> {
  await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
