/**
 * The clairvoyant lenders of bench/pricing-ceiling.ts on a small real sandbox export: risk sight
 * prices with the default strategy's own pricing at the true repayment probability; market sight
 * offers the highest rate that wins when it clears the hurdle, else skips.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hiddenRepayProbabilities } from '../../bench/hidden-truth.js';
import { clairvoyantStrategy, recordedReservation } from '../../src/backtest/clairvoyant-strategies.js';
import { borrowerChoice, loadRecording, recordedCompetition, runDraws, type PreparedRecording } from '../../src/backtest/index.js';
import {
  compileStrategy,
  loadStrategyFile,
  parseStrategyText,
  type CompiledStrategy,
  type Decision,
  type Enrichment,
} from '../../src/engine/index.js';
import { expectedProfitCents, type LoanEconomics } from '../../src/math/index.js';
import type { RecordingLine } from '../../src/recording/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { parseCents } from '../../src/domain/index.js';

const MARKET = { seed: 1, requests: 400, shape: 'shoppers', arrivalsPerHour: 3 };
// test/fixtures/balanced-fitted.yaml's pricing (balanced 2.1.0) and min_probability, written out so the test checks the arithmetic itself.
const TARGET = 0.08;
const MIN_PROBABILITY = 0.6;
const economicsOf = (line: RecordingLine, probability: number): LoanEconomics => {
  const total = parseCents(line.loan_request.total_amount);
  return {
    probability,
    recovery: 0.25,
    servicingCost: 0.02,
    fundedCents: total,
    repaidPrincipalCents: total,
    terms: line.loan_request.loan_terms,
  };
};

let dir: string;
let recording: PreparedRecording;
let truth: Map<number, number>;
let balanced: CompiledStrategy;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lendbot-clairvoyant-'));
  const file = join(dir, 'shoppers.jsonl');
  await exportSandboxRecording(file, MARKET);
  truth = hiddenRepayProbabilities(MARKET);
  recording = await loadRecording(file, {}, () => undefined);
  balanced = await loadStrategyFile('test/fixtures/balanced-fitted.yaml');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The decision once the banking data the line has is bought (or known missing), as a replay's last round. */
function decide(strategy: CompiledStrategy, line: RecordingLine): Decision {
  const enrichment: Enrichment = line.data_aggs ? { bankingData: line.data_aggs } : { unavailable: { bankingData: true } };
  return strategy.evaluate(line.loan_request, enrichment);
}

/** The lines where balanced reached its score's verdict (past its filters). */
function scoredLines(): RecordingLine[] {
  return recording.entries.map((entry) => entry.line).filter((line) => decide(balanced, line).probability !== undefined);
}

describe('risk sight', () => {
  it("with the strategy's own probability, decides exactly as the strategy", () => {
    const own = (id: number): number | undefined => {
      const line = recording.entries.find((entry) => entry.line.loan_request.id === id)?.line;
      return line === undefined ? undefined : decide(balanced, line).probability;
    };
    const mirror = clairvoyantStrategy(balanced, recording, { repayProbability: own }, 'mirror');
    const lines = recording.entries.map((entry) => entry.line);
    expect(lines.map((line) => [decide(mirror, line).action, decide(mirror, line).rate])).toEqual(
      lines.map((line) => [decide(balanced, line).action, decide(balanced, line).rate]),
    );
    expect(lines.filter((line) => decide(balanced, line).action === 'offer').length).toBeGreaterThan(10);
  });

  it("prices with the true repayment probability, under the strategy's min_probability and ceiling", () => {
    const risk = clairvoyantStrategy(balanced, recording, { repayProbability: (id) => truth.get(id) }, 'risk-clairvoyant');
    let offered = 0;
    let rescued = 0;
    for (const line of scoredLines()) {
      const p = truth.get(line.loan_request.id) ?? Number.NaN;
      const own = decide(balanced, line);
      const decision = decide(risk, line);
      expect(decision.strategy.name).toBe('risk-clairvoyant');
      if (p < MIN_PROBABILITY) {
        expect(decision.action).toBe('skip');
        continue;
      }
      if (decision.action !== 'offer') continue;
      offered += 1;
      if (own.action === 'skip') rescued += 1;
      expect(decision.probability).toBe(p);
      expect(decision.priceCurve?.economics.probability).toBe(p);
      expect(decision.rate ?? 1).toBeLessThanOrEqual(0.95 * line.loan_request.max_interest_rate + 1e-9);
      expect(expectedProfitCents(decision.rate ?? 0, TARGET, economicsOf(line, p))).toBeGreaterThan(0);
    }
    expect(offered).toBeGreaterThan(10);
    // Some borrowers the score turned away truly repay well enough to lend to.
    expect(rescued).toBeGreaterThan(0);
  });
});

