import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { decideSync, type DataSource, type SpendLedger } from '../../src/engine/index.js';
import {
  cashHurdleShift,
  demandOver,
  MAX_CASH_WINDOW_DAYS,
  RecentDemand,
  shiftedHurdle,
  type CashPosition,
} from '../../src/engine/pricing/cash-hurdle.js';
import { CERTAIN_MARKET, syntheticRecording } from '../backtest/recording-fixtures.js';
import { strategyAt } from './compile-text.js';
import { loanRequest } from './fixtures.js';
import { reasonText } from '../../src/domain/decision-reason.js';

const SETTINGS = { maxRaise: 0.05, maxCut: 0.03, windowDays: 14 };
const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-03-10T12:00:00Z');

const NO_SPEND: SpendLedger = { spentSince: () => 0, subscribedSince: () => true, record: () => undefined };
const NO_DATA: DataSource<true> = {
  bankingData: () => ({ ok: false, detail: 'none' }),
  providerResult: () => ({ ok: false, detail: 'none' }),
  borrowerHistory: () => ({ ok: false, detail: 'none' }),
};
const allow = () => ({ allowed: true }) as const;

/** Cost-plus at a 0.10 hurdle with no margin: the offered rate is the required rate, so it moves with the hurdle. */
const costPlus = (cashHurdle: string) => strategyAt(3, `  target_return: 0.10\n${cashHurdle}`);
const ON = costPlus('  cash_hurdle: { enabled: true, max_raise: 0.05, max_cut: 0.03, window_days: 14 }');
const OFF = costPlus('  cash_hurdle: { enabled: false }');

/** A full 14-day window whose demand all came today. */
const position = (freeCents: number, demandCents: number): CashPosition => ({
  freeCents,
  recentDemandCents: [demandCents, ...Array<number>(13).fill(0)],
});

describe('the cash hurdle rule', () => {
  it('raises the hurdle by all of max_raise at no free cash, nothing at one window of demand, and cuts toward max_cut as cash piles up', () => {
    expect(cashHurdleShift(SETTINGS, 0, 100_000)).toBeCloseTo(0.05, 12);
    expect(cashHurdleShift(SETTINGS, 50_000, 100_000)).toBeCloseTo(0.025, 12);
    expect(cashHurdleShift(SETTINGS, 100_000, 100_000)).toBe(0);
    expect(cashHurdleShift(SETTINGS, 200_000, 100_000)).toBeCloseTo(-0.015, 12);
    // No demand at all: free cash is idle (the full cut); no cash and no demand: nothing to say.
    expect(cashHurdleShift(SETTINGS, 1, 0)).toBe(-0.03);
    expect(cashHurdleShift(SETTINGS, 0, 0)).toBe(0);
    // A negative free balance (reserve above balance) counts as none.
    expect(cashHurdleShift(SETTINGS, -5_000, 100_000)).toBeCloseTo(0.05, 12);
  });

  it('stays within [-max_cut, +max_raise] and never takes the hurdle below zero', () => {
    for (const free of [0, 1, 10, 1e3, 1e5, 1e7, 1e9]) {
      for (const demand of [0, 1, 1e3, 1e5, 1e9]) {
        const shift = cashHurdleShift(SETTINGS, free, demand);
        expect(shift).toBeGreaterThanOrEqual(-0.03);
        expect(shift).toBeLessThanOrEqual(0.05);
      }
    }
    const cut = shiftedHurdle(SETTINGS, 0.01, position(1e9, 1), 50_000);
    expect(cut.targetReturn).toBe(0);
    expect(reasonText(cut.reason)).toBe(
      'price cash_hurdle -0.0300 to 0.0000: free 10000000.00 USD less this loan 500.00 USD against 0.01 USD expected demand in 14 days',
    );
    // The loan's own cash counts: free cash of exactly this loan leaves none for the demand.
    expect(shiftedHurdle(SETTINGS, 0.1, position(50_000, 10_000), 50_000).targetReturn).toBeCloseTo(0.15, 12);
  });

  it('keeps one bucket a day, today first, at most MAX_CASH_WINDOW_DAYS of them', () => {
    const demand = new RecentDemand();
    demand.add(NOW, 1_000);
    demand.add(NOW + 1_000, 500);
    demand.add(NOW + 2 * DAY_MS, 300);
    const now = demand.position(NOW + 2 * DAY_MS, 7_000);
    expect(now.recentDemandCents.slice(0, 3)).toEqual([300, 0, 1_500]);
    expect(demandOver(now, 1)).toBe(300);
    expect(demandOver(now, 3)).toBe(1_800);
    expect(now.freeCents).toBe(7_000);
    for (let day = 3; day < 400; day += 1) demand.add(NOW + day * DAY_MS, 1);
    expect(demand.position(NOW + 400 * DAY_MS, 0).recentDemandCents.length).toBe(MAX_CASH_WINDOW_DAYS);
    // A long silence empties the window.
    expect(demandOver(demand.position(NOW + 1_000 * DAY_MS, 0), 90)).toBe(0);
    // A window younger than asked for is scaled up to it: 3 days of 1,800 read as 14 days of 8,400.
    const young = new RecentDemand();
    young.add(NOW, 1_500);
    young.add(NOW + 2 * DAY_MS, 300);
    expect(demandOver(young.position(NOW + 2 * DAY_MS, 0), 14)).toBeCloseTo(8_400, 9);
  });
});

