/**
 * The learned default level is a wing (issue 38, item 2): the daemon decides and places with it
 * left out. Both runs below start on a store where a previous run left a calibration learner for
 * learned-level (score.calibration method learned, fed forty loans' payments) and take a
 * webhook's request and a polled one on the same sandbox. Attached, the wing restores that
 * learner and the decisions are priced by its level; left out (DaemonOverrides.calibration =
 * false, what deleting its attach line in src/daemon/daemon.ts does), the same two requests are
 * still decided and placed once, priced by the prior (version 0, no loan), with no
 * `learn-defaults` job.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createCalibrationLearningRepository } from '../../src/calibration/calibration-learning-repository.js';
import type { StoredCalibration } from '../../src/engine/market/index.js';
import { databaseOf, type Store } from '../../src/store/index.js';
import { fedCalibrationLearner } from '../calibration/fed-learner.js';
import { offerHookedAndPolled, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const LEARNED_LEVEL = fileURLToPath(new URL('./fixtures/learned-level.yaml', import.meta.url));

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** learned-level's learner after forty funded loans' payments. */
const learner = fedCalibrationLearner();

/** What a previous run left: the learner above, stored as the wing stores it. */
function seedLearner(store: Store): void {
  const stored: StoredCalibration = { state: learner.snapshotState, settings: learner.settings };
  const row = { version: learner.version, ...learner.evidence, state: JSON.parse(JSON.stringify(stored)) as unknown };
  createCalibrationLearningRepository(databaseOf(store)).saveLearner('learned-level', row, 0);
}

/** Which learned level priced each request (version and loans, from its decision row). */
async function tradeAndReadLevels(h: DaemonHarness): Promise<Array<[number | undefined, number | undefined]>> {
  const ids = await offerHookedAndPolled(h);
  return ids.map((id) => {
    const used = h.store.decisions.get(id)?.calibration;
    return [used?.version, used?.loans];
  });
}

describe('the daemon with the learned default level left out', () => {
  it('with the wing attached, the stored learner prices both requests (the control)', async () => {
    expect(learner.version).toBeGreaterThan(0);
    harness = await startDaemonHarness({ strategyFiles: [LEARNED_LEVEL], seedStore: seedLearner, balanceCents: 10_000_000 });
    const level: [number, number] = [learner.version, learner.evidence.loans];
    expect(await tradeAndReadLevels(harness)).toEqual([level, level]);
    await expect(harness.daemon.runJob('learn-defaults')).resolves.toBeUndefined();
  });

  it('decides and places from a webhook and a poll, priced by the prior, with no learn-defaults job', async () => {
    harness = await startDaemonHarness({
      strategyFiles: [LEARNED_LEVEL],
      seedStore: seedLearner,
      balanceCents: 10_000_000,
      calibrationWing: false,
    });
    expect(await tradeAndReadLevels(harness)).toEqual([
      [0, 0],
      [0, 0],
    ]);
    await expect(harness.daemon.runJob('learn-defaults')).rejects.toThrow(/no job "learn-defaults"/);
  });
});
