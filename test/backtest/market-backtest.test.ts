/**
 * The market model inside a whole backtest: rate-sensitive acceptance drawn with common random
 * numbers, repaid_fraction read at the funded rate, prepayment, losses written off at the first
 * missed instalment with the recovery later, and every cent counted once.
 */
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import type { Outcome, RecordingLine } from '../../src/recording/index.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { acceptProbability, marketResponse } from '../../src/engine/index.js';
import { totalRepayment } from '../../src/math/index.js';
import { loanCashFlows } from '../../src/math/index.js';
import { CERTAIN_MARKET, recordingLine } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';

const thousand = { loan_amount: '1000.00', total_amount: '1000.00', total_fees: '0.00', fee_legislative: '0.00', fee_svc: '0.00' };
const at = (rate: number) =>
  flatStrategy(
    FLAT_STRATEGY_YAML.replace('ceiling: 0.12', `ceiling: ${rate}`).replace('name: flat', `name: flat-${Math.round(rate * 100)}`),
  );

/** `count` requests a day apart (1000.00 over 12 months, maximum 0.3) with a random mix of outcomes. */
function mixedRecording(count: number, seed: number): RecordingLine[] {
  const random = seededRandom(seed);
  const start = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const roll = random();
    const competing = random() < 0.5 ? null : Math.round((0.08 + random() * 0.2) * 10_000) / 10_000;
    let outcome: Outcome;
    if (roll < 0.55) outcome = { status: 'completed', best_competing_rate: competing, funded_rate: competing ?? 0.2, repaid_fraction: 1 };
    else if (roll < 0.75)
      outcome = {
        status: 'default',
        best_competing_rate: competing,
        funded_rate: competing ?? 0.2,
        repaid_fraction: Math.round(random() * 1000) / 1000,
      };
    else if (roll < 0.85)
      outcome = { status: 'current', best_competing_rate: competing, repaid_fraction: Math.round(random() * 1000) / 1000 };
    else if (roll < 0.95)
      outcome = {
        status: 'unfunded',
        best_competing_rate: competing,
        if_funded: { status: random() < 0.7 ? 'completed' : 'collection', repaid_fraction: Math.round(random() * 1000) / 1000 },
      };
    else outcome = { status: 'unfunded', best_competing_rate: null };
    return recordingLine({
      id: 20_000 + i,
      seenAt: new Date(start + i * 86_400_000).toISOString().replace('.000Z', 'Z'),
      request: { ...thousand, borrower: { id: 70_000 + i, credit_score: '700-749' }, max_interest_rate: 0.3 },
      outcome,
    });
  });
}

