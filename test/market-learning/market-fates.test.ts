// The daemon learns its market from its own offers' fates, end to end against the real sandbox
// (docs/market-model.md, "Learning while live"): an accepted offer teaches 1, one lost to a
// cheaper competitor 0, one left unanswered 0 once it expired; each decision notes which learned
// response priced it; the next price comes from the updated one; a restart resumes the posterior.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RestoredLearners } from '../../src/daemon/restored-learners.js';
import { MarketLearning, type LearningObservation, type StoredLearnerState } from '../../src/engine/market/index.js';
import { storedLearners } from '../../src/market-learning/market-fates.js';
import { createMarketLearningRepository } from '../../src/store/market-learning-repository.js';
import { databaseOf } from '../../src/store/index.js';
import { offeredRequest, startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';

const LEARN_ALL = fileURLToPath(new URL('../daemon/fixtures/learn-all.yaml', import.meta.url));
const HOUR = 3_600_000;

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

interface Row {
  loan_request_id: number;
  version: number;
  evidence: number;
  action: string;
  fate: string | null;
  observation_json: string | null;
}

describe('market learning in the daemon', () => {
  it('feeds each known fate to the learner once, prices the next request with it, and resumes it after a restart', async () => {
    harness = await startDaemonHarness({ strategyFiles: [LEARN_ALL], sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    const won = await offeredRequest(h, { decisionDelayMs: 2 * HOUR, competitorOffers: 0 });
    const outbid = await offeredRequest(h, { decisionDelayMs: 2 * HOUR, competitorRates: [0.031] });
    const walkedAway = await offeredRequest(h, { decisionDelayMs: 2 * HOUR, competitorOffers: 0, takeUp: 0 });
    const rows = (): Row[] => databaseOf(h.store).prepare('SELECT * FROM market_decisions ORDER BY loan_request_id').all() as Row[];
    const learner = () =>
      createMarketLearningRepository(databaseOf(h.store))
        .learners()
        .find((row) => row.strategy === 'learn-all');

    // All three priced by the prior (version 0), each with what its fate will teach.
    expect(rows().map((row) => [row.loan_request_id, row.version, row.evidence, row.action, row.fate])).toEqual([
      [won, 0, 0, 'offer', null],
      [outbid, 0, 0, 'offer', null],
      [walkedAway, 0, 0, 'offer', null],
    ]);
    expect(rows().every((row) => row.observation_json !== null)).toBe(true);

    await h.daemon.runJob('poll');
    h.sandbox.control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    await h.daemon.runJob('sync');
    await h.daemon.runJob('learn');
    expect(rows().map((row) => row.fate)).toEqual(['accepted', 'lost', null]);
    expect(learner()).toMatchObject({ version: 2, evidence: 2 });
    // Learning again finds nothing new: a fate is learned once.
    await h.daemon.runJob('learn');
    expect(learner()).toMatchObject({ version: 2, evidence: 2 });

    // The unanswered offer's life (72 h) ends with its request still listed: expired, a 0.
    h.sandbox.control.advance(70 * HOUR);
    await h.daemon.runJob('poll');
    await h.daemon.runJob('learn');
    expect(rows().map((row) => row.fate)).toEqual(['accepted', 'lost', 'expired']);
    expect(learner()).toMatchObject({ version: 3, evidence: 3 });

    // The next request is priced by version 3, and its decision says so.
    const next = await offeredRequest(h, { decisionDelayMs: 2 * HOUR, competitorOffers: 0 });
    expect(rows().find((row) => row.loan_request_id === next)).toMatchObject({ version: 3, evidence: 3 });
    expect(h.store.decisions.get(next)?.reasons.some((reason) => reason.includes('market learned v3 (3 fates)'))).toBe(true);

    // The same fates in the same order, fed as a backtest feeds them, give the same posterior.
    const stored = learner()?.state as StoredLearnerState;
    const replayed = new MarketLearning();
    replayed.learnerFor('learn-all', stored.settings);
    for (const row of rows().filter((candidate) => candidate.fate !== null)) {
      replayed.observe('learn-all', JSON.parse(row.observation_json ?? 'null') as LearningObservation, row.fate === 'accepted');
    }
    expect(replayed.existing('learn-all')?.snapshotState.posterior).toEqual(stored.state.posterior);

    // A restart resumes the stored learner exactly.
    const resumed = new RestoredLearners();
    resumed.restore(storedLearners(h.store));
    expect(resumed.learning().existing('learn-all')?.snapshotState).toEqual(stored.state);
  });
});
