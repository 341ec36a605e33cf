// A tune writes its candidate only when the held-out gain holds in every borrower world, not only
// under the assumed take-up curve (held-out-worlds.ts); --ignore-worlds (acrossWorlds: false)
// writes it on the curve's word alone.
import { describe, expect, it } from 'vitest';
import { prepareRecording } from '../../src/backtest/prepared-recording.js';
import { tune, type TuneOptions } from '../../src/backtest/tune/tuner.js';
import { heldOutInWorlds } from '../../src/backtest/tune/held-out-worlds.js';
import { inProcessEvaluator, runTrialByBacktest, type TrialContext, type TrialTask } from '../../src/backtest/tune/trial-evaluator.js';
import { compileStrategy, parseStrategyText, marketResponse } from '../../src/engine/index.js';
import { formatTuneReport } from '../../src/cli/commands/tune/tune-report-text.js';
import { cashBoundRecording } from './tune-fixtures.js';

// Offers the cap, min(max_interest_rate, ceiling), to everyone; every loan repays. Under a steep
// assumed curve (half of borrowers walk away a fifth of the way to the maximum) a low ceiling wins
// far more loans; where borrowers take any rate up to their maximum (the insensitive world) it
// only earns less on the same loans.
const YAML = `name: capped
description: the cap, under a tunable ceiling
version: "1"
params:
  ceiling: { value: 0.3, min: 0.06, max: 0.3, step: 0.02 }
score:
  logistic: { intercept: 6, terms: [{ feature: credit_score_mid, weight: 0, missing: 0 }] }
pricing:
  mode: max_rate
  target_return: 0
  ceiling: $ceiling
`;
const strategy = () => compileStrategy(parseStrategyText(YAML, 'capped.yaml'), { file: 'capped.yaml', text: YAML });
const recording = prepareRecording(cashBoundRecording(1200, 3, () => 1));
const options = (acrossWorlds: boolean): TuneOptions => ({
  trials: 12,
  seed: 1,
  objective: { objective: 'net_return', maxDefault: 0.1 },
  split: { kind: 'split', trainShare: 0.7 },
  backtest: { startingBalanceCents: 50_000_000, market: { response: marketResponse({ takeUp: { midpoint: 0.2, steepness: 15 } }) } },
  acrossWorlds,
  // A small recording for speed: the worlds rule is tested here, not the sample size.
  acceptSmallSample: true,
});

describe('tune across borrower worlds', () => {
  it('refuses a candidate that wins under the assumed curve but loses where borrowers ignore the rate, and prints every world', async () => {
    const report = await tune(recording, strategy(), options(true));
    expect(report.heldOut.low).toBeGreaterThan(0);
    expect(report.worlds.map((w) => w.world)).toEqual(['insensitive', 'linear', 'quality', 'assumed']);
    const insensitive = report.worlds.find((w) => w.world === 'insensitive');
    expect(insensitive?.evidence.gain).toBeLessThan(0);
    expect(insensitive?.evidence.requests).toBe(360);
    expect(report.improved).toBe(false);
    expect(report.chosen).toEqual({ ceiling: 0.3 });
    expect(report.verdict).toMatch(
      /^not across borrower worlds: .* but the held-out gain does not hold in insensitive -\d+\.\d\d points.*; keeping the current values \(--ignore-worlds writes them anyway\)$/,
    );
    const text = formatTuneReport(report);
    expect(text).toMatch(
      /Held out in each borrower world \(the gain must be above 0 in every one\):\n {2}world +gain +95% interval +requests +funded\n {2}insensitive +-\d+\.\d\d% +-\d+\.\d\d% to -\d+\.\d\d% +360 +360 vs 360\n/,
    );
  });

  it('writes it on the curve’s word alone when told to', async () => {
    const report = await tune(recording, strategy(), options(false));
    expect(report.improved).toBe(true);
    expect(report.chosen.ceiling).toBeLessThan(0.3);
    expect(report.verdict).toMatch(/^improved: /);
  });

  it('hands the world runs to the evaluator with the held-out ones, in one batch the workers share, and judges as a run in this thread does', async () => {
    const batches: TrialTask[][] = [];
    let context: TrialContext | undefined;
    const report = await tune(recording, strategy(), {
      ...options(true),
      evaluator: (c) => {
        context = c;
        const inner = inProcessEvaluator(c);
        return { ...inner, evaluate: (tasks, onDone) => (batches.push([...tasks]), inner.evaluate(tasks, onDone)) };
      },
    });
    const candidate = report.windows[0]?.top[0]?.trial ?? 0;
    expect(candidate).not.toBe(0);
    // The last batch: the candidate and the current values held out, then the same in each of the 4 worlds.
    const last = batches.at(-1) ?? [];
    expect(last.map((t) => [t.part, t.trial, t.world ?? null])).toEqual(
      [null, 0, 1, 2, 3].flatMap((world) => [
        ['test', 0, world],
        ['test', candidate, world],
      ]),
    );
    // The readable way: each world's runs made here, one after another, with the world in the options.
    if (!context) throw new Error('no context');
    const c = context;
    const direct = heldOutInWorlds(c.windows, c.backtest, 1, (backtest, window) => ({
      candidate: runTrialByBacktest({ ...c, backtest }, { trial: candidate, window, part: 'test' }),
      baseline: runTrialByBacktest({ ...c, backtest }, { trial: 0, window, part: 'test' }),
    }));
    expect(report.worlds).toEqual(direct);
  });
});
