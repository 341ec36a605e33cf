/**
 * Training trials over columns (src/backtest/tune/column-trials.ts) must give exactly what a
 * full backtest of the same params gives: every trial of several strategies, recordings, risk
 * limits, market settings and walk-forward windows is run both ways and compared figure by
 * figure; a tune's report is compared with one whose every trial is a backtest.
 */
import { describe, expect, it } from 'vitest';
import { prepareRecording, type PreparedRecording } from '../../src/backtest/prepared-recording.js';
import { columnRunner } from '../../src/backtest/tune/column-trials.js';
import { sampleTrials } from '../../src/backtest/tune/param-space.js';
import { seededRandom } from '../../src/engine/market/seeded-normals.js';
import { timeWindows, type SplitSpec } from '../../src/backtest/tune/time-splits.js';
import { runTrial, runTrialByBacktest, type TrialContext, type TrialEvaluator } from '../../src/backtest/tune/trial-evaluator.js';
import { tune } from '../../src/backtest/tune/tuner.js';
import type { BacktestOptions } from '../../src/backtest/run-backtest.js';
import { compileStrategy, loadStrategyFile, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';
import type { Outcome, RecordingLine } from '../../src/recording/index.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { bankingData } from '../engine/fixtures.js';
import { CERTAIN_MARKET, recordingLine } from './recording-fixtures.js';
import { cashBoundRecording, CASH_BOUND_BALANCE_CENTS, openStrategy } from './tune-fixtures.js';

const strategyFile = (name: string): string => new URL(`../../strategies/${name}.yaml`, import.meta.url).pathname;
/** balanced 2.1.0, with a fitted calibration and no learning: the column path's equal (a learned level replays in order instead). */
const FITTED_CONSERVATIVE = new URL('../fixtures/conservative-fitted.yaml', import.meta.url).pathname;
const FITTED_BALANCED = new URL('../fixtures/balanced-fitted.yaml', import.meta.url).pathname;

/**
 * Requests of every kind the accounting distinguishes: amounts, terms, risk levels, repeat
 * borrowers (for the per-borrower cap), banking data or none, completed, defaulted, current and
 * unfunded loans, competing rates or none, and requests seen at the same instant (so cash flows
 * fall due together and their order matters).
 */
function variedRecording(count: number, seed: number): RecordingLine[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  let ms = Date.parse('2026-01-01T00:00:00Z');
  const lines: RecordingLine[] = [];
  for (let i = 0; i < count; i += 1) {
    if (random() > 0.15) ms += Math.floor(random() * 8) * 3_600_000;
    const seenAt = new Date(ms).toISOString();
    const low = 540 + 20 * Math.floor(random() * 12);
    const amount = 200 + 100 * Math.floor(random() * 12);
    const level = pick([0, 0, 1, 1, 2, 2, 3]);
    const status = pick(['completed', 'completed', 'completed', 'default', 'current', 'unfunded', 'none'] as const);
    const competing = random() < 0.4 ? null : 0.1 + random() * 0.4;
    let outcome: Outcome | undefined;
    if (status === 'unfunded')
      outcome = {
        status,
        best_competing_rate: null,
        ...(random() < 0.7 ? { if_funded: { status: 'completed', repaid_fraction: 1 } } : {}),
      };
    else if (status !== 'none')
      outcome = { status, best_competing_rate: competing, repaid_fraction: status === 'completed' ? 1 : Math.round(random() * 90) / 100 };
    lines.push(
      recordingLine({
        id: 30_000 + i,
        seenAt,
        request: {
          borrower: {
            id: 80_000 + Math.floor(random() * count * 0.6),
            credit_score: `${low}-${low + 50}`,
            hard_inquiries: Math.floor(random() * 7),
            completed_loans_count: Math.floor(random() * 4),
            annual_income: 20_000 + Math.floor(random() * 80_000),
          },
          borrower_card_color: level,
          loan_amount: `${amount}.00`,
          total_amount: `${amount + 25}.00`,
          total_fees: '25.00',
          fee_legislative: '5.00',
          fee_svc: '20.00',
          loan_terms: pick([3, 6, 12, 24]),
          max_interest_rate: 0.25 + random() * 0.6,
        },
        ...(outcome ? { outcome } : {}),
        ...(random() < 0.6 ? { dataAggs: bankingData({ negative_balance_count: Math.floor(random() * 12) }) } : {}),
      }),
    );
  }
  return lines;
}

/** balanced with its filters moved about: banking data bought always, a param on a banking filter's max. */
const ALWAYS_BANKING_YAML = `name: always-banking
description: buys banking data first, manual offers
version: "1"
automate_fund: false
params:
  max_negative: { value: 6, min: 0, max: 12, step: 1 }
  min_probability: { value: 0.7, min: 0.5, max: 0.95, step: 0.05 }
  margin: { value: 0.02, min: 0, max: 0.1, step: 0.02 }
filters:
  - feature: negative_balance_count
    max: $max_negative
    missing: pass
  - feature: risk_level
    not_in: [3, 4]
data:
  monthly_budget: 0
  banking_data: always
score:
  logistic:
    intercept: 1.5
    terms:
      - { feature: credit_score_mid, weight: 0.01, center: 650, missing: -1 }
      - { feature: negative_balance_count, weight: -0.1, missing: 0 }
  min_probability: $min_probability
pricing:
  target_return: 0.05
  margin: $margin
  ceiling: 0.5
`;

/** No score: the cap is offered to every request above a credit floor. */
const MAX_RATE_YAML = `name: max-rate
description: the naive baseline with a tunable floor
version: "1"
automate_fund: true
params:
  min_credit_score: { value: 600, min: 540, max: 760, step: 20 }
  share: { value: 0.9, min: 0.5, max: 1, step: 0.1 }
filters:
  - feature: credit_score_low
    min: $min_credit_score
data:
  monthly_budget: 0
  banking_data: never
pricing:
  mode: max_rate
  target_return: 0
  ceiling_share_of_max: $share
`;

const yamlStrategy = (text: string, file: string): CompiledStrategy => compileStrategy(parseStrategyText(text, file), { file, text });

function contextOf(
  strategy: CompiledStrategy,
  recording: PreparedRecording,
  split: SplitSpec,
  backtest: BacktestOptions,
  trials: number,
  seed: number,
): TrialContext {
  return {
    strategy,
    windows: timeWindows(recording, split),
    trials: sampleTrials(strategy.paramSpecs, strategy.params, trials, seededRandom(seed)),
    backtest,
    objective: { objective: 'risk_adjusted', maxDefault: 0.1 },
  };
}

/** Runs every training trial both ways; returns how many distinct offer counts the trials had. */
function compareAll(context: TrialContext): number {
  const offers = new Set<number>();
  context.windows.forEach((_, window) => {
    context.trials.forEach((_params, trial) => {
      const task = { trial, window, part: 'train' as const };
      const fast = runTrial(context, task);
      const full = runTrialByBacktest(context, task);
      expect(fast, `trial ${trial} window ${window}`).toEqual(full);
      offers.add(full.figures.offers);
    });
  });
  return offers.size;
}

const varied = prepareRecording(variedRecording(900, 7));
const limits = riskLimitsSchema.parse({
  max_open_exposure: 6_000,
  max_per_borrower: 900,
  max_amount_per_day: 4_000,
  max_offers_per_day: 12,
  max_share_by_risk_level: { 2: 0.3 },
  min_cash_reserve: 200,
  allowed_risk_levels: [0, 1, 2],
  offer_expiry_hours: 30,
});

describe('training trials over columns', () => {
  it('give the figures of a full backtest: balanced 2.1.0 (fitted calibration), one split', async () => {
    const context = contextOf(
      await loadStrategyFile(FITTED_BALANCED),
      varied,
      { kind: 'split', trainShare: 0.7 },
      { startingBalanceCents: 2_000_000 },
      30,
      1,
    );
    expect(columnRunner(context, 0)).not.toBeNull();
    expect(compareAll(context)).toBeGreaterThan(5);
  });

  it('give the figures of a full backtest: conservative 2.1.0 (fitted calibration), walk-forward windows, a tight balance', async () => {
    const context = contextOf(
      await loadStrategyFile(FITTED_CONSERVATIVE),
      varied,
      { kind: 'walk_forward', windows: 3 },
      { startingBalanceCents: 300_000 },
      20,
      2,
    );
    expect(columnRunner(context, 2)).not.toBeNull();
    expect(compareAll(context)).toBeGreaterThan(3);
  });

  it('give the figures of a full backtest under risk limits (exposure, borrower, level share, daily caps, reserve)', async () => {
    const context = contextOf(
      await loadStrategyFile(FITTED_BALANCED),
      varied,
      { kind: 'walk_forward', windows: 2 },
      { startingBalanceCents: 1_000_000, limits },
      25,
      3,
    );
    expect(columnRunner(context, 0)).not.toBeNull();
    expect(compareAll(context)).toBeGreaterThan(5);
  });

  it('give the figures of a full backtest: banking data always, manual offers, cost-plus pricing, other market settings', () => {
    const strategy = yamlStrategy(ALWAYS_BANKING_YAML, 'always.yaml');
    const markets = [{ seed: 5 }, { decisionDelayMs: 40 * 3_600_000 }, { settle: false }, { decisionDelayMs: 0, recoveryDelayMonths: 0 }];
    for (const market of markets) {
      const manual = riskLimitsSchema.parse({
        max_open_exposure: null,
        max_per_borrower: null,
        max_amount_per_day: null,
        reserve_manual_offers: false,
      });
      const context = contextOf(
        strategy,
        varied,
        { kind: 'split', trainShare: 0.6 },
        { startingBalanceCents: 800_000, market, limits: manual },
        15,
        4,
      );
      expect(columnRunner(context, 0)).not.toBeNull();
      expect(compareAll(context)).toBeGreaterThan(2);
    }
  });

  it('give the figures of a full backtest: no score (max_rate), and the cash-bound fixture', () => {
    const maxRate = contextOf(
      yamlStrategy(MAX_RATE_YAML, 'max-rate.yaml'),
      varied,
      { kind: 'split', trainShare: 0.7 },
      { startingBalanceCents: 600_000 },
      20,
      5,
    );
    expect(columnRunner(maxRate, 0)).not.toBeNull();
    expect(compareAll(maxRate)).toBeGreaterThan(3);
    const cashBound = prepareRecording(cashBoundRecording(600, 9, (low, random) => (low < 620 && random() < 0.6 ? 0.3 : 1)));
    // Every offer won, and a defaulter's recovery due with its write-off: cash flows that fall
    // due together, whose order moves the drawdown.
    for (const market of [{}, { ...CERTAIN_MARKET, recoveryDelayMonths: 0 }]) {
      const open = contextOf(
        openStrategy(),
        cashBound,
        { kind: 'walk_forward', windows: 2 },
        { startingBalanceCents: CASH_BOUND_BALANCE_CENTS, market },
        12,
        6,
      );
      expect(columnRunner(open, 1)).not.toBeNull();
      expect(compareAll(open)).toBeGreaterThan(3);
    }
  });

  it('fall back to full backtests for a strategy that buys provider data (shipped cashflow)', async () => {
    const context = contextOf(
      await loadStrategyFile(strategyFile('cashflow')),
      varied,
      { kind: 'split', trainShare: 0.7 },
      { startingBalanceCents: 2_000_000 },
      6,
      7,
    );
    expect(columnRunner(context, 0)).toBeNull();
    compareAll(context);
  });

  it('give the same tune report as a tune whose every trial is a full backtest', async () => {
    const strategy = await loadStrategyFile(FITTED_BALANCED);
    const options = {
      trials: 20,
      seed: 11,
      objective: { objective: 'net_return', maxDefault: 0.1 },
      split: { kind: 'walk_forward', windows: 2 },
      backtest: { startingBalanceCents: 1_500_000 },
    } as const;
    const byBacktest = (context: TrialContext): TrialEvaluator => ({
      evaluate: (tasks, onDone) => Promise.resolve(tasks.map((task) => (onDone(), runTrialByBacktest(context, task)))),
      close: () => Promise.resolve(),
    });
    const fast = await tune(varied, strategy, options);
    const full = await tune(varied, await loadStrategyFile(FITTED_BALANCED), { ...options, evaluator: byBacktest });
    expect(fast.windows[0]?.top.length).toBeGreaterThan(1);
    expect(fast).toEqual(full);
  });
});
