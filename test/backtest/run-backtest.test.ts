import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRecording } from '../../src/backtest/load-recording.js';
import type { RecordingLineIssue } from '../../src/recording/index.js';
import { runBacktest } from '../../src/backtest/run-backtest.js';
import { DEFAULT_RISK_LIMITS, UNCAPPED_RISK_LIMITS } from '../../src/risk/index.js';
import { CERTAIN_MARKET, recordingLine, writeRecording } from './recording-fixtures.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';

const small = { loan_amount: '500.00', total_amount: '500.00', total_fees: '0.00', fee_legislative: '0.00', fee_svc: '0.00' };
const completed = { status: 'completed' as const, best_competing_rate: null, repaid_fraction: 1 };
const automateFund = flatStrategy(FLAT_STRATEGY_YAML.replace('automate_fund: false', 'automate_fund: true'));

describe('runBacktest', () => {
  it('replays one won loan: 500.00 at 0.12 over 12 months earns 33.04', () => {
    const result = runBacktest(
      [recordingLine({ id: 1, seenAt: '2026-01-01T00:00:00Z', request: small, outcome: completed })],
      [flatStrategy()],
      {
        startingBalanceCents: 100_000,
        market: CERTAIN_MARKET,
        recordDecisions: true,
      },
    );
    // Payment round(50000 x 0.08884879) = 44.42; 12 x 44.42 = 533.04.
    expect(result.summary).toMatchObject({
      requests: 1,
      offers: 1,
      funded: 1,
      deployedCents: 50_000,
      interestCents: 3304,
      lossCents: 0,
      netCents: 3304,
    });
    expect(result.summary.finalBalanceCents).toBe(103_304);
    expect(result.decisions).toEqual([
      expect.objectContaining({
        loan_request_id: 1,
        decided_at: '2026-01-01T00:00:00Z',
        action: 'offer',
        rate: 0.12,
        strategy: 'flat',
        market: 'won',
      }),
    ]);
    expect(result.strategies[0]).toMatchObject({ name: 'flat', params: { min_credit_score: 560 } });
    expect(result.strategies[0]?.contentHash).toMatch(/^[0-9a-f]{16}$/);
    expect(result.segments.term).toEqual([
      expect.objectContaining({ key: '12', requests: 1, offers: 1, funded: 1, acceptance: 1, averageRate: 0.12 }),
    ]);
  });

  it('counts a default: half repaid loses the rest of the principal', () => {
    const lines = [
      recordingLine({
        id: 1,
        seenAt: '2026-01-01T00:00:00Z',
        request: { ...small, loan_amount: '1000.00', total_amount: '1000.00' },
        outcome: { status: 'default', repaid_fraction: 0.5 },
      }),
    ];
    const { summary, segments } = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 500_000, market: CERTAIN_MARKET });
    expect(summary).toMatchObject({ interestCents: 4802, lossCents: 51_492, netCents: -46_690, defaultRate: 1 });
    expect(segments.risk_level[0]).toMatchObject({ key: '1', defaults: 1, defaultRate: 1 });
    // Equity peaks at 5048.02 after the six instalments, then the loss takes 514.92.
    expect(summary.maxDrawdown).toBeCloseTo(51_492 / 504_802, 9);
  });

  it('replays in seen_at order whatever the file order, each request once', () => {
    const lines = [
      recordingLine({ id: 2, seenAt: '2026-01-02T00:00:00Z', request: small, outcome: completed }),
      recordingLine({ id: 1, seenAt: '2026-01-01T00:00:00Z', request: small }),
      recordingLine({ id: 1, seenAt: '2026-01-03T00:00:00Z', request: small, outcome: completed }),
    ];
    const result = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 200_000, market: CERTAIN_MARKET, recordDecisions: true });
    expect(result.decisions.map((d) => [d.loan_request_id, d.decided_at])).toEqual([
      [1, '2026-01-01T00:00:00Z'],
      [2, '2026-01-02T00:00:00Z'],
    ]);
    // The later line's outcome is the one that counts.
    expect(result.summary.funded).toBe(2);
  });

  it('skips with the strategy’s reasons', () => {
    const lines = [
      recordingLine({
        id: 1,
        seenAt: '2026-01-01T00:00:00Z',
        request: { ...small, borrower: { credit_score: '500-550' } },
        outcome: completed,
      }),
    ];
    const [decision] = runBacktest(lines, [flatStrategy()], { startingBalanceCents: 100_000, recordDecisions: true }).decisions;
    expect(decision?.action).toBe('skip');
    expect(decision?.reasons.join('; ')).toMatch(/credit_score_low/);
  });
});

