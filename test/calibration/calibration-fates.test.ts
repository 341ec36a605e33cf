// The daemon learns its default level from its own funded loans, end to end against the real
// sandbox (docs/market-model.md, "Learning the default level"): the loans its offers funded join
// the strategy's calibration learner, each payment the sync reads is an instalment survived (or
// missed), the learner refits and is stored with what was fed, nothing is fed twice, the next
// decision records which calibration priced it, and a restart resumes the learner from the file.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { storedCalibrations } from '../../src/calibration/calibration-fates.js';
import { createCalibrationLearningRepository } from '../../src/calibration/calibration-learning-repository.js';
import { detailText } from '../../src/cli/commands/decisions/decisions-format.js';
import { viewDecision } from '../../src/cli/commands/decisions/decision-view.js';
import { RestoredLearners } from '../../src/daemon/restored-learners.js';
import type { StoredCalibration } from '../../src/engine/market/index.js';
import { databaseOf } from '../../src/store/index.js';
import { offeredRequest, startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';

const LEARNED_LEVEL = fileURLToPath(new URL('../daemon/fixtures/learned-level.yaml', import.meta.url));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Decided after two hours, with no competitor: each offer is taken. */
const TWO_HOURS_NO_RIVAL = { decisionDelayMs: 2 * HOUR, competitorOffers: 0 };

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the learned default level in the daemon', () => {
  it('feeds funded loans’ payments to the learner once, records which level priced each decision, and resumes it after a restart', async () => {
    harness = await startDaemonHarness({ strategyFiles: [LEARNED_LEVEL], sandbox: { arrivalsPerHour: 0 }, balanceCents: 10_000_000 });
    const h = harness;
    const first: number[] = [];
    for (let n = 0; n < 4; n += 1) first.push(await offeredRequest(h, TWO_HOURS_NO_RIVAL));
    // Priced by the prior: version 0, nothing learned, and the decision row says so.
    for (const id of first) expect(h.store.decisions.get(id)?.calibration).toMatchObject({ version: 0, loans: 0, loanMonths: 0 });
    expect(h.store.decisions.get(first[0]!)?.reasons.some((reason) => reason.startsWith('price level uncertain v0 (0 loans'))).toBe(true);

    // Accepted and funded; then two months of instalments, read by the syncs.
    h.sandbox.control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    await h.daemon.runJob('sync');
    for (let month = 0; month < 2; month += 1) {
      h.sandbox.control.advance(31 * DAY);
      await h.daemon.runJob('sync');
      await h.daemon.runJob('sync');
    }
    const book = createCalibrationLearningRepository(databaseOf(h.store));
    const stored = () => book.learners().find((row) => row.strategy === 'learned-level');
    const fed = () => databaseOf(h.store).prepare('SELECT loan_id, paid, final FROM calibration_loans ORDER BY loan_id').all();
    expect(stored()).toBeUndefined();
    await h.daemon.runJob('learn-defaults');
    const learned = stored();
    const state = (learned?.state as StoredCalibration | undefined)?.state;
    expect(state?.evidence.loans).toBeGreaterThanOrEqual(3);
    expect(state?.evidence.loanMonths).toBeGreaterThan(0);
    expect(learned?.version).toBeGreaterThanOrEqual(1);
    expect(fed().length).toBe(state?.evidence.loans);

    // A second pass finds nothing new: each payment is fed once.
    await h.daemon.runJob('learn-defaults');
    expect(stored()?.state).toEqual(learned?.state);

    // The next request is priced by the stored level, and its row and reason name it.
    const next = await offeredRequest(h, TWO_HOURS_NO_RIVAL);
    const used = h.store.decisions.get(next)?.calibration;
    expect(used).toMatchObject({ version: learned?.version, loans: state?.evidence.loans, loanMonths: state?.evidence.loanMonths });
    const levelReason = h.store.decisions.get(next)?.reasons.find((reason) => reason.startsWith('price level uncertain'));
    expect(levelReason).toContain(`v${learned?.version} (${state?.evidence.loans} loans, ${state?.evidence.loanMonths} loan-months)`);

    // lendbot decisions --id shows it.
    const detail = detailText(
      viewDecision(h.store, h.store.decisions.get(next)!, { nowMs: h.sandbox.clock.now(), expiryMs: 72 * HOUR, includeManual: false }),
    );
    expect(detail).toMatch(
      new RegExp(
        `^calibration +learned v${learned?.version} \\(${state?.evidence.loans} loans, ${state?.evidence.defaults} defaults, ${state?.evidence.loanMonths} loan-months\\); score before it 0\\.\\d{4}$`,
        'm',
      ),
    );

    // A restart (the wing restoring on the same SQLite file) resumes the learner exactly.
    const resumed = new RestoredLearners();
    resumed.restore(storedCalibrations(h.store));
    expect(resumed.learning().calibration.existing('learned-level')?.snapshotState).toEqual(state);
  }, 120_000);
});
