/**
 * A daemon's own recording (docs/recording-format.md): a loan of ours has `offer` accepted at the
 * loan's `funded_rate`. The backtest reads that rate as ours, not a competitor's to beat
 * (src/backtest/own-accepted-offer.ts): an offer at or below it is taken as the borrower took
 * ours; above it the curve judges, given that acceptance, or the borrower world does.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET, judgeOffer } from '../../src/backtest/market-model.js';
import { marketDraw } from '../../src/backtest/market-draws.js';
import { acceptProbability } from '../../src/engine/index.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { recordingLine } from './recording-fixtures.js';

const ours = (id: number, status: 'accepted' | 'rejected' | 'lost' = 'accepted', fundedRate = 0.2): RecordingLine => ({
  ...recordingLine({ id, seenAt: '2026-01-01T00:00:00Z', outcome: { status: 'completed', funded_rate: fundedRate, repaid_fraction: 1 } }),
  offer: { rate: 0.2, status, at: '2026-01-01T00:00:00Z' },
});
const market = { ...DEFAULT_MARKET, prepayment: { share: 0, atTermFraction: 0.5 } };

describe('our own accepted offer in a recording', () => {
  it('takes an offer at or below the rate the borrower took from us, with no draw', () => {
    for (let id = 1; id <= 50; id += 1) {
      expect(judgeOffer(ours(id), 0.2, market)).toMatchObject({ won: true, probability: 1 });
      expect(judgeOffer(ours(id), 0.12, market)).toMatchObject({ won: true, probability: 1 });
    }
  });

  it('judges a dearer offer by the curve, given that the borrower took ours, and names no competitor', () => {
    const line = ours(3);
    const at = (rate: number) => acceptProbability(rate, 0.6, { kind: 'none' }, market.response, market.comparison, 0);
    const verdict = judgeOffer(line, 0.3, market);
    expect(verdict.probability).toBeCloseTo(Math.min(1, at(0.3) / at(0.2)), 12);
    expect(verdict.won).toBe(marketDraw(market.seed, 3, 'accept') < verdict.probability);
    // A world's borrower: the made-up reservation rate decides above ours.
    expect(judgeOffer(line, 0.3, market, { reservation: () => 0.35 }).won).toBe(true);
    expect(judgeOffer(line, 0.3, market, { reservation: () => 0.25 })).toMatchObject({ won: false, reason: 'declined' });
    // Even a world that replaces recorded answers cannot undo what the borrower did at our rate.
    expect(judgeOffer(line, 0.2, market, { reservation: () => 0, replacesRecorded: true }).won).toBe(true);
  });

  it('reads a funded rate that is not our accepted offer as before: a rate to beat', () => {
    for (const line of [ours(5, 'rejected'), ours(5, 'lost'), ours(5, 'accepted', 0.18)]) {
      expect(judgeOffer(line, 0.2, market)).toMatchObject({ won: false, reason: 'outbid' });
    }
  });
});
