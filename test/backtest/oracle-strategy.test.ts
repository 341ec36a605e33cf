/** The greedy oracle of bench/decision-quality.ts: reads outcomes, lends only to full repayers. */
import { describe, expect, it } from 'vitest';
import { oracleStrategy } from '../../src/backtest/oracle-strategy.js';
import { prepareRecording } from '../../src/backtest/index.js';
import { recordingLine } from './recording-fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const at = (hour: number): string => new Date(Date.parse('2026-01-01T00:00:00Z') + hour * 3_600_000).toISOString();

describe('the oracle strategy', () => {
  const lines = [
    recordingLine({ id: 1, seenAt: at(0), outcome: { status: 'completed', best_competing_rate: null, repaid_fraction: 1 } }),
    recordingLine({ id: 2, seenAt: at(1), outcome: { status: 'default', best_competing_rate: null, repaid_fraction: 0.3 } }),
    recordingLine({ id: 3, seenAt: at(2), outcome: { status: 'unfunded', best_competing_rate: null } }),
    recordingLine({
      id: 4,
      seenAt: at(3),
      outcome: { status: 'unfunded', best_competing_rate: null, if_funded: { status: 'completed', repaid_fraction: 1 } },
    }),
    recordingLine({
      id: 5,
      seenAt: at(4),
      outcome: { status: 'completed', funded_rate: 0.2, best_competing_rate: 0.2, repaid_fraction: 1 },
    }),
  ];
  const recording = prepareRecording(lines);
  const decide = (id: number, hurdle = 0) => {
    const line = lines.find((l) => l.loan_request.id === id);
    if (!line) throw new Error(`no line ${id}`);
    return oracleStrategy(recording, undefined, hurdle).evaluate(line.loan_request, {});
  };

  it('offers only to borrowers the recording says repay in full, including if_funded', () => {
    expect([1, 2, 3, 4, 5].map((id) => decide(id).action)).toEqual(['offer', 'skip', 'skip', 'offer', 'offer']);
    expect(decide(2).reasons.map(reasonText)).toEqual(['oracle: does not repay in full']);
  });

  it('prices within the allowed range, and at or under a competing rate the borrower took', () => {
    const alone = decide(1).rate ?? 0;
    expect(alone).toBeGreaterThan(0.03);
    expect(alone).toBeLessThanOrEqual(0.6);
    expect(decide(5).rate ?? 1).toBeLessThanOrEqual(0.2);
  });

  it('keeps its cash for loans that beat the hurdle', () => {
    // 1000.00 over 12 months at no more than 0.6 a year cannot earn a 2.0 hurdle.
    expect(decide(1, 2).action).toBe('skip');
    expect(decide(1, 2).reasons.map(reasonText)).toEqual(['oracle: no rate earns']);
  });
});
