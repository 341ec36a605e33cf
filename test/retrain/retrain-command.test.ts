/**
 * `lendbot retrain run|history|rollback` on a real SQLite file: a dry run records nothing, --apply
 * records the round, history lists it, and rollback refuses clearly when there is nothing to undo.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_LABELLED } from '../../src/backtest/train/index.js';
import { MIN_RESOLVED_FLOOR, retrainSectionSchema } from '../../src/retrain/index.js';
import { createRetrainRepository, databaseOf, openStore } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { OPTIMIST } from './retrain-fixture.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-retrain-cli-'));
  db = join(dir, 'lendbot.db');
  openStore(db).close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rounds = (): number => {
  const store = openStore(db);
  try {
    return createRetrainRepository(databaseOf(store)).rounds().length;
  } finally {
    store.close();
  }
};

describe('lendbot retrain', () => {
  it('runs a round dry (nothing recorded), then with --apply, and lists it', async () => {
    const dry = await runCli(['retrain', 'run', '--strategy', OPTIMIST, '--db', db]);
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toBe(
      'Retraining optimist: 0 resolved loans in the store\n' +
        'Decision would be REFUSED: 0 resolved loans, fewer than retrain.min_resolved 200: too few to tell a better calibration from noise\n' +
        'Nothing recorded (a dry run); --apply records the round.\n',
    );
    expect(rounds()).toBe(0);
    const applied = await runCli(['retrain', 'run', '--strategy', OPTIMIST, '--db', db, '--apply']);
    expect(applied.stdout).toMatch(/\nDecision recorded as round #1: REFUSED: 0 resolved loans/);
    expect(rounds()).toBe(1);
    const history = await runCli(['retrain', 'history', '--db', db]);
    expect(history.stdout).toMatch(
      /^Rounds, newest first:\n {2}#1 optimist \S+ {2}REFUSED: 0 resolved loans, fewer than retrain\.min_resolved 200/,
    );
    expect(history.stdout).toMatch(/\n {2}none: every strategy runs its file\n$/);
    const json = JSON.parse((await runCli(['retrain', 'history', '--db', db, '--json'])).stdout) as { rounds: Array<{ decision: string }> };
    expect(json.rounds.map((round) => round.decision)).toEqual(['refused']);
  });

  it('refuses a rollback with nothing to roll back, and a --to that is not a version', async () => {
    expect(await runCli(['retrain', 'rollback', '--db', db])).toMatchObject({
      code: 1,
      stderr: 'lendbot: no strategy has a retrained version: nothing to roll back\n',
    });
    expect(await runCli(['retrain', 'rollback', '--db', db, '--to', '9'])).toMatchObject({
      code: 1,
      stderr: 'lendbot: no version #9 (lendbot retrain history lists them)\n',
    });
    const bad = await runCli(['retrain', 'rollback', '--db', db, '--to', 'latest']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/expected a version id from lendbot retrain history, such as 3/);
  });

  it('takes its settings from the retrain: section, off by default, never fewer resolved loans than train needs', () => {
    expect(MIN_RESOLVED_FLOOR).toBe(MIN_LABELLED);
    expect(retrainSectionSchema.parse({})).toEqual({
      enabled: false,
      every_days: 7,
      min_resolved: 200,
      held_out_share: 0.3,
      shadow_days: 14,
      promote_min_gain: 0,
    });
    expect(retrainSectionSchema.safeParse({ min_resolved: 20 }).success).toBe(false);
  });
});
