// The paper book's one computation: where its acceptance comes from (live fates, the paper offers'
// requests, or the assumed curve, said so), the book priced with it, the profit's interval over
// the acceptance's own, and the return on the balance it assumes.
import { describe, expect, it } from 'vitest';
import { LIVE_FATES_MIN, paperBookFigures, type PaperBookInput } from '../../src/ops/paper-book-figures.js';
import { OFFER_VIEW_STATES, type PaperBookSummary } from '../../src/store/index.js';
import { wilson } from '../../src/math/index.js';

const DAY = 86_400_000;
const FIRST = Date.parse('2026-03-01T00:00:00.000Z');

/** Ten modelled offers of 1,000.00, each accepted with P 0.4 by the curve, +100.00 repaid, -600.00 defaulted, repaid with p 0.9. */
function summary(fates: { taken: number; untaken: number }): PaperBookSummary {
  const profit = 0.9 * 10_000 - 0.1 * 60_000; // E[L] = 3,000 cents
  const square = 0.9 * 1e8 + 0.1 * 3.6e9; // E[L²]
  return {
    basis: 'modelled',
    offers: 10,
    notModelled: 0,
    expectedAccepted: 4,
    expectedLentCents: 400_000,
    expectedProfitCents: 12_000,
    sdCents: 0,
    interval95: { lowCents: 0, highCents: 0 },
    requests: { listed: 0, gone: 0, not_scanned: 10 },
    fates,
    moments: {
      amountCents: 1_000_000,
      profit: 10 * profit,
      square: 10 * square,
      profitSquared: 10 * profit * profit,
      curveProfit: 10 * 0.4 * profit,
      curveSquare: 10 * 0.4 * square,
      curveProfitSquared: 10 * (0.4 * profit) ** 2,
    },
    firstAt: new Date(FIRST).toISOString(),
    learned: { offers: 0, evidence: 0 },
  };
}

const noLive = Object.fromEntries(OFFER_VIEW_STATES.map((state) => [state, 0])) as PaperBookInput['liveOffers'];

/** The figures of `book` on a balance of 5,000.00, `days` after the first paper offer. */
function figuresOf(book: PaperBookSummary, days: number, liveOffers = noLive): ReturnType<typeof paperBookFigures> {
  return paperBookFigures({ summary: book, liveOffers, balanceCents: 500_000, nowMs: FIRST + days * DAY });
}

describe('paper book figures', () => {
  it('says the curve is assumed when no fate is known, and gives no return before a week', () => {
    const book = figuresOf(summary({ taken: 0, untaken: 0 }), 3);
    expect(book.acceptance).toEqual({
      source: 'assumed_curve',
      label: 'acceptance: assumed curve: no fates yet',
      rate: 0.4,
      interval95: null,
      n: 0,
      curveRate: 0.4,
      curve: 'assumed',
    });
    expect(book.lifetimeProfitCents).toBe(12_000);
    expect(book.expectedAccepted).toBe(4);
    expect(book.capital).toEqual({ balanceCents: 500_000, days: 3, annualReturn: null, annualReturn95: null });
    expect(book.words).toBe(
      "acceptance 40.0 % is the strategy's assumption, not measured: nothing was sent; lifetime profit is earned over the loans' terms; no return on capital before 7 days of paper offers",
    );
  });

  it('caps the curve at the share of requests the market took while our offers were out', () => {
    // 1 of 8 requests taken by another lender, 7 still listed after our offers' life: at most 12.5 %.
    const book = figuresOf(summary({ taken: 1, untaken: 7 }), 73);
    const w = wilson(1, 8);
    expect(book.acceptance).toEqual({
      source: 'paper_fates',
      label: 'acceptance: observed fates of 8 paper offers: at most 12.5 % (the assumed curve said 40.0 %)',
      rate: 0.125,
      interval95: { low: w.low, high: 0.4 },
      n: 8,
      curveRate: 0.4,
      curve: 'assumed',
    });
    // The curve scaled by 0.125 / 0.4.
    expect(book.expectedAccepted).toBeCloseTo(1.25, 12);
    expect(book.expectedLentCents).toBe(125_000);
    expect(book.lifetimeProfitCents).toBe(3750);
    // Over 73 days on 5,000.00: 37.50 × 365 / 73 / 5,000 = 3.75 % a year.
    expect(book.capital.annualReturn).toBeCloseTo(0.0375, 12);
    expect(book.lifetimeProfit95.lowCents).toBeLessThan(0);
    expect(book.lifetimeProfit95.highCents).toBeGreaterThan(12_000);
    expect(book.words).toMatch(
      /^acceptance at most 12\.5 % \(95 % 2\.2 % to 40\.0 %, 8 offers\); .*; return on the balance at this pace, a year: 3\.8 %$/,
    );
    // Where the curve assumes less than the market allows, it stays, said so.
    const loose = figuresOf(summary({ taken: 6, untaken: 2 }), 73);
    expect(loose.acceptance).toMatchObject({ source: 'paper_fates', rate: 0.4, interval95: null });
    expect(loose.acceptance.label).toBe('acceptance: assumed curve, within the at most 75.0 % the fates of 8 paper offers allow');
    expect(loose.lifetimeProfitCents).toBe(12_000);
  });

  it(`takes the live offers' observed share once ${LIVE_FATES_MIN} have a fate`, () => {
    const live = { ...noLive, accepted: 2, funded: 3, lost: 30, expired: 15, placed: 9 };
    const book = figuresOf(summary({ taken: 1, untaken: 7 }), 73, live);
    const w = wilson(5, 50);
    expect(book.acceptance).toEqual({
      source: 'live_fates',
      label: 'acceptance: observed fates of 50 live offers',
      rate: 0.1,
      interval95: { low: w.low, high: w.high },
      n: 50,
      curveRate: 0.4,
      curve: 'assumed',
    });
    // 0.1 in place of every P(accept): 0.1 × ΣE[L] = 3,000, 1 loan, 1,000.00 lent.
    expect(book.lifetimeProfitCents).toBe(3000);
    expect(book.expectedAccepted).toBeCloseTo(1, 12);
    expect(book.expectedLentCents).toBe(100_000);
    // Fewer than the minimum: the paper offers' fates again.
    const few = figuresOf(summary({ taken: 1, untaken: 7 }), 73, { ...noLive, accepted: 1, lost: 5 });
    expect(few.acceptance.source).toBe('paper_fates');
  });

  it('names the learned take-up where a learner with fates priced the offers', () => {
    const learned = { ...summary({ taken: 0, untaken: 0 }), learned: { offers: 10, evidence: 240 } };
    const book = figuresOf(learned, 3);
    expect(book.acceptance).toMatchObject({
      source: 'learned_take_up',
      label: 'acceptance: learned take-up (10 of 10 offers, 240 fates learned): no fates of these offers yet',
      rate: 0.4,
      interval95: null,
      curve: 'learned',
    });
    expect(book.words).toMatch(/^acceptance 40\.0 % is the strategy's learned take-up, not measured on these offers: nothing was sent; /);
    const capped = figuresOf({ ...learned, fates: { taken: 1, untaken: 7 } }, 3);
    expect(capped.acceptance.label).toBe(
      'acceptance: observed fates of 8 paper offers: at most 12.5 % (the learned take-up (10 of 10 offers, 240 fates learned) said 40.0 %)',
    );
  });
});
