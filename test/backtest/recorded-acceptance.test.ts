/**
 * Recorded acceptance (docs/backtesting.md): a line's reservation_rate and recorded competing
 * rate decide, with no curve and no draw, and the ledger is what a hand computation says.
 */
import { describe, expect, it } from 'vitest';
import { borrowerChoice } from '../../src/backtest/recorded-acceptance.js';
import { DEFAULT_MARKET, judgeOffer, type MarketAssumptions } from '../../src/backtest/market-model.js';
import { runBacktest } from '../../src/backtest/index.js';
import { rateRatio, wilson } from '../../src/math/index.js';
import { marketResponse } from '../../src/engine/index.js';
import { FLAT_20_YAML, HAND_LINES, HAND_VERDICTS, NO_PREPAYMENT } from './hand-recording.js';
import { flatStrategy } from './strategy-fixtures.js';

describe('the borrower’s choice', () => {
  it('takes the cheapest offer at or below the reservation rate; a tie goes to the competitor', () => {
    const none = { kind: 'none' } as const;
    expect(borrowerChoice(0.2, 0.25, none)).toBe('won');
    expect(borrowerChoice(0.2, 0.2, none)).toBe('won');
    expect(borrowerChoice(0.2, 0.19, none)).toBe('declined');
    expect(borrowerChoice(0.2, 0.3, { kind: 'taken', rate: 0.22 })).toBe('won');
    expect(borrowerChoice(0.2, 0.3, { kind: 'taken', rate: 0.2 })).toBe('outbid');
    expect(borrowerChoice(0.2, 0.3, { kind: 'taken', rate: 0.18 })).toBe('outbid');
    expect(borrowerChoice(0.2, 0, { kind: 'refused', rate: 0.25 })).toBe('declined');
    expect(borrowerChoice(0.2, 0, { kind: 'refused', rate: 0.15 })).toBe('outbid');
    expect(borrowerChoice(0.2, 0.21, { kind: 'refused', rate: 0.25 })).toBe('won');
  });

  it('uses no curve and no draw: every seed, every take-up curve and soft comparison give the same verdicts', () => {
    const markets: MarketAssumptions[] = [
      DEFAULT_MARKET,
      { ...DEFAULT_MARKET, seed: 7 },
      { ...DEFAULT_MARKET, comparison: 'soft' },
      { ...DEFAULT_MARKET, response: marketResponse({ takeUp: { midpoint: 0.05, steepness: 40 } }) },
    ];
    for (const market of markets) {
      const verdicts = HAND_LINES.map((line) => judgeOffer(line, 0.2, market));
      expect(verdicts.map((v) => (v.won ? 'won' : v.reason))).toEqual(HAND_VERDICTS);
      expect(verdicts.map((v) => v.probability)).toEqual(HAND_VERDICTS.map((v) => (v === 'won' ? 1 : 0)));
    }
  });
});

