/**
 * The recording line check (src/recording/line-check.ts) is a fast path of the zod schema
 * (src/recording/recording-schema.ts): on valid and invalid lines alike it gives zod's verdict,
 * and parseRecordingLine, the one way every reader and writer reads a line, gives what zod alone
 * gives: the same line, or the same message (path and text) for a bad one.
 */
import { describe, expect, it } from 'vitest';
import { parseRecordingLine, zodRecordingLine } from '../../src/recording/recording-io.js';
import { recordingLineCheck } from '../../src/recording/line-check.js';
import { recordingLineSchema } from '../../src/recording/recording-schema.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { syntheticRecording } from '../backtest/recording-fixtures.js';
import { mutate } from './mutated-lines.js';

type Line = Record<string, Record<string, unknown>>;

// Fields zod reads as nullable (merged into one JSON Schema type list) or refines (amounts).
const EDITS: Array<(line: Line) => void> = [
  (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), svc_score: null }),
  (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), svc_score: 'x' }),
  (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), annual_income: 1.5 }),
  (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), credit_utilization: null }),
  (l) => (l.loan_request!.borrower = { ...(l.loan_request!.borrower as object), credit_utilization: '0.3' }),
  (l) => (l.loan_request!.borrower_data_aggs = null),
  (l) => (l.loan_request!.borrower_data_aggs = 5),
  (l) => (l.loan_request!.borrower_data_aggs = { sum_values: [{ CREDIT: 1 }] }),
  (l) => (l.loan_request!.highlight = null),
  (l) => (l.loan_request!.highlight = { status: 1, title: 't' }),
  (l) => (l.loan_request!.fav_loan_request_id = null),
  (l) => (l.loan_request!.fav_loan_request_id = 'x'),
  (l) => (l.loan_request!.fee_svc = '1.005'),
  (l) => (l.loan_request!.fee_svc = ' 3.00'),
  (l) => (l.loan_request!.fee_svc = null),
  (l) => (l.loan_request!.crypto_amount = '12'),
  (l) => (l.loan_request!.crypto_amount = 12),
  (l) => (l.outcome = { status: 'completed', best_competing_rate: null }),
  (l) => (l.outcome = { status: 'completed', best_competing_rate: -1 }),
  (l) => (l.outcome = { status: 'completed', resolved_at: '2026-13-01T00:00:00Z' }),
];

/** Lines with nullable, refined and mistyped fields, each as edited and once more mutated. */
function edgeLines(): unknown[] {
  const random = seededRandom(9);
  const lines = syntheticRecording(100, 4, () => 1) as unknown as Line[];
  return lines.flatMap((line, index) => {
    const copy = structuredClone(line);
    EDITS[index % EDITS.length]?.(copy);
    return [copy, mutate(copy, random)];
  });
}

describe('the recording line check, a fast path of the zod schema', () => {
  it("gives zod's verdict on every line: nullable fields, refined amounts, wrong types", () => {
    const check = recordingLineCheck();
    if (check === undefined) throw new Error('no fast check: run node --import tsx scripts/generate-line-check.ts');
    let refused = 0;
    for (const json of edgeLines()) {
      const zod = recordingLineSchema.safeParse(json).success;
      expect(check(json), JSON.stringify(json)).toBe(zod);
      if (!zod) refused += 1;
    }
    expect(refused).toBeGreaterThan(20);
  });

  it('reads every line as zod alone reads it: the same line, or the same path and message', () => {
    const texts = [...edgeLines().map((json) => JSON.stringify(json)), '{not json', '[]', 'null', '{"v": 1}'];
    let bad = 0;
    for (const text of texts) {
      const reference = ((): ReturnType<typeof zodRecordingLine> => {
        try {
          return zodRecordingLine(JSON.parse(text));
        } catch (error) {
          return { ok: false, message: `not JSON (${(error as Error).message})` };
        }
      })();
      expect(parseRecordingLine(text), text).toEqual(reference);
      if (!reference.ok) bad += 1;
    }
    expect(bad).toBeGreaterThan(20);
  });

  it('passes a good line as it was written, key order and unknown fields included: zod never saw it', () => {
    const [line] = syntheticRecording(1, 1, () => 1) as unknown as Line[];
    // Keys in an order zod's output would not keep (it writes its schema's keys first).
    const text = JSON.stringify({ note: 'kept', loan_request: line!.loan_request, seen_at: line!.seen_at, v: 1 });
    const read = parseRecordingLine(text);
    expect(read.ok).toBe(true);
    expect(read.ok && JSON.stringify(read.value)).toBe(text);
  });
});
