/**
 * The winner's curse learned while replaying (`pricing.winners_curse`; docs/market-model.md):
 * - no look-ahead: a funded loan's fate reaches the learner only once the replay has passed the
 *   loan's whole term (never at its default, nor earlier), and every price rests on exactly the
 *   fates told by then;
 * - in a take-up-curve world with no other lender and a score that is right, winning says nothing
 *   about repayment: w stays near 0;
 * - on a sandbox export of `shoppers` (good borrowers shop, other lenders read hidden risk), the
 *   loans won repay worse the higher the rate: P(repay | won) falls with the rate, below the score.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readFile } from 'node:fs/promises';
import { defaultBalance, loadRecording, prepareRecording, runBacktest, type PreparedRecording } from '../../src/backtest/index.js';
import { addMonthsUtc } from '../../src/clock/utc-month.js';
import type { RepayFate } from '../../src/backtest/repay-fates.js';
import { compileStrategy, parseStrategyText, type CompiledStrategy } from '../../src/engine/index.js';
import { MarketLearning } from '../../src/engine/market/index.js';
import { wonRepayProbability } from '../../src/engine/market/repay-curse.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { syntheticRecording } from './recording-fixtures.js';

const SCORED = 0.93;
const logit = (p: number): number => Math.log(p / (1 - p));

/** A strategy scoring every borrower SCORED, pricing for expected profit with the curse. */
function cursedStrategy(curse: string): CompiledStrategy {
  const text = `name: cursed
description: constant score, expected-profit pricing with the winner's curse
version: "1"
score:
  logistic: { intercept: ${logit(SCORED)}, terms: [{ feature: loan_terms, weight: 0 }] }
pricing:
  mode: expected_profit
  target_return: 0.02
  recovery: 0.5
  winners_curse: ${curse}
`;
  return compileStrategy(parseStrategyText(text, 'cursed.yaml'), { file: 'cursed.yaml', text });
}

/**
 * 600 requests 12 hours apart (300 days), 3-month loans, nobody else offers, and each borrower
 * repays in full with the score's chance whatever the rate: the take-up curve decides acceptance.
 */
function honestWorld(seed: number): PreparedRecording {
  return prepareRecording(
    syntheticRecording(600, seed, (_low, random) => (random() < SCORED ? 1 : 0.2), { spacingHours: 12, loanTerms: 3 }),
  );
}

interface Replayed {
  fates: RepayFate[];
  learning: MarketLearning;
  decisions: Array<{ seenMs: number; evidence: number | undefined }>;
}

function replay(recording: PreparedRecording, strategy: CompiledStrategy): Replayed {
  const fates: RepayFate[] = [];
  const learning = new MarketLearning();
  const result = runBacktest(recording, [strategy], {
    startingBalanceCents: defaultBalance(recording).cents,
    learning,
    recordDecisions: true,
    onRepayLearned: (fate) => fates.push(fate),
  });
  const decisions = result.decisions
    .filter((d) => d.action === 'offer')
    .map((d) => {
      const match = /winner's curse, (\d+) loans/.exec(d.reasons.join(' '));
      return { seenMs: Date.parse(d.decided_at), evidence: match ? Number(match[1]) : undefined };
    });
  return { fates, learning, decisions };
}

describe("the winner's curse in a replay", () => {
  it('learns a loan only once its term has passed, and prices on exactly the fates known by then', () => {
    // A tiny fixed correction, so every price's reason names the loans the curse rests on.
    const { fates, decisions } = replay(honestWorld(1), cursedStrategy('{ prior_sd: 1, w: [-0.01, 0, 0] }'));
    expect(fates.length).toBeGreaterThan(20);
    const defaulted = fates.filter((fate) => !fate.repaid);
    expect(defaulted.length).toBeGreaterThan(3);
    for (const fate of fates) {
      expect(fate.atMs).toBe(addMonthsUtc(fate.fundedMs, 3));
      if (fate.defaultMs !== null) expect(fate.defaultMs).toBeLessThan(fate.atMs);
    }
    // Defaults are known months before the term ends; none may be told early.
    const told = (ms: number): number => fates.filter((fate) => fate.atMs <= ms).length;
    let later = 0;
    for (const decision of decisions) {
      expect(decision.evidence).toBe(told(decision.seenMs));
      if ((decision.evidence ?? 0) > 0) later += 1;
    }
    expect(later).toBeGreaterThan(10);
    const knownDefaultNotTold = decisions.some((d) =>
      defaulted.some((fate) => fate.defaultMs !== null && fate.defaultMs <= d.seenMs && fate.atMs > d.seenMs),
    );
    expect(knownDefaultNotTold).toBe(true);
  });

  it('stays near 0 where winning says nothing about repayment (a take-up curve, no other lender, a right score)', () => {
    for (const seed of [2, 3]) {
      const strategy = cursedStrategy('{ prior_sd: 1 }');
      const { learning } = replay(honestWorld(seed), strategy);
      const state = learning.curse.existing(strategy.name);
      expect(state?.evidence ?? 0).toBeGreaterThan(30);
      const w = state?.posterior.mean ?? [];
      const low = wonRepayProbability(SCORED, 0.06, 0.3, w);
      const high = wonRepayProbability(SCORED, 0.29, 0.3, w);
      expect(Math.abs(high - low)).toBeLessThan(0.05);
      expect(Math.abs(high - SCORED)).toBeLessThan(0.05);
    }
  });
});

describe("the winner's curse on a sandbox market where better borrowers shop", () => {
  let dir: string;
  let recording: PreparedRecording;
  let strategy: CompiledStrategy;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lendbot-winners-curse-'));
    const file = join(dir, 'shoppers.jsonl');
    await exportSandboxRecording(file, { seed: 3, requests: 2000, shape: 'shoppers', arrivalsPerHour: 1 });
    recording = await loadRecording(file, {}, () => undefined);
    const doc = parse(await readFile('strategies/balanced.yaml', 'utf8')) as { pricing: Record<string, unknown> };
    doc.pricing = { ...doc.pricing, winners_curse: { prior_sd: 1 } };
    const text = stringify(doc);
    strategy = compileStrategy(parseStrategyText(text, 'strategies/balanced-curse.yaml'), { file: 'strategies/balanced-curse.yaml', text });
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds that the loans won repay worse than scored, and the worse the higher the rate', () => {
    const { learning } = replay(recording, strategy);
    const state = learning.curse.existing(strategy.name);
    expect(state?.evidence ?? 0).toBeGreaterThan(15);
    const w = state?.posterior.mean ?? [];
    const at = (u: number): number => wonRepayProbability(0.85, 0.03 + u * 0.47, 0.5, w);
    expect(at(0.9)).toBeLessThan(at(0.2) - 0.1);
    expect(at(0.2)).toBeLessThan(0.85);
  }, 60_000);
});
