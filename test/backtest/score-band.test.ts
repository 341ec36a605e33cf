/**
 * A request's score band in the backtest's "By score band" table: provider B's band when the
 * recording holds a valid provider B result, else "unscored". Provider A's results are passed
 * over without parsing them as provider B's (segment-stats.ts), with the same verdicts as before.
 */
import { describe, expect, it } from 'vitest';
import { scoreBandOf } from '../../src/backtest/segment-stats.js';
import type { ProviderResult } from '../../src/domain/index.js';

const providerA = { loan_request_id: 7, model_version: 'a-2', a_score: 640, a_score_request_id: 'r-1', timestamp: '2026-01-01T00:00:00Z' };
const providerB = { p2p_score: { date: '2026-01-01', score: 61, score_band: 'good', loan_request_id: '7' } };

describe('scoreBandOf', () => {
  it("is provider B's band, whichever name and order the providers come in", () => {
    expect(scoreBandOf({ provider_a: providerA, provider_b: providerB } as Record<string, ProviderResult>)).toBe('good');
    expect(scoreBandOf({ zeta: providerB, alpha: providerA } as Record<string, ProviderResult>)).toBe('good');
  });

  it('reads the same band from the scores of a checked line without parsing each result as provider B', () => {
    const checked = [
      { provider_a: providerA, provider_b: providerB },
      { zeta: providerB, alpha: providerA },
      { provider_a: providerA },
      // A valid provider A result with a p2p_score of no provider B shape: passed over either way.
      {
        odd: { ...providerA, p2p_score: { score: 140 } },
        provider_b: { ...providerB, p2p_score: { ...providerB.p2p_score, score_band: 'poor' } },
      },
      {},
    ] as unknown as Array<Record<string, ProviderResult>>;
    for (const scores of checked) expect(scoreBandOf(scores, true)).toBe(scoreBandOf(scores));
    expect(checked.map((scores) => scoreBandOf(scores, true))).toEqual(['good', 'good', 'unscored', 'poor', 'unscored']);
  });

  it('is unscored without a valid provider B result', () => {
    expect(scoreBandOf(undefined)).toBe('unscored');
    expect(scoreBandOf({})).toBe('unscored');
    expect(scoreBandOf({ provider_a: providerA } as Record<string, ProviderResult>)).toBe('unscored');
    // A p2p_score that is not provider B's shape (a score out of range, no band) scores nothing.
    const outOfRange = { p2p_score: { ...providerB.p2p_score, score: 140 } };
    const noBand = { p2p_score: { date: '2026-01-01', score: 61, loan_request_id: '7' } };
    const notAnObject = { ...providerA, p2p_score: 'good' };
    expect(scoreBandOf({ b: outOfRange, c: noBand, d: notAnObject } as unknown as Record<string, ProviderResult>)).toBe('unscored');
  });
});
