import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shareCompactRecording } from '../../src/backtest/compact/shared-compact-recording.js';
import { loadRecording } from '../../src/backtest/load-recording.js';
import { workerPoolEvaluator } from '../../src/backtest/tune/worker-pool.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { syntheticRecording, writeRecording } from './recording-fixtures.js';
import { halvesByDefault, halvingRungs, promote, rungStart } from '../../src/backtest/tune/successive-halving.js';
import { tune, type TuneOptions } from '../../src/backtest/tune/tuner.js';
import { formatTuneReport } from '../../src/cli/commands/tune/tune-report-text.js';
import { FLAT_STRATEGY_YAML, flatStrategy } from './strategy-fixtures.js';
import { PLANTED_OPTIONS, plantedRecording } from './tune-fixtures.js';

const planted = plantedRecording();
// Floors every 2 points, so 30 trials are 30 distinct floors (its grid of 10 has 23).
const fineFloor = (): ReturnType<typeof flatStrategy> => flatStrategy(FLAT_STRATEGY_YAML.replace('step: 10', 'step: 2'));
const options: TuneOptions = PLANTED_OPTIONS;

describe('successive halving', () => {
  it('plans rungs of a third of the trials on three times the requests, the last on the whole period', () => {
    // A year of a busy marketplace: 700,000 training requests, 1,000 trials.
    expect(halvingRungs(1000, 700_000)).toEqual([
      { share: 1 / 27, trials: 1000 },
      { share: 1 / 9, trials: 334 },
      { share: 1 / 3, trials: 112 },
      { share: 1, trials: 38 },
    ]);
    // No part shorter than 20,000 requests; no last rung of fewer than 9 trials.
    expect(halvingRungs(1000, 100_000)).toEqual([
      { share: 1 / 3, trials: 1000 },
      { share: 1, trials: 334 },
    ]);
    expect(halvingRungs(20, 700_000)).toEqual([{ share: 1, trials: 20 }]);
    expect(halvingRungs(200, 35_000)).toEqual([{ share: 1, trials: 200 }]);
    expect(halvesByDefault(200, 35_000)).toBe(false);
    expect(halvesByDefault(1000, 700_000)).toBe(true);
  });

  it('replays the most recent part of the period, and promotes the best with the current values', () => {
    expect(rungStart(900, 1 / 3)).toBe(600);
    expect(rungStart(900, 1)).toBe(0);
    const scored = [
      { trial: 0, score: 0.01 },
      { trial: 1, score: 0.05 },
      { trial: 2, score: 0.09 },
      { trial: 3, score: 0.05 },
    ];
    expect(promote(scored, 2)).toEqual([0, 1, 2]);
    expect(promote(scored, 1)).toEqual([0, 2]);
  });

  it('finds the planted optimum judging every trial on a third of the period first', async () => {
    const rungs: unknown[] = [];
    const report = await tune(planted, fineFloor(), { ...options, halving: true, minRungRequests: 100, onRung: (r) => rungs.push(r) });
    // 420 training requests: the last 140 first.
    expect(rungs).toEqual([
      { rung: 1, of: 2, share: 1 / 3, trials: 30, requests: 140 },
      { rung: 2, of: 2, share: 1, trials: 11, requests: 420 },
    ]);
    expect(report.halving).toEqual([
      { share: 1 / 3, trials: 30 },
      { share: 1, trials: 11 },
    ]);
    // Ranges start every 20 points: any floor above 600 up to 620 is the planted one.
    expect(report.chosen.min_credit_score).toBeGreaterThan(600);
    expect(report.chosen.min_credit_score).toBeLessThanOrEqual(620);
    expect(report.improved).toBe(true);
    // The table ranks the trials of the last rung, scored on the whole training period.
    expect(report.windows[0]?.top.length).toBe(5);
    expect(formatTuneReport(report)).toContain(
      'Successive halving (the trials at first judged on the most recent part of the training period, the best third of each rung on a part three times longer): 30 on its last 33.3%, 11 on all of it.',
    );
  });

  it('scores the last rung on the whole period, as a tune without halving scores every trial', async () => {
    const halved = await tune(planted, fineFloor(), { ...options, halving: true, minRungRequests: 100, top: 30 });
    const full = await tune(planted, fineFloor(), { ...options, halving: false, top: 30 });
    const fullScore = new Map(full.windows[0]?.top.map((t) => [t.trial, t.train]));
    const last = halved.windows[0]?.top ?? [];
    expect(last.length).toBe(11);
    for (const trial of last) expect(trial.train).toBe(fullScore.get(trial.trial));
    expect(halved.windows[0]?.baseline).toEqual(full.windows[0]?.baseline);
    expect(full).not.toHaveProperty('halving');
  });

  it('changes nothing when the tune is too small to halve', async () => {
    const asked = await tune(planted, fineFloor(), { ...options, halving: true });
    const small = await tune(planted, fineFloor(), options);
    expect(asked).toEqual(small);
    expect(small).not.toHaveProperty('halving');
  });

  it('gives the same report on worker threads reading the shared recording as in this thread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lendbot-tune-halving-'));
    try {
      const file = join(dir, 'planted.jsonl');
      const strategyFile = join(dir, 'fine.yaml');
      await writeRecording(
        file,
        syntheticRecording(600, 11, (low) => (low < 620 ? 0.3 : 1)),
      );
      await writeFile(strategyFile, FLAT_STRATEGY_YAML.replace('step: 10', 'step: 2'));
      const recording = await loadRecording(file, {}, () => undefined);
      const strategy = await loadStrategyFile(strategyFile);
      const halving = { ...options, halving: true, minRungRequests: 100 };
      const inThread = await tune(recording, strategy, halving);
      const source = { recording: shareCompactRecording(recording), file, period: {}, strategyFile, split: options.split };
      expect(source.recording).toBeDefined();
      const onWorkers = await tune(recording, strategy, { ...halving, evaluator: workerPoolEvaluator(source, 2) });
      expect(onWorkers.halving).toHaveLength(2);
      expect(onWorkers).toEqual(inThread);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