describe('the backtest’s market', () => {
  const recording = mixedRecording(400, 5);

  it('counts every cent once: interest + recoveries − losses − data spend = net = the sum of the requests’ contributions, and the cash adds up', () => {
    for (const strategy of [at(0.12), at(0.25)]) {
      const start = 10_000_000;
      const { summary, requestNetCents, segments } = runBacktest(recording, [strategy], {
        startingBalanceCents: start,
        recordContributions: true,
      });
      expect(summary.funded).toBeGreaterThan(50);
      expect(summary.recoveryCents).toBeGreaterThan(0);
      expect(summary.openCents).toBeGreaterThan(0);
      expect(summary.netCents).toBe(summary.interestCents + summary.recoveryCents - summary.lossCents - summary.dataSpendCents);
      expect(requestNetCents.reduce((a, b) => a + b, 0)).toBe(summary.netCents);
      // Cash: what was lent either came back (as principal, interest or recovery), was lost, or is still open.
      expect(summary.finalBalanceCents + summary.openCents).toBe(start + summary.interestCents + summary.recoveryCents - summary.lossCents);
      const rows = segments.risk_level;
      expect(rows.reduce((sum, r) => sum + r.netCents, 0)).toBe(summary.interestCents + summary.recoveryCents - summary.lossCents);
    }
  });

  it('a higher rate wins a subset of the borrowers a lower one wins (same seed, same draws)', () => {
    const won = (rate: number, seed: number): Set<number> => {
      const { decisions } = runBacktest(recording, [at(rate)], {
        startingBalanceCents: 100_000_000,
        recordDecisions: true,
        market: { seed },
      });
      return new Set(decisions.filter((d) => d.market === 'won').map((d) => d.loan_request_id));
    };
    const cheap = won(0.1, 1);
    const dear = won(0.28, 1);
    expect([...dear].every((id) => cheap.has(id))).toBe(true);
    // At 0.28 of a 0.3 maximum few borrowers take the offer, and competitors below it win.
    expect(dear.size).toBeLessThan(cheap.size / 3);
    expect(won(0.28, 1)).toEqual(dear);
    expect(won(0.28, 2)).not.toEqual(dear);
  });

  it('requests nobody funded are won only when the recording says how they would have repaid', () => {
    const { decisions } = runBacktest(recording, [at(0.1)], {
      startingBalanceCents: 100_000_000,
      recordDecisions: true,
      market: CERTAIN_MARKET,
    });
    const byId = new Map(recording.map((l) => [l.loan_request.id, l.outcome]));
    const unfunded = decisions.filter((d) => byId.get(d.loan_request_id)?.status === 'unfunded');
    expect(unfunded.filter((d) => byId.get(d.loan_request_id)?.if_funded === undefined).every((d) => d.market === 'unfunded')).toBe(true);
    // With take-up certain, one whom nobody offered takes ours; one who refused a competitor's
    // offer would refuse any (the take-up that offer lacked is none).
    const known = unfunded.filter((d) => byId.get(d.loan_request_id)?.if_funded !== undefined);
    const alone = known.filter((d) => byId.get(d.loan_request_id)?.best_competing_rate === null);
    expect(alone.length).toBeGreaterThan(5);
    expect(alone.every((d) => d.market === 'won')).toBe(true);
    expect(known.filter((d) => !alone.includes(d)).some((d) => d.market === 'won')).toBe(false);
  });

  it('a defaulter repays the same dollars whatever we charge, so a higher rate earns it nothing', () => {
    // repaid_fraction 0.5 of the total due at the funded rate 0.2: 12 x 92.63 / 2 = 555.78.
    const line = recordingLine({
      id: 1,
      seenAt: '2026-01-01T00:00:00Z',
      request: thousand,
      outcome: { status: 'default', funded_rate: 0.2, best_competing_rate: null, repaid_fraction: 0.5 },
    });
    const repaid = Math.round(0.5 * totalRepayment(100_000, 0.2, 12));
    expect(repaid).toBe(55_578);
    for (const rate of [0.12, 0.2, 0.5]) {
      const { summary } = runBacktest([line], [at(rate)], { startingBalanceCents: 500_000, market: CERTAIN_MARKET });
      expect(summary.funded).toBe(1);
      expect(summary.netCents).toBe(repaid - 100_000);
    }
  });

  it('writes the loss off at the first missed instalment, so drawdown sees it before the recovery arrives', () => {
    // 1000.00 at 0.12: one instalment of 88.85 (interest 10.00), then 921.15 written off in
    // month 2; the 17.77 the borrower still paid arrives 3 months later.
    const line = recordingLine({
      id: 1,
      seenAt: '2026-01-01T00:00:00Z',
      request: thousand,
      outcome: { status: 'default', funded_rate: 0.12, best_competing_rate: null, repaid_fraction: 0.1 },
    });
    const { summary, series } = runBacktest([line], [flatStrategy()], { startingBalanceCents: 500_000, market: CERTAIN_MARKET });
    expect(summary).toMatchObject({ interestCents: 1000, lossCents: 92_115, recoveryCents: 1777, netCents: -89_338, defaultRate: 1 });
    expect(summary.maxDrawdown).toBeCloseTo(92_115 / 501_000, 12);
    expect(series.at(-1)?.at.slice(0, 10)).toBe('2026-06-02');
  });

  it('prepayment: completed loans paid off early earn less interest than the full schedule', () => {
    const completed = recording.filter((l) => l.outcome?.status === 'completed');
    const run = (share: number) =>
      runBacktest(completed, [at(0.12)], {
        startingBalanceCents: 100_000_000,
        market: { ...CERTAIN_MARKET, prepayment: { share, atTermFraction: 0.5 } },
      }).summary;
    const none = run(0);
    const some = run(0.5);
    expect(some.funded).toBe(none.funded);
    // Half of them paid off at month 6 of 12 earn 48.02 instead of 66.20 per 1000.00: 14% less.
    expect(some.interestCents).toBeLessThan(none.interestCents * 0.9);
    expect(some.interestCents).toBeGreaterThan(none.interestCents * 0.8);
    expect(some.lossCents).toBe(0);
  });
});

