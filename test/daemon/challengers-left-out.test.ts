/**
 * The challengers are a wing (issue 38, item 2): the daemon decides and places with them left out.
 * Both runs below trade with offer-all live and a challenger in shadow beside it; the second leaves
 * the challengers unattached (DaemonOverrides.challengers = false, what deleting their attach line
 * in src/daemon/daemon.ts does). The live offers are the same, and no shadow decision is recorded.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseOf } from '../../src/store/index.js';
import { createShadowDecisionsRepository } from '../../src/store/shadow-decisions-repository.js';
import { OFFER_ALL, offerHookedAndPolled, startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const SHADOW_CHEAP = fileURLToPath(new URL('./fixtures/shadow-cheap.yaml', import.meta.url));

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The shadow decisions recorded on the two requests, one list per request. */
async function tradeAndReadShadows(h: DaemonHarness): Promise<number[]> {
  const ids = await offerHookedAndPolled(h);
  const shadows = createShadowDecisionsRepository(databaseOf(h.store));
  return ids.map((id) => shadows.forRequest(id).length);
}

describe('the daemon with the challengers left out', () => {
  it('with the challengers attached, the shadow decides beside each live offer (the control)', async () => {
    harness = await startDaemonHarness({ strategyFiles: [OFFER_ALL, SHADOW_CHEAP] });
    expect(await tradeAndReadShadows(harness)).toEqual([1, 1]);
  });

  it('decides and places from a webhook and a poll, and records no shadow decision', async () => {
    harness = await startDaemonHarness({ strategyFiles: [OFFER_ALL, SHADOW_CHEAP], challengersWing: false });
    expect(await tradeAndReadShadows(harness)).toEqual([0, 0]);
  });
});