describe('market sight', () => {
  it("offers the highest rate that wins when it clears the hurdle at the strategy's probability, else skips", () => {
    const market = clairvoyantStrategy(balanced, recording, { reservation: recordedReservation }, 'market-clairvoyant');
    const counts = { offer: 0, belowHurdle: 0, cannotWin: 0 };
    for (const line of scoredLines()) {
      const p = decide(balanced, line).probability ?? Number.NaN;
      const decision = decide(market, line);
      if (p < MIN_PROBABILITY) {
        expect(decision.action).toBe('skip');
        continue;
      }
      const reservation = line.outcome?.reservation_rate ?? 0;
      const competition = recordedCompetition(line.outcome, 'win');
      if (competition === 'lose') throw new Error('a sandbox line names its competition');
      const max = line.loan_request.max_interest_rate;
      if (decision.action === 'offer') {
        counts.offer += 1;
        const rate = decision.rate ?? 0;
        expect(decision.probability).toBe(p);
        // It wins, and a rate one unit higher would not (or is over the maximum).
        expect(borrowerChoice(rate, reservation, competition)).toBe('won');
        if (rate + 0.0001 <= max) expect(borrowerChoice(rate + 0.0001, reservation, competition)).not.toBe('won');
        expect(rate).toBeLessThanOrEqual(Math.min(reservation, max));
        if (competition.kind !== 'none') expect(rate).toBeLessThan(competition.rate);
        expect(expectedProfitCents(rate, TARGET, economicsOf(line, p))).toBeGreaterThan(0);
        continue;
      }
      expect(decision.action).toBe('skip');
      const cap = Math.min(reservation, max, competition.kind === 'none' ? Number.POSITIVE_INFINITY : competition.rate - 0.0001);
      if (cap < 0.03) counts.cannotWin += 1;
      else {
        // The highest winning rate earns no more than the hurdle.
        counts.belowHurdle += 1;
        expect(expectedProfitCents(cap, TARGET, economicsOf(line, p))).toBeLessThanOrEqual(0.5);
      }
    }
    expect(counts.offer).toBeGreaterThan(10);
    expect(counts.belowHurdle + counts.cannotWin).toBeGreaterThan(0);
  });

  it('with risk sight too, prices the winning rate at the true probability', () => {
    const both = clairvoyantStrategy(
      balanced,
      recording,
      { reservation: recordedReservation, repayProbability: (id) => truth.get(id) },
      'both',
    );
    const offers = scoredLines()
      .map((line) => ({ line, decision: decide(both, line) }))
      .filter(({ decision }) => decision.action === 'offer');
    // Few: in shoppers competitors price near the true risk, so undercutting them rarely clears the hurdle.
    expect(offers.length).toBeGreaterThan(0);
    for (const { line, decision } of offers) {
      expect(decision.probability).toBe(truth.get(line.loan_request.id));
      expect(expectedProfitCents(decision.rate ?? 0, TARGET, economicsOf(line, decision.probability ?? 0))).toBeGreaterThan(0);
    }
  });

  it('refuses a strategy it cannot reuse the pricing of', async () => {
    const naive = await loadStrategyFile('strategies/examples/naive.yaml');
    expect(() => clairvoyantStrategy(naive, recording, { reservation: recordedReservation }, 'x')).toThrow(/expected_profit/);
  });

  it("refuses a strategy with a filter on a paid score, whose skips it could not tell from the score's", () => {
    const text = readFileSync('test/fixtures/balanced-fitted.yaml', 'utf8').replace(
      'filters:\n',
      'filters:\n  - feature: provider_a_score\n    min: 500\n    missing: pass\n',
    );
    const file = join(dir, 'paid-filter.yaml');
    const paid = compileStrategy(parseStrategyText(text, file), { file, text });
    expect(() => clairvoyantStrategy(paid, recording, { reservation: recordedReservation }, 'x')).toThrow(/paid scores/);
  });
});

describe('market sight on a strategy that learns its default level', () => {
  it("feeds the strategy's learner with its own funded loans, as the strategy would be fed", async () => {
    const learning = await loadStrategyFile('strategies/balanced.yaml');
    const moonshot = clairvoyantStrategy(learning, recording, { reservation: recordedReservation }, 'moonshot');
    // The learner is the strategy's, found by name: the clairvoyant answers under it.
    expect(moonshot.name).toBe(learning.name);
    const { first } = runDraws(recording, [moonshot], { startingBalanceCents: 10_000_000, recordDecisions: true }, [1]);
    expect(first.loans.length).toBeGreaterThan(5);
    // Every funded loan teaches the level it was priced with (without it the level stayed the prior's).
    expect(first.loans.every((loan) => loan.calibration !== undefined)).toBe(true);
    const offers = first.decisions.filter((decision) => decision.action === 'offer');
    expect(offers.every((decision) => decision.reasons.some((reason) => reason.startsWith('moonshot: offer')))).toBe(true);
  }, 60_000);

  it('keeps the level at the prior when asked, under its own name', async () => {
    const learning = await loadStrategyFile('strategies/balanced.yaml');
    const frozen = clairvoyantStrategy(learning, recording, { reservation: recordedReservation }, 'moonshot', { feedsLevel: false });
    expect(frozen.name).toBe('moonshot');
    const { first } = runDraws(recording, [frozen], { startingBalanceCents: 10_000_000 }, [1]);
    expect(first.loans.length).toBeGreaterThan(5);
    expect(first.loans.some((loan) => loan.calibration !== undefined)).toBe(false);
  }, 60_000);
});
