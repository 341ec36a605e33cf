/**
 * On a real sandbox export (a recording file with every borrower's reservation rate and the
 * competing rates of a market with many lenders): recorded acceptance decides every offer by the
 * documented rule, and with the reservation rates removed no offer wins at or above a competing
 * rate the borrower took, in the curve run and in every borrower world, unless soft is asked for.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowerWorlds } from '../../src/backtest/borrower-worlds.js';
import { withLine } from '../../src/backtest/prepared-recording.js';
import { DEFAULT_MARKET, recordedCompetition } from '../../src/backtest/market-model.js';
import { loadRecording, runBacktest, type PreparedRecording } from '../../src/backtest/index.js';
import type { BacktestDecision } from '../../src/backtest/backtest-result.js';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';

let dir: string;
let recording: PreparedRecording;
let stripped: PreparedRecording;
let strategies: CompiledStrategy[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-sandbox-acceptance-'));
  const file = join(dir, 'shoppers.jsonl');
  await exportSandboxRecording(file, { seed: 3, requests: 1500, shape: 'shoppers', arrivalsPerHour: 3 });
  recording = await loadRecording(file, {}, () => undefined);
  stripped = {
    duplicates: 0,
    entries: recording.entries.map((entry) => {
      const { reservation_rate: _gone, ...outcome } = entry.line.outcome ?? { status: 'unfunded' as const };
      return withLine(entry, { ...entry.line, outcome });
    }),
  };
  strategies = [await loadStrategyFile('strategies/examples/naive.yaml'), await loadStrategyFile('strategies/balanced.yaml')];
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lineOf = (r: PreparedRecording, id: number): RecordingLine => {
  const entry = r.entries.find((e) => e.line.loan_request.id === id);
  if (!entry) throw new Error(`no request ${id}`);
  return entry.line;
};

/** Offers the market judged (not unjudged, not expired), with their line. */
function judged(
  r: PreparedRecording,
  decisions: readonly BacktestDecision[],
): Array<{ d: BacktestDecision; line: RecordingLine; rate: number }> {
  return decisions
    .filter((d) => d.action === 'offer' && d.rate !== null && ['won', 'funding_failed', 'outbid', 'declined'].includes(d.market ?? ''))
    .map((d) => ({ d, line: lineOf(r, d.loan_request_id), rate: d.rate ?? Number.NaN }));
}

const takenRate = (line: RecordingLine): number | undefined => {
  const competition = recordedCompetition(line.outcome, 'win');
  return competition !== 'lose' && competition.kind === 'taken' ? competition.rate : undefined;
};

describe('a sandbox export judged by its reservation rates', () => {
  it('every line records acceptance, and every verdict is the documented rule', () => {
    expect(recording.entries.every((e) => e.line.outcome?.reservation_rate !== undefined)).toBe(true);
    for (const strategy of strategies) {
      const result = runBacktest(recording, [strategy], { startingBalanceCents: 10_000_000, recordDecisions: true });
      const offers = judged(recording, result.decisions);
      expect(offers.length).toBeGreaterThan(50);
      for (const { d, line, rate } of offers) {
        const reservation = line.outcome?.reservation_rate ?? Number.NaN;
        const competition = recordedCompetition(line.outcome, 'win');
        const competing = competition === 'lose' || competition.kind === 'none' ? Number.POSITIVE_INFINITY : competition.rate;
        const wins = rate <= reservation && rate < competing;
        expect([d.loan_request_id, wins ? 'won' : competing <= rate ? 'outbid' : 'declined']).toEqual([
          d.loan_request_id,
          d.market === 'funding_failed' ? 'won' : d.market,
        ]);
      }
    }
  });
});

describe('hard competition on the same market without reservation rates', () => {
  it('no offer wins at or above a rate the borrower took: the curve run and every world', () => {
    const worlds = borrowerWorlds(stripped, DEFAULT_MARKET.response);
    let contestedOffers = 0;
    for (const strategy of strategies) {
      for (const world of [undefined, ...worlds]) {
        const result = runBacktest(stripped, [strategy], { startingBalanceCents: 10_000_000, recordDecisions: true, world });
        for (const { d, line, rate } of judged(stripped, result.decisions)) {
          const taken = takenRate(line);
          if (taken === undefined) continue;
          contestedOffers += 1;
          if (rate >= taken) expect([d.loan_request_id, d.market]).toEqual([d.loan_request_id, 'outbid']);
        }
      }
    }
    expect(contestedOffers).toBeGreaterThan(100);
  });

  it('soft comparison, asked for, lets some offers win above the rate the borrower took', () => {
    const naive = strategies[0] as CompiledStrategy;
    const result = runBacktest(stripped, [naive], {
      startingBalanceCents: 10_000_000,
      recordDecisions: true,
      market: { comparison: 'soft' },
    });
    const above = judged(stripped, result.decisions).filter(({ d, line, rate }) => {
      const taken = takenRate(line);
      return taken !== undefined && rate > taken && (d.market === 'won' || d.market === 'funding_failed');
    });
    const hard = runBacktest(stripped, [naive], { startingBalanceCents: 10_000_000, recordDecisions: true });
    expect(above.length).toBeGreaterThan(0);
    expect(hard.summary.funded).toBeLessThan(result.summary.funded);
  });
});
