/**
 * Retraining a strategy that scores with a model file (`score.model`): the loop refits the model
 * on the lender's own loans with `lendbot train`'s code, judges it as `train --strategy` does,
 * and a promotion runs the refitted model from the store while the model file stays as it was.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecording } from '../../src/backtest/index.js';
import { trainingData, trainModel } from '../../src/backtest/train/index.js';
import { exportSandboxRecording } from '../../src/sandbox/index.js';
import { lendAndResolve, predictedDefault, retrainHarness } from './retrain-fixture.js';

let dir: string;
let strategyFile: string;
let modelFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-retrain-model-'));
  // A model fitted on another market (a sandbox export), as a lender would start with one.
  const data = join(dir, 'market.jsonl');
  await exportSandboxRecording(data, { seed: 3, requests: 1500 });
  const report = trainModel(
    trainingData(await loadRecording(data, {}, (issue) => expect.unreachable(issue.message)), ['completed_loans', 'credit_utilization']),
    {
      dataFile: data,
      l2: 'auto',
      trainShare: 0.7,
    },
  );
  modelFile = join(dir, 'model.json');
  await writeFile(modelFile, `${JSON.stringify(report.model, null, 2)}\n`);
  strategyFile = join(dir, 'modelled.yaml');
  await writeFile(
    strategyFile,
    [
      'name: modelled',
      'description: Scores with a model file (tests only).',
      'version: "1.0.0"',
      'automate_fund: true',
      'data: { monthly_budget: 0, banking_data: never }',
      'score: { model: model.json, min_probability: 0.3 }',
      'pricing: { target_return: 0.05, recovery: 0.3, servicing_cost: 0.0, margin: 0.0 }',
      '',
    ].join('\n'),
  );
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('retraining a model', { timeout: 240_000 }, () => {
  it('refits the model on the store, judges it held out, and runs the promoted one without touching the file', async () => {
    const h = await retrainHarness({ enabled: true, min_resolved: 100, held_out_share: 0.3, shadow_days: 0 }, strategyFile);
    try {
      const before = await readFile(modelFile, 'utf8');
      await lendAndResolve(h, 300, (c) => Math.min(0.9, 8 * predictedDefault(c)), 9);
      await h.daemon.runJob('retrain');
      const [round] = h.repo.rounds();
      if (process.env.RETRAIN_PRINT === '1')
        console.log(round?.reason, round?.resolvedLoans, JSON.stringify(round?.heldOut), JSON.stringify(round?.fit));
      expect(round).toMatchObject({ decision: 'promoted', fit: { method: 'model' } });
      expect(round?.reason).toMatch(
        /^refitted model: Brier 0\.\d{4} against 0\.\d{4} on \d+ held-out loans, and no borrower world loses .*; no shadow period configured$/,
      );
      const fit = round?.fit as { before: { brier: number }; after: { brier: number } };
      expect(fit.after.brier).toBeLessThan(fit.before.brier);
      // The promoted version keeps the strategy's text and carries the refitted model; the file is untouched.
      const [version] = h.repo.inForce();
      expect(version?.text).toBe(await readFile(strategyFile, 'utf8'));
      expect(JSON.parse(version?.model ?? '{}')).toMatchObject({ format: 'lendbot-model', training: { refit: 'all' } });
      expect(version?.model).not.toBe(before);
      expect(await readFile(modelFile, 'utf8')).toBe(before);
      // The daemon decides with the refitted model from its next look (a new content hash), the file's after a rollback.
      const fileHash = h.store.decisions.list({ limit: 1 })[0]?.contentHash;
      const decideOne = async (): Promise<string | null | undefined> => {
        const request = h.sandbox.control.createLoanRequest({ svcColor: 1, completedLoans: 2, maxInterestRate: 2, competitorOffers: 0 });
        await h.daemon.runJob('poll');
        await h.daemon.pipeline.idle();
        return h.store.decisions.get(request.id)?.contentHash;
      };
      await h.daemon.runJob('retrain');
      expect(await decideOne()).not.toBe(fileHash);
    } finally {
      await h.close();
    }
  });
});