describe('the worked example of docs/backtesting.md (“The market model”)', () => {
  const request = { ...thousand, max_interest_rate: 0.36 };
  const response = marketResponse();

  it('take-up and acceptance at 0.12, 0.20, 0.30 and the maximum', () => {
    const none = { kind: 'none' } as const;
    const taken = { kind: 'taken', rate: 0.2 } as const;
    expect(acceptProbability(0.12, 0.36, none, response, 'hard').toFixed(4)).toBe('0.9285');
    expect(acceptProbability(0.3, 0.36, none, response, 'hard').toFixed(4)).toBe('0.3298');
    expect(acceptProbability(0.36, 0.36, none, response, 'hard').toFixed(4)).toBe('0.1419');
    // Hard competition (the default): a borrower who took 0.20 takes anything cheaper, never a tie.
    expect(acceptProbability(0.12, 0.36, taken, response, 'hard')).toBe(1);
    expect(acceptProbability(0.2, 0.36, taken, response, 'hard')).toBe(0);
    expect(acceptProbability(0.21, 0.36, taken, response, 'hard')).toBe(0);
    // Soft, asked for: width 0.01 around the competing rate.
    expect(acceptProbability(0.12, 0.36, taken, response, 'soft').toFixed(4)).toBe('0.9997');
    expect(acceptProbability(0.2, 0.36, taken, response, 'soft').toFixed(4)).toBe('0.5000');
  });

  it('completed: 66.20 at 0.12 (169.88 at 0.30); prepaid in month 6: 48.02 (121.89)', () => {
    const interest = (rate: number, prepayMonth: number | null) =>
      loanCashFlows(100_000, rate, 12, { kind: 'full', prepayMonth }).instalments.reduce((sum, i) => sum + i.interestCents, 0);
    expect([interest(0.12, null), interest(0.3, null), interest(0.12, 6), interest(0.3, 6)]).toEqual([6620, 16_988, 4802, 12_189]);
  });

  it('a default repaying 10% of the total due at the funded 0.20 nets −888.84 at 0.12 and at 0.30, in a real backtest', () => {
    const line = recordingLine({
      id: 1,
      seenAt: '2026-01-01T00:00:00Z',
      request,
      outcome: { status: 'default', funded_rate: 0.2, best_competing_rate: null, repaid_fraction: 0.1 },
    });
    expect(totalRepayment(100_000, 0.2, 12)).toBe(111_156);
    const low = runBacktest([line], [at(0.12)], { startingBalanceCents: 500_000, market: CERTAIN_MARKET }).summary;
    expect(low).toMatchObject({ funded: 1, interestCents: 1000, lossCents: 92_115, recoveryCents: 2231, netCents: -88_884 });
    const high = runBacktest([line], [at(0.3)], { startingBalanceCents: 500_000, market: CERTAIN_MARKET }).summary;
    expect(high).toMatchObject({ funded: 1, interestCents: 2500, lossCents: 92_751, recoveryCents: 1367, netCents: -88_884 });
  });
});
