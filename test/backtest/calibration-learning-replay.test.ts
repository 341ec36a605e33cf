/**
 * The learned default level in a replay (score.calibration method learned): the backtest feeds
 * each funded loan's instalments and default to the strategy's learner as the replay reaches
 * them, so loans funded late are priced with what the early ones taught. On a sandbox export
 * whose defaults run well above the prior's (the example strategy with its prior centre put at
 * 0.4 times the score's odds of default), the second half's loans are priced well above the
 * prior and, every fate seen, the learned level is within 3 points of what its loans did; each
 * default is taught at the instalment the recording says was missed; the same replay twice
 * gives the same figures.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecording, runBacktest, type PreparedRecording } from '../../src/backtest/index.js';
import { learnedLevelCheck } from '../../src/backtest/calibration/index.js';
import { loadStrategyFile, type CompiledStrategy } from '../../src/engine/index.js';
import { MarketLearning } from '../../src/engine/market/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { TIMING_BINS } from '../../src/engine/market/default-timing.js';
import { levelAt, meanDefaultLogOdds } from '../../src/engine/market/calibration-learner.js';
import { logistic as sigmoid } from '../../src/math/index.js';

const LEVEL_MEAN = Math.log(0.4);
let dir: string;
let recording: PreparedRecording;
let strategy: CompiledStrategy;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-learned-level-'));
  const file = join(dir, 'classic.jsonl');
  // A few months of requests at one an hour: funded loans pay instalments while requests still come.
  await exportSandboxRecording(file, { seed: 1, requests: 3000, shape: 'classic', arrivalsPerHour: 1 });
  recording = await loadRecording(file, {}, () => undefined);
  const doc = parse(await readFile('strategies/examples/balanced-learned.yaml', 'utf8')) as { score: { calibration: object } };
  doc.score.calibration = { ...doc.score.calibration, level_mean: LEVEL_MEAN };
  const strategyFile = join(dir, 'learned.yaml');
  await writeFile(strategyFile, stringify(doc));
  strategy = await loadStrategyFile(strategyFile);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function replay() {
  const learning = new MarketLearning();
  const result = runBacktest(recording, [strategy], { startingBalanceCents: 10_000_000, recordDecisions: true, learning });
  return { result, learner: learning.calibration.existing(strategy.name) };
}

describe('a learned default level in the replay', () => {
  it('prices the second half with what the first half taught, and ends at the level its loans defaulted at', () => {
    const { result, learner } = replay();
    const late = learnedLevelCheck(result, strategy.name, LEVEL_MEAN);
    // The second half's loans were priced well above the prior (20.1 % against 4.5 %, n 17; 2 of
    // them defaulted, a lucky draw against the 27.7 % of the whole run).
    expect(late.n).toBeGreaterThanOrEqual(15);
    expect(late.predicted).toBeGreaterThan(late.prior + 0.1);
    // Every fate seen, the learner's mean default over its closed loans is within 3 points of
    // what they did (26.7 % against 27.7 %, n 47).
    const closed = result.loans.filter((loan) => loan.outcome !== 'open' && loan.calibration !== undefined);
    const posterior = learner?.posterior ?? { mean: [], cov: [] };
    const meanDefault = (scoreDefault: number): number => {
      const { mean, variance } = levelAt(posterior, scoreDefault);
      return sigmoid(meanDefaultLogOdds(mean, variance));
    };
    const learned = closed.reduce((sum, loan) => sum + meanDefault(loan.calibration?.scoreDefault ?? 0.5), 0) / closed.length;
    const realised = closed.filter((loan) => loan.outcome === 'defaulted').length / closed.length;
    expect(closed.length).toBeGreaterThanOrEqual(40);
    expect(Math.abs(learned - realised)).toBeLessThan(0.03);
    // The learner followed every funded loan, and moved its level up from the prior's centre.
    expect(learner?.evidence.loans).toBe(result.summary.funded);
    expect(learner?.posterior.mean[0] ?? 0).toBeGreaterThan(LEVEL_MEAN + 1);
    // Each offer says which learned level priced it and how uncertain it was: v0 with no loans first, later ones on evidence.
    const levelTexts = result.decisions.flatMap((decision) =>
      decision.reasons.filter((reason) => reason.startsWith('price level uncertain')),
    );
    expect(levelTexts[0]).toMatch(/^price level uncertain v0 \(0 loans, 0 loan-months\): default \S+, sd \S+; floor \S+ at q0\.80 /);
    expect(levelTexts.some((text) => /^price level uncertain v[1-9]\d* \([1-9]\d* loans/.test(text))).toBe(true);
  }, 60_000);

  it('learns each default at the instalment the recording says was missed, not after the recovery read as instalments', () => {
    const { result, learner } = replay();
    const lineById = new Map(recording.entries.map((entry) => [entry.line.loan_request.id, entry.line]));
    const expected = new Array<number>(TIMING_BINS).fill(0);
    for (const loan of result.loans) {
      if (loan.outcome !== 'defaulted') continue;
      const line = lineById.get(loan.loanRequestId);
      const missed = line?.outcome?.missed_month ?? line?.outcome?.if_funded?.missed_month;
      const term = line?.loan_request.loan_terms ?? 0;
      if (missed === undefined) throw new Error(`loan ${loan.loanRequestId} defaulted without a recorded missed month`);
      const bin = Math.min(TIMING_BINS - 1, Math.max(0, Math.ceil((Math.min(missed, term) / term) * TIMING_BINS) - 1));
      expected[bin] = (expected[bin] ?? 0) + 1;
    }
    expect(expected.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(10);
    expect(learner?.snapshotState.timing.defaults).toEqual(expected);
  }, 60_000);

  it('is deterministic: the same replay twice gives the same learner and the same decisions', () => {
    const first = replay();
    const second = replay();
    expect(JSON.stringify(second.learner?.snapshotState)).toBe(JSON.stringify(first.learner?.snapshotState));
    expect(JSON.stringify(second.result.decisions)).toBe(JSON.stringify(first.result.decisions));
    expect(second.result.summary).toEqual(first.result.summary);
  }, 60_000);
});