describe('the guard inside a backtest', () => {
  it('refuses a second offer the same day over max_offers_per_day, with the daemon’s reason', () => {
    const lines = [1, 2].map((id) => recordingLine({ id, seenAt: `2026-01-01T0${id}:00:00Z`, request: small, outcome: completed }));
    const result = runBacktest(lines, [flatStrategy()], {
      startingBalanceCents: 1_000_000,
      limits: { ...DEFAULT_RISK_LIMITS, maxOffersPerDay: 1 },
      recordDecisions: true,
    });
    expect(result.decisions.map((d) => d.action)).toEqual(['offer', 'skip']);
    // Refused before buying banking data (the guard is asked first, without a rate): no price searched.
    expect(result.decisions[1]).toMatchObject({ guard_code: 'max_offers_per_day', rate: null });
    expect(result.decisions[1]?.reasons).toEqual(['data banking_data needed (free filters passed)', 'guard offers today 1 >= max 1']);
    expect(result.summary.guardRefusals).toEqual({ max_offers_per_day: 1 });
  });

  it('keeps the decided rate when the guard refuses a priced offer (a strategy that buys no data)', () => {
    const noData = flatStrategy(FLAT_STRATEGY_YAML.replace('automate_fund: false', 'automate_fund: false\ndata:\n  banking_data: never'));
    const lines = [1, 2].map((id) => recordingLine({ id, seenAt: `2026-01-01T0${id}:00:00Z`, request: small, outcome: completed }));
    const result = runBacktest(lines, [noData], {
      startingBalanceCents: 1_000_000,
      limits: { ...DEFAULT_RISK_LIMITS, maxOffersPerDay: 1 },
      recordDecisions: true,
    });
    expect(result.decisions[1]).toMatchObject({ action: 'skip', guard_code: 'max_offers_per_day', rate: 0.12 });
    expect(result.decisions[1]?.reasons.at(-1)).toBe('guard offers today 1 >= max 1');
  });

  it('reserves the balance for a pending automate_fund offer, and repaid cash funds later offers', () => {
    const lines = [
      recordingLine({ id: 1, seenAt: '2026-01-01T00:00:00Z', request: small, outcome: completed }),
      recordingLine({ id: 2, seenAt: '2026-01-01T01:00:00Z', request: small, outcome: completed }),
      // After funding (a day later) the balance is 100.00; ten instalments of 44.42 by December
      // bring it to 544.20, enough for another 500.00.
      recordingLine({ id: 3, seenAt: '2026-12-01T00:00:00Z', request: small, outcome: completed }),
    ];
    const result = runBacktest(lines, [automateFund], { startingBalanceCents: 60_000, market: CERTAIN_MARKET, recordDecisions: true });
    expect(result.decisions.map((d) => d.action)).toEqual(['offer', 'skip', 'offer']);
    expect(result.decisions[1]?.reasons.at(-1)).toBe('guard balance 600.00 - reserved 500.00 - reserve 0.00 < total 500.00');
    expect(result.summary.funded).toBe(2);
    // The new offer plus what loan 1 still owes after ten instalments: 500 x 1.01^10 - 44.42 x
    // (1.01^10 - 1) / 0.01 = 87.58, 87.60 with the cents rounded month by month.
    expect(result.summary.largestExposureCents).toBe(50_000 + 8760);
    expect(result.summary.finalBalanceCents).toBe(60_000 + 2 * 3304);
  });

  it('in a dry-run replay (settle: false) offers hold until they expire and nothing is funded', () => {
    const lines = [1, 2].map((id) => recordingLine({ id, seenAt: `2026-01-0${id}T00:00:00Z`, request: small, outcome: completed }));
    const result = runBacktest(lines, [automateFund], {
      startingBalanceCents: 60_000,
      market: { settle: false },
      limits: { ...UNCAPPED_RISK_LIMITS, offerExpiryMs: 48 * 3_600_000 },
      recordDecisions: true,
    });
    expect(result.decisions.map((d) => d.guard_code ?? d.action)).toEqual(['offer', 'insufficient_balance']);
    expect(result.decisions[0]?.market).toBe('expired');
    expect(result.summary.funded).toBe(0);
  });
});

describe('reading a recording', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-backtest-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a bad line by number and replays the rest', async () => {
    const file = join(dir, 'rec.jsonl');
    await writeRecording(file, [
      recordingLine({ id: 1, seenAt: '2026-01-01T00:00:00Z', request: small, outcome: completed }),
      '{"v": 1, "seen_at": "yesterday"',
      '{"v": 2, "seen_at": "2026-01-01T00:00:00Z", "loan_request": {}}',
      recordingLine({ id: 2, seenAt: '2026-01-02T00:00:00Z', request: small, outcome: completed }),
    ]);
    const issues: RecordingLineIssue[] = [];
    const recording = await loadRecording(file, {}, (issue) => issues.push(issue));
    expect(issues.map((i) => i.line)).toEqual([2, 3]);
    expect(issues[0]?.message).toMatch(/^not JSON/);
    expect(runBacktest(recording, [flatStrategy()], { startingBalanceCents: 200_000, market: CERTAIN_MARKET }).summary.funded).toBe(2);
  });

  it('keeps only the period asked for', async () => {
    const file = join(dir, 'rec.jsonl');
    await writeRecording(
      file,
      [1, 2, 3].map((id) => recordingLine({ id, seenAt: `2026-01-0${id}T00:00:00Z`, request: small })),
    );
    const recording = await loadRecording(file, { from: '2026-01-02T00:00:00Z', to: '2026-01-03T00:00:00Z' }, () => undefined);
    expect(recording.entries.map((e) => e.line.loan_request.id)).toEqual([2]);
  });
});
