// How much a backtest could not judge: offers on requests the recording has no outcome for (or
// nobody funded, without `if_funded`), counted in the summary, shown in the text report, with a
// warning above 20 % of the offers.
import { describe, expect, it } from 'vitest';
import { lacksOutcome, runBacktest, UNJUDGED_WARN_SHARE } from '../../src/backtest/index.js';
import { formatBacktest } from '../../src/cli/commands/backtest/report-text.js';
import type { Outcome, RecordingLine } from '../../src/recording/index.js';
import { recordingLine } from './recording-fixtures.js';
import { flatStrategy } from './strategy-fixtures.js';

const START = Date.parse('2026-01-01T00:00:00Z');

/** One request a day, each with the given outcome (undefined: none). */
function recording(outcomes: ReadonlyArray<Outcome | undefined>): RecordingLine[] {
  return outcomes.map((outcome, i) =>
    recordingLine({
      id: 30_000 + i,
      seenAt: new Date(START + i * 86_400_000).toISOString().replace('.000Z', 'Z'),
      request: { borrower: { id: 80_000 + i, credit_score: '700-749' }, max_interest_rate: 0.3 },
      ...(outcome ? { outcome } : {}),
    }),
  );
}

const repaid: Outcome = { status: 'completed', funded_rate: 0.2, repaid_fraction: 1 };
const nobody: Outcome = { status: 'unfunded' };
const nobodyButKnown: Outcome = { status: 'unfunded', if_funded: { status: 'completed', repaid_fraction: 1 } };

describe('offers judged without an outcome', () => {
  it('are the lines without an outcome and the unfunded ones without if_funded', () => {
    const [none, unfunded, known, funded] = recording([undefined, nobody, nobodyButKnown, repaid]);
    expect([none, unfunded, known, funded].map((line) => lacksOutcome(line!))).toEqual([true, true, false, false]);
  });

  it('are counted in the summary and warned about in the report when over a fifth of the offers', () => {
    // 6 of 10 offers without anything to judge them by.
    const lines = recording([repaid, repaid, nobodyButKnown, undefined, nobody, undefined, repaid, undefined, nobody, undefined]);
    const result = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 1_000_000 });
    expect(result.summary).toMatchObject({ offers: 10, unjudgedOffers: 6, unjudgedShare: 0.6 });
    const text = formatBacktest(result, 'rec.jsonl');
    expect(text).toContain('Offers judged without an outcome: 6 of 10 (60.0%)');
    expect(text).toContain(
      'warning: 6 of 10 offers (60.0%) were on requests the recording has no outcome for: the backtest could not judge them (they count as never won), so its figures say little about this strategy',
    );
  });

  it('say nothing alarming when the recording knows (nearly) every outcome', () => {
    const lines = recording([repaid, repaid, repaid, repaid, nobodyButKnown, undefined]);
    const result = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 1_000_000 });
    expect(result.summary.unjudgedShare).toBeCloseTo(1 / 6, 10);
    expect(result.summary.unjudgedShare).toBeLessThan(UNJUDGED_WARN_SHARE);
    const text = formatBacktest(result, 'rec.jsonl');
    expect(text).toContain('Offers judged without an outcome: 1 of 6 (16.7%)');
    expect(text).not.toContain('no outcome for');
  });

  it('are not counted when offers never settle (a dry-run replay judges nothing)', () => {
    const result = runBacktest(recording([undefined, undefined]), [flatStrategy()], {
      startingBalanceCents: 1_000_000,
      market: { settle: false },
    });
    expect(result.summary).toMatchObject({ offers: 2, unjudgedOffers: 0, unjudgedShare: 0 });
    expect(formatBacktest(result, 'rec.jsonl')).not.toContain('judged without an outcome');
  });
});