describe('the ledger of a recording with reservation rates (computed by hand)', () => {
  const result = runBacktest(HAND_LINES, [flatStrategy(FLAT_20_YAML, 'flat20.yaml')], {
    startingBalanceCents: 5_000_000,
    market: NO_PREPAYMENT,
    recordDecisions: true,
  });

  it('has the verdicts of the rule', () => {
    expect(result.decisions.map((d) => [d.loan_request_id, d.action, d.rate, d.market])).toEqual(
      HAND_LINES.map((line, i) => [line.loan_request.id, 'offer', 0.2, HAND_VERDICTS[i]]),
    );
  });

  it('earns what the schedule says, to the cent', () => {
    // 1000.00 at 0.20 over 12 months: 92.63 a month, 1111.56 in all, 111.56 of interest.
    // Borrowers 1, 2 and 4 repay in full: 3 x 111.56 = 334.68 of interest.
    // Borrower 8 repays 40 % of the total due at our rate (no funded_rate): 0.4 x 1111.56 = 444.62:
    // four instalments (370.52, interest 16.67 + 15.40 + 14.11 + 12.80 = 58.98: a sixtieth of the
    // principal owed, 1000.00, 924.04, 846.81, 768.29), then the principal still owed,
    // 1000 - (370.52 - 58.98) = 688.46, is written off in month 5 and the 74.10 left arrives
    // three months later: 58.98 + 74.10 - 688.46 = -555.38 = 444.62 - 1000.
    expect(result.loans.map((l) => [l.loanRequestId, l.outcome, l.profitCents])).toEqual([
      [1, 'repaid', 11_156],
      [2, 'repaid', 11_156],
      [4, 'repaid', 11_156],
      [8, 'defaulted', -55_538],
    ]);
    expect(result.summary).toMatchObject({
      offers: 8,
      funded: 4,
      interestCents: 3 * 11_156 + 5898,
      lossCents: 68_846,
      recoveryCents: 7410,
      dataSpendCents: 0,
      netCents: 3 * 11_156 - 55_538,
    });
  });

  it('counts won, outbid and declined, contested and not, and the default rates with their intervals', () => {
    const [row] = result.offerStats;
    expect(result.offerStats).toHaveLength(1);
    expect(row).toMatchObject({
      strategy: 'flat',
      offers: 8,
      won: 4,
      funded: 4,
      outbid: 2,
      declined: 2,
      unjudged: 0,
      expired: 0,
      recordedAcceptance: 8,
      // Contested: 4, 5, 6 (taken) and 7, 8 (refused); uncontested 1, 2, 3.
      contested: { offers: 5, won: 2, rate: 0.4 },
      uncontested: { offers: 3, won: 2 },
    });
    // Funded 1, 2, 4, 8: one default. Offered: all eight, two defaults (6 and 8). Population: the same eight.
    expect(row?.fundedDefault).toEqual(wilson(1, 4));
    expect(row?.offeredDefault).toEqual(wilson(2, 8));
    expect(row?.populationDefault).toEqual(wilson(2, 8));
    expect(row?.adverseSelection.ratio).toBe(1);
  });
});

describe('intervals', () => {
  it('Wilson 95 %: 1 of 4 is 4.56 % to 69.94 %; none of 0 is unknown', () => {
    const r = wilson(1, 4);
    expect(r.rate).toBe(0.25);
    expect(r.low?.toFixed(4)).toBe('0.0456');
    expect(r.high?.toFixed(4)).toBe('0.6994');
    expect(wilson(0, 0)).toEqual({ defaults: 0, n: 0, rate: null, low: null, high: null });
  });

  it('the ratio of two rates: 20 of 100 against 10 of 100 is 2 with the log-method interval', () => {
    const r = rateRatio(wilson(20, 100), wilson(10, 100));
    expect(r.ratio).toBeCloseTo(2, 12);
    // se = sqrt(1/20 - 1/100 + 1/10 - 1/100) = sqrt(0.13) = 0.3606; exp(ln 2 ± 1.96 se) = 0.987 to 4.054.
    expect(r.low?.toFixed(3)).toBe('0.987');
    expect(r.high?.toFixed(3)).toBe('4.054');
  });

  it('the ratio of tiny samples: half a loan more in every count, 0 as the low end of a zero ratio, none without offered defaults', () => {
    // 1 of 1 against 10 of 100: (1.5 / 2) / (10.5 / 101) = 7.21, se = sqrt(1/1.5 - 1/2 + 1/10.5 - 1/101) = 0.502, so 2.70 to 19.3.
    const all = rateRatio(wilson(1, 1), wilson(10, 100));
    expect(all.ratio).toBeCloseTo(10, 12);
    expect(all.low?.toFixed(2)).toBe('2.70');
    expect(all.high?.toFixed(1)).toBe('19.3');
    const none = rateRatio(wilson(0, 3), wilson(10, 100));
    expect(none.ratio).toBe(0);
    expect(none.low).toBe(0);
    expect(none.high).toBeGreaterThan(1);
    expect(rateRatio(wilson(0, 30), wilson(0, 300))).toEqual({ ratio: null, low: null, high: null });
  });
});
