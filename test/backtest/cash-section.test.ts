/** The reports' idle cash against refusals for cash, from real replays: starved and flush. */
import { describe, expect, it } from 'vitest';
import { backtestHtml } from '../../src/backtest/report/html-report.js';
import { cashFigures, cashSection } from '../../src/backtest/report/cash-section.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { formatBacktest } from '../../src/cli/commands/backtest/report-text.js';
import { CERTAIN_MARKET, syntheticRecording } from './recording-fixtures.js';
import { flatStrategy } from './strategy-fixtures.js';

const lines = syntheticRecording(60, 3, () => 1);

describe('idle cash and refusals for cash', () => {
  it('counts the guard refusing for cash when cash binds, and idle capital when it does not', () => {
    const starved = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 120_000, market: CERTAIN_MARKET });
    const flush = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 100_000_000, market: CERTAIN_MARKET });
    const s = cashFigures(starved.summary);
    const f = cashFigures(flush.summary);
    expect(s.refusedForCash).toBe(starved.summary.guardRefusals.insufficient_balance);
    expect(s.refusedForCash).toBeGreaterThan(40);
    expect(f.refusedForCash).toBe(0);
    expect(f.idleShare).toBeGreaterThan(0.9);
    expect(s.idleShare).toBeLessThan(f.idleShare);
    expect(cashSection(starved.summary)).toBe(
      `\nCash: ${(s.idleShare * 100).toFixed(1)}% of the money idle, held by no offer, on average (cash on average $${(s.averageIdleCents / 100).toFixed(2)}); refused for cash: ${s.refusedForCash} offers by the guard, 0 accepted but unfundable (of ${s.offers} offers made)\n`,
    );
    expect(formatBacktest(starved, 'r.jsonl')).toContain(cashSection(starved.summary));
    const html = backtestHtml([starved, flush], 'r.jsonl');
    expect(html).toContain('<h2>Idle cash and refusals for cash</h2>');
    expect(html).toContain(`<td>${s.refusedForCash}</td>`);
  });

  it("gives the idle share the verdict and the side-by-side table give, not one with the offers' cash in it", () => {
    const starved = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 120_000, market: CERTAIN_MARKET });
    expect(starved.summary.reservedShare).toBeGreaterThan(0);
    expect(cashFigures(starved.summary).idleShare).toBe(starved.summary.idleShare);
    expect(cashSection(starved.summary)).toContain(`${(starved.summary.idleShare * 100).toFixed(1)}% of the money idle`);
    // One name for the average cash wherever it is shown: it includes what open offers hold.
    const html = backtestHtml([starved], 'r.jsonl');
    expect(html).not.toContain('average idle cash');
    expect(html).toContain('<th>average cash (idle or held by offers)</th>');
  });
});
