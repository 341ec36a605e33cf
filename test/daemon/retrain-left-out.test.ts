/**
 * Retraining is a wing (issue 38, item 2): the daemon decides and places with it left out. Both
 * runs below start on a database holding a retrained version of the strategy, built on the file
 * in use; the second leaves retraining unattached (DaemonOverrides.retrain = false, what deleting
 * its attach line in src/daemon/daemon.ts does). It still turns a webhook and a poll into guarded
 * offers, now by the file as written, and no retrain job exists.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStrategyFile } from '../../src/engine/index.js';
import { createRetrainRepository, databaseOf, type Store } from '../../src/store/index.js';
import { OFFER_ALL, offerHookedAndPolled, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const file = await loadStrategyFile(OFFER_ALL);

/** A retrained version of offer-all in force: the same rules, another text (so another hash). */
const retrainedText = `${await readFile(OFFER_ALL, 'utf8')}\n# retrained\n`;
function seedRetrainedVersion(store: Store): void {
  const version = { strategy: file.name, kind: 'promoted' as const, roundId: null, text: retrainedText, model: null, parentId: null };
  createRetrainRepository(databaseOf(store)).addVersion({ ...version, restoredId: null, fileHash: file.contentHash }, 0);
}

describe('the daemon with retraining left out', () => {
  it('with retraining attached, the retrained version decides (the control)', async () => {
    harness = await startDaemonHarness({ seedStore: seedRetrainedVersion });
    harness.sandbox.control.advance(1000);
    const hashes = (await offerHookedAndPolled(harness)).map((id) => harness?.store.decisions.get(id)?.contentHash);
    expect(hashes[0]).not.toBe(file.contentHash);
    expect(hashes).toEqual([hashes[0], hashes[0]]);
    await harness.daemon.runJob('retrain');
  });

  it('decides and places from a webhook and a poll by the file as written, with no retrain job', async () => {
    harness = await startDaemonHarness({ seedStore: seedRetrainedVersion, retrainWing: false });
    harness.sandbox.control.advance(1000);
    const ids = await offerHookedAndPolled(harness);
    expect(ids.map((id) => harness?.store.decisions.get(id)?.contentHash)).toEqual([file.contentHash, file.contentHash]);
    await expect(harness.daemon.runJob('retrain')).rejects.toThrow(/no job "retrain"/);
  });
});
