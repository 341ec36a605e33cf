/**
 * The learned default level in a replay (score.calibration method learned): the backtest feeds
 * each funded loan's instalments and default to the strategy's learner as the replay reaches
 * them, so loans funded late are priced with what the early ones taught. On a sandbox export
 * whose defaults run well above the prior's (the example strategy with its prior centre put at
 * 0.4 times the score's odds of default), the default the second half's loans were priced with
 * is closer to what they did than the prior's; the same replay twice gives the same figures.
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
  it('prices the second half closer to what happened than its prior, from the first half’s payments', () => {
    const { result, learner } = replay();
    const late = learnedLevelCheck(result, strategy.name, LEVEL_MEAN);
    expect(late.n).toBeGreaterThanOrEqual(30);
    expect(Math.abs(late.predicted - late.realised)).toBeLessThan(Math.abs(late.prior - late.realised));
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

  it('is deterministic: the same replay twice gives the same learner and the same decisions', () => {
    const first = replay();
    const second = replay();
    expect(JSON.stringify(second.learner?.snapshotState)).toBe(JSON.stringify(first.learner?.snapshotState));
    expect(JSON.stringify(second.result.decisions)).toBe(JSON.stringify(first.result.decisions));
    expect(second.result.summary).toEqual(first.result.summary);
  }, 60_000);
});
