/**
 * A round that cannot run (the strategy file was removed after the daemon loaded it) is recorded
 * as refused with why, once: the loop does not try again every minute.
 */
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lendAndResolve, retrainHarness, twicePredicted, OPTIMIST } from './retrain-fixture.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

describe('a retraining round that fails', { timeout: 60_000 }, () => {
  it('is recorded as refused with the reason, and not retried before its interval', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-retrain-gone-'));
    const file = join(dir, 'optimist.yaml');
    await copyFile(OPTIMIST, file);
    const h = await retrainHarness({ enabled: true, min_resolved: 50 }, file);
    try {
      await lendAndResolve(h, 70, twicePredicted, 4);
      await rm(file);
      await h.daemon.runJob('retrain');
      await h.daemon.runJob('retrain');
      const rounds = h.repo.rounds();
      expect(rounds).toHaveLength(1);
      expect(rounds[0]).toMatchObject({ strategy: 'optimist', decision: 'refused', resolvedLoans: 0, fit: null });
      expect(rounds[0]?.reason).toMatch(/^the round failed: /);
      expect(h.logs.some((line) => line.msg === 'retraining round failed')).toBe(true);
    } finally {
      await h.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