describe('pricing with the cash hurdle', () => {
  const decide = (strategy: typeof ON, cash?: CashPosition) =>
    decideSync(loanRequest(), { strategies: [strategy], nowMs: NOW, ledger: NO_SPEND, cash }, NO_DATA, allow).decision;

  it('prices higher when cash binds and lower when it sits idle, and says so in the reasons', () => {
    const asWritten = decide(ON);
    const scarce = decide(ON, position(0, 100_000));
    const idle = decide(ON, position(10_000_000, 100_000));
    expect(asWritten.rate).toBeDefined();
    expect(scarce.rate).toBeGreaterThan(asWritten.rate as number);
    expect(idle.rate).toBeLessThan(asWritten.rate as number);
    expect(scarce.reasons.map(reasonText).at(-1)).toBe(
      'price cash_hurdle +0.0500 to 0.1500: free 0.00 USD less this loan 1050.00 USD against 1000.00 USD expected demand in 14 days',
    );
    expect(asWritten.reasons.some((reason) => reason.code === 'price_cash_hurdle')).toBe(false);
  });

  it('leaves a strategy without it (or with it off) priced as written', () => {
    const asWritten = decide(OFF);
    expect(decide(OFF, position(0, 100_000)).rate).toBe(asWritten.rate);
    expect(decide(OFF, position(10_000_000, 100_000)).rate).toBe(asWritten.rate);
  });

  it('in a replay, prices above the hurdle-off twin while cash binds and below it while cash sits idle', () => {
    const lines = syntheticRecording(120, 7, () => 1, { spacingHours: 2 });
    const options = { market: CERTAIN_MARKET, recordDecisions: true };
    const off = runBacktest(lines, [OFF], { ...options, startingBalanceCents: 150_000 });
    const offRate = new Map(off.decisions.map((d) => [d.loan_request_id, d.rate]));
    expect(off.decisions.every((d) => d.reasons.every((reason) => !reason.includes('cash_hurdle')))).toBe(true);
    // $1,500 funds two $500 loans (the balance must exceed the total): after that the twin's
    // offers are refused for cash, while the raised hurdle prices them higher or skips them.
    const scarce = runBacktest(lines, [ON], { ...options, startingBalanceCents: 150_000 });
    const refusedForCash = (run: typeof off) => run.decisions.filter((d) => d.guard_code === 'insufficient_balance').length;
    expect(refusedForCash(off)).toBeGreaterThan(100);
    expect(refusedForCash(scarce)).toBeLessThan(refusedForCash(off) / 3);
    const raised = scarce.decisions.filter((d) => d.reasons.some((reason) => reason.startsWith('price cash_hurdle +')));
    expect(raised.length).toBeGreaterThan(100);
    for (const d of raised) if (d.rate !== null) expect(d.rate).toBeGreaterThan(offRate.get(d.loan_request_id) as number);
    // $1,000,000 against $500 requests: idle, every offer priced below the twin's.
    const idle = runBacktest(lines, [ON], { ...options, startingBalanceCents: 100_000_000 });
    expect(idle.decisions.filter((d) => d.action === 'offer').length).toBe(120);
    for (const d of idle.decisions) expect(d.rate).toBeLessThan(offRate.get(d.loan_request_id) as number);
  });
});
