/**
 * Synthetic recordings for backtest and tuning tests. Every line is parsed through
 * recordingLineSchema, so fixtures cannot drift from the format.
 */
import { writeFile } from 'node:fs/promises';
import { formatRecordingLine } from '../../src/recording/index.js';
import { recordingLineSchema, type Outcome, type RecordingLine } from '../../src/recording/index.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import type { LoanRequest } from '../../src/domain/index.js';
import type { MarketAssumptions } from '../../src/backtest/market-model.js';
import { marketResponse } from '../../src/engine/index.js';
import { loanRequest, type LoanRequestOverrides } from '../engine/fixtures.js';

export interface LineOverrides {
  id: number;
  seenAt: string;
  request?: LoanRequestOverrides;
  outcome?: Outcome;
  scores?: Record<string, unknown>;
  dataAggs?: unknown;
}

/** One recording line: a request (test/engine fixtures) seen at `seenAt`, with its outcome. */
export function recordingLine(overrides: LineOverrides): RecordingLine {
  const request: LoanRequest = loanRequest({ id: overrides.id, created: overrides.seenAt, ...overrides.request });
  return recordingLineSchema.parse({
    v: 1,
    seen_at: overrides.seenAt,
    loan_request: request,
    ...(overrides.outcome ? { outcome: overrides.outcome } : {}),
    ...(overrides.scores ? { scores: overrides.scores } : {}),
    ...(overrides.dataAggs ? { data_aggs: overrides.dataAggs } : {}),
  });
}

/** Writes lines (and raw text lines, for bad-line tests) as a JSONL file. */
export async function writeRecording(file: string, lines: ReadonlyArray<RecordingLine | string>): Promise<void> {
  await writeFile(file, lines.map((line) => (typeof line === 'string' ? line : formatRecordingLine(line))).join('\n') + '\n');
}

const HOUR_MS = 3_600_000;

/** What may differ between synthetic recordings besides their outcomes. */
export interface SyntheticShape {
  /** Hours between requests (default 1). */
  spacingHours?: number;
  /** loan_terms of every request (default: the fixture request's 12). */
  loanTerms?: number;
  /** The first request id and borrower id (defaults 10,000 and 50,000). */
  firstId?: number;
  firstBorrowerId?: number;
}

/**
 * `count` requests of $500 an hour apart (or `shape.spacingHours`) from 2026-01-01, borrowers'
 * credit score ranges from "540-590" to "760-810" in steps of 20. `repaid(low, random)` says what
 * share of the total due each repays (1 = completed, less = default). Nobody else offers.
 */
export function syntheticRecording(
  count: number,
  seed: number,
  repaid: (creditLow: number, random: () => number) => number,
  shape: SyntheticShape = {},
): RecordingLine[] {
  const { spacingHours = 1, loanTerms, firstId = 10_000, firstBorrowerId = 50_000 } = shape;
  const random = seededRandom(seed);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const lines: RecordingLine[] = [];
  for (let i = 0; i < count; i += 1) {
    const low = 540 + 20 * Math.floor(random() * 12);
    const fraction = repaid(low, random);
    lines.push(
      recordingLine({
        id: firstId + i,
        seenAt: new Date(start + i * spacingHours * HOUR_MS).toISOString().replace('.000Z', 'Z'),
        request: {
          borrower: { id: firstBorrowerId + i, credit_score: `${low}-${low + 50}` },
          loan_amount: '500.00',
          total_amount: '500.00',
          total_fees: '0.00',
          fee_legislative: '0.00',
          fee_svc: '0.00',
          ...(loanTerms === undefined ? {} : { loan_terms: loanTerms }),
          max_interest_rate: 0.3,
        },
        outcome: { status: fraction >= 1 ? 'completed' : 'default', best_competing_rate: null, repaid_fraction: fraction },
      }),
    );
  }
  return lines;
}

/**
 * A market where every borrower accepts any offer nobody undercuts and no loan is prepaid: for
 * tests about the accounting or the guard rather than about the market's draws. (A take-up
 * midpoint far beyond the request's maximum makes take-up 1 at every allowed rate.)
 */
export const CERTAIN_MARKET: Partial<MarketAssumptions> = {
  response: marketResponse({ takeUp: { midpoint: 1e9 }, competition: { width: 0 } }),
  prepayment: { share: 0, atTermFraction: 0.5 },
};
