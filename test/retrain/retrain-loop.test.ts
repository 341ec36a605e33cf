/**
 * Retraining while live against the sandbox (a real daemon on a manual clock, a real SQLite
 * file): a round on too few resolved loans is refused with that reason; a strategy whose loans
 * default at twice its prediction gets a candidate that holds out, decides in shadow, and is
 * promoted once its shadow period showed the gain, and rollback puts the file back; a candidate
 * fitted before the market's default rose loses held out and is refused with each world's figures.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStatusReport } from '../../src/ops/status-report.js';
import { formatStatusText } from '../../src/ops/status-text.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { createShadowDecisionsRepository } from '../../src/store/shadow-decisions-repository.js';
import { databaseOf } from '../../src/store/index.js';
import type { HeldOutFigures } from '../../src/retrain/index.js';
import { runCli } from '../cli/run-cli.js';
import { lendAndResolve, predictedDefault, retrainHarness, twicePredicted } from './retrain-fixture.js';

const PESSIMIST = fileURLToPath(new URL('./fixtures/pessimist.yaml', import.meta.url));
const HOUR = 3_600_000;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('retraining while live', { timeout: 240_000 }, () => {
  it('refuses a round on too few resolved loans, says so in status, and waits its interval before the next', async () => {
    const h = await retrainHarness({ enabled: true, min_resolved: 100 });
    close = () => h.close();
    await lendAndResolve(h, 40, twicePredicted, 3);
    await h.daemon.runJob('retrain');
    const [round] = h.repo.rounds();
    expect(round).toMatchObject({ strategy: 'optimist', decision: 'refused', candidate: null, fit: null, heldOut: null });
    expect(round?.resolvedLoans).toBeGreaterThan(30);
    expect(round?.reason).toBe(
      `${round?.resolvedLoans} resolved loans, fewer than retrain.min_resolved 100: too few to tell a better calibration from noise`,
    );
    // Not due again within retrain.every_days (7): one round, whatever the job's minute says.
    await h.daemon.runJob('retrain');
    expect(h.repo.rounds()).toHaveLength(1);
    expect(h.repo.inForce()).toEqual([]);
    const limits = riskLimitsSchema.parse({});
    const text = formatStatusText(buildStatusReport({ store: h.store, nowMs: h.sandbox.clock.now(), limits, budgets: [], dryRun: false }));
    expect(text).toMatch(
      /\nretraining +round #1 of optimist \(.+\): REFUSED, \d+ resolved loans, fewer than retrain\.min_resolved 100: .*; next look \d{4}-/,
    );
  });

  it('promotes a candidate for loans that default at twice the predicted level after its shadow, and rollback restores the file', async () => {
    const h = await retrainHarness({ enabled: true, min_resolved: 100, held_out_share: 0.3, shadow_days: 30 });
    close = () => h.close();
    await lendAndResolve(h, 300, twicePredicted, 11);
    await h.daemon.runJob('retrain');
    const [waiting] = h.repo.rounds();
    expect(waiting).toMatchObject({ decision: 'waiting', shadowName: 'optimist-retrain-1' });
    expect(waiting?.reason).toMatch(
      /^Brier 0\.\d{4} against 0\.\d{4} on \d+ held-out loans, and no borrower world loses .*; decides in shadow until /,
    );
    const fit = waiting?.fit as {
      before: { predicted: number; realised: number; brier: number };
      after: { predicted: number; brier: number };
    };
    // The strategy predicts about half of what happened; the refit moves toward it.
    expect(fit.before.predicted).toBeLessThan(fit.before.realised * 0.7);
    expect(fit.after.predicted).toBeGreaterThan(fit.before.predicted * 1.3);
    expect(fit.after.brier).toBeLessThan(fit.before.brier);
    expect((waiting?.heldOut as HeldOutFigures).worlds.map((w) => w.world)).toEqual(['insensitive', 'linear', 'quality', 'assumed']);
    expect(h.repo.inForce()).toEqual([]);

    // The shadow period: the candidate decides beside the live strategy on every new request.
    await lendAndResolve(h, 200, twicePredicted, 12);
    const shadow = createShadowDecisionsRepository(databaseOf(h.store))
      .compare()
      .find((row) => row.strategy === 'optimist-retrain-1');
    expect(shadow?.seen).toBe(200);
    await h.daemon.runJob('retrain');
    const [promoted] = h.repo.rounds();
    expect(promoted?.decision).toBe('promoted');
    expect(promoted?.reason).toMatch(/^its gain held over its shadow period: Brier 0\.\d{4} against 0\.\d{4} on \d+ resolved loans/);
    const figures = promoted?.shadow as {
      resolvedLoans: number;
      calibration: { current: { brier: number }; candidate: { brier: number } };
    };
    expect(figures.resolvedLoans).toBeGreaterThanOrEqual(30);
    // The store's own loans judge the money (own-accepted-offer.ts): the strategy as it runs takes
    // the loans its borrowers took at its rates; the candidate, pricing higher, is judged by the curve and worlds.
    const shadowMoney = (promoted?.shadow as { heldOut: HeldOutFigures }).heldOut;
    expect(promoted?.reason).not.toContain('the money comparison is empty');
    expect(shadowMoney.assumed.baselineFunded).toBeGreaterThan(50);
    for (const world of shadowMoney.worlds) expect(world.baselineFunded).toBe(shadowMoney.assumed.baselineFunded);
    for (const world of shadowMoney.worlds) expect(world.candidateFunded).toBeGreaterThan(0);
    expect(figures.calibration.candidate.brier).toBeLessThan(figures.calibration.current.brier);
    const [version] = h.repo.inForce();
    expect(version).toMatchObject({ strategy: 'optimist', kind: 'promoted', roundId: 1, parentId: null });
    expect(version?.text).toMatch(/\n {2}calibration:\n {4}method: platt\n/);

    // The daemon now decides with the promoted version (its content hash), not the file's.
    const fileHash = h.store.decisions.list({ limit: 1 })[0]?.contentHash;
    const decideOne = async (): Promise<string | null | undefined> => {
      const request = h.sandbox.control.createLoanRequest({ svcColor: 1, completedLoans: 0, maxInterestRate: 2, competitorOffers: 0 });
      await h.daemon.runJob('poll');
      await h.daemon.pipeline.idle();
      h.sandbox.control.advance(HOUR);
      return h.store.decisions.get(request.id)?.contentHash;
    };
    const promotedHash = await decideOne();
    expect(promotedHash).not.toBe(fileHash);

    const history = await runCli(['retrain', 'history', '--db', `${h.dir}/lendbot.db`]);
    if (process.env.RETRAIN_PRINT === '1') console.log(history.stdout);
    expect(history.stdout).toMatch(/\n {2}#1 optimist .* PROMOTED: its gain held/);
    expect(history.stdout).toMatch(/\n {2}#1 optimist .* promoted by round #1 \(retrained\) {2}IN FORCE\n/);
    const back = await runCli(['retrain', 'rollback', '--db', `${h.dir}/lendbot.db`]);
    expect(back).toMatchObject({ code: 0, stderr: '' });
    expect(back.stdout).toMatch(
      /^optimist: version #2 in force, its file as written \(was #1\); a running daemon takes it up within a minute\n$/,
    );
    // The running daemon takes it up at its next look.
    await h.daemon.runJob('retrain');
    expect(await decideOne()).toBe(fileHash);
    expect(h.repo.inForce()[0]).toMatchObject({ kind: 'rollback', text: null, restoredId: null });
    const again = await runCli(['retrain', 'rollback', '--db', `${h.dir}/lendbot.db`]);
    expect(again).toMatchObject({ code: 1, stderr: 'lendbot: optimist already runs its file as written: nothing to roll back\n' });
    // --to brings the promoted version back.
    expect((await runCli(['retrain', 'rollback', '--db', `${h.dir}/lendbot.db`, '--to', '1'])).stdout).toBe(
      'optimist: version #3 in force, the version of #1 again (was #2); a running daemon takes it up within a minute\n',
    );
    await h.daemon.runJob('retrain');
    expect(await decideOne()).toBe(promotedHash);
    expect(predictedDefault(0)).toBeCloseTo(0.119, 3);
  });

  it('refuses a candidate that loses held out in the borrower worlds, and records every world’s figures', async () => {
    const h = await retrainHarness({ enabled: true, min_resolved: 100, held_out_share: 0.3 }, PESSIMIST);
    close = () => h.close();
    const pessimistDefault = (completed: number): number => 1 - 1 / (1 + Math.exp(-(0.85 + 0.25 * completed)));
    // Fitted where loans default at a quarter of the prediction; judged where they default at half.
    await lendAndResolve(h, 250, (c) => 0.25 * pessimistDefault(c), 11);
    await lendAndResolve(h, 110, (c) => 0.52 * pessimistDefault(c), 12);
    await h.daemon.runJob('retrain');
    const [round] = h.repo.rounds();
    if (process.env.RETRAIN_PRINT === '1') console.log(round?.reason, JSON.stringify(round?.heldOut), JSON.stringify(round?.fit));
    expect(round?.decision).toBe('refused');
    expect(round?.reason).toMatch(
      /^loses held out in insensitive -\d+\.\d\d points, .*\(net annualized return against the strategy as it runs\)$/,
    );
    const heldOut = round?.heldOut as HeldOutFigures;
    expect(heldOut.holds).toBe(false);
    expect(heldOut.worlds.map((w) => w.world)).toEqual(['insensitive', 'linear', 'quality', 'assumed']);
    for (const world of heldOut.worlds) expect(Number.isFinite(world.gain) && world.candidateFunded > 0).toBe(true);
    expect(heldOut.losing.length).toBeGreaterThan(0);
    // The refit was an honest calibration (lower Brier held out); it is its money that does not hold.
    const fit = round?.fit as { before: { brier: number }; after: { brier: number } };
    expect(fit.after.brier).toBeLessThan(fit.before.brier);
    expect(round?.candidateText).toBeNull();
    expect(h.repo.waiting()).toEqual([]);
    expect(h.repo.inForce()).toEqual([]);
  });
});
