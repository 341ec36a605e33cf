/**
 * The retraining loop reads a live split's sequential test (src/retrain/split-evidence.ts), on a
 * real SQLite file and a manual clock: where `risk.split` runs the strategy against its waiting
 * candidate, the arms' resolved loans since the round began decide it early, before its shadow
 * period ends: promoted when the candidate clearly returns more, refused when it returns less,
 * and nothing on equal arms (no promotion on noise). The evidence (the test's likelihood ratio
 * and its threshold) is in the round's record and in `lendbot retrain history`; a candidate named
 * as a split arm decides live, and is not itself retrained.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withCalibration } from '../../src/backtest/calibration/index.js';
import { ManualClock } from '../../src/clock/clock.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { ManagedStrategies, retrainSettings, retrainSectionSchema, type RunningStrategy } from '../../src/retrain/index.js';
import { judgeShadow } from '../../src/retrain/shadow-judgement.js';
import { splitEvidence, type SplitEvidence } from '../../src/retrain/split-evidence.js';
import { createRetrainRepository, databaseOf, isoFromMs, openStore, type Store } from '../../src/store/index.js';
import { runCli } from '../cli/run-cli.js';
import { captureLog } from '../log/log-capture.js';
import { lendAndResolve, OPTIMIST, retrainHarness, twicePredicted } from './retrain-fixture.js';

const DAY = 86_400_000;
const START = Date.parse('2027-01-01T00:00:00Z');

let dir: string | undefined;
let store: Store | undefined;
afterEach(async () => {
  store?.close();
  store = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A seeded uniform draw (the same sequence for a seed). */
function draws(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * `count` resolved loans of 100.00 USD for `strategy`, decided from `fromMs` on: each defaults
 * (pays back `recovery` of it) with probability `defaults`, else pays back 100 + `gain` %.
 */
function resolvedLoans(
  s: Store,
  strategy: string,
  firstId: number,
  count: number,
  fromMs: number,
  defaults: number,
  gain: number,
  seed: number,
): void {
  const db = databaseOf(s);
  const draw = draws(seed);
  const decision = db.prepare(
    `INSERT INTO decisions (loan_request_id, strategy, action, dry_run, decided_at) VALUES (?, ?, 'offer', 0, ?)`,
  );
  const loan = db.prepare(
    `INSERT INTO loans (loan_request_id, list_status, status, loan_amount_cents, remaining_cents, interest_rate, paid_off, raw_json, synced_at)
     VALUES (?, ?, ?, 10000, 0, 0.2, ?, '{}', ?)`,
  );
  const payment = db.prepare(
    `INSERT INTO payments (loan_id, amount_cents, due_date, status, raw_json, synced_at) VALUES (?, ?, ?, 'paid', '{}', ?)`,
  );
  for (let i = 0; i < count; i += 1) {
    const id = firstId + i;
    const at = isoFromMs(fromMs + i * 3_600_000);
    decision.run(id, strategy, at);
    const defaulted = draw() < defaults;
    const loanId = Number(
      loan.run(id, defaulted ? 'default' : 'completed', defaulted ? 'default' : 'completed', defaulted ? 0 : 1, at).lastInsertRowid,
    );
    payment.run(loanId, defaulted ? 3_000 : 10_000 + gain * 100, at, at);
  }
}

async function setUp(): Promise<{ s: Store; clock: ManualClock; running: RunningStrategy; roundId: number; path: string }> {
  dir = await mkdtemp(join(tmpdir(), 'lendbot-retrain-split-'));
  const path = join(dir, 'lendbot.db');
  const s = openStore(path);
  store = s;
  const clock = new ManualClock(START);
  const strategy = await loadStrategyFile(OPTIMIST);
  const text = await readFile(OPTIMIST, 'utf8');
  const repo = createRetrainRepository(databaseOf(s));
  const roundId = repo.addRound({
    strategy: 'optimist',
    startedAtMs: START,
    decision: 'waiting',
    reason: 'decides in shadow',
    resolvedLoans: 200,
    candidate: { calibration: { method: 'platt', a: 0.8, b: -0.3 }, base: strategy.contentHash },
    candidateText: withCalibration(text, { method: 'platt', a: 0.8, b: -0.3 }),
    shadowUntilMs: START + 365 * DAY,
    nextAtMs: START + 365 * DAY,
  });
  // Loans decided before the round began are not the split's evidence on it.
  resolvedLoans(s, 'optimist', 1, 200, START - 60 * DAY, 0.6, 5, 1);
  return { s, clock, running: { strategy, text, fileHash: strategy.contentHash }, roundId, path };
}

const SPLIT = { strategies: ['optimist', 'optimist-retrain-1'] as [string, string], shares: [0.5, 0.5] as [number, number] };

function deps(s: Store, clock: ManualClock) {
  const repo = createRetrainRepository(databaseOf(s));
  const settings = retrainSettings(retrainSectionSchema.parse({ enabled: true, min_resolved: 100, shadow_days: 365 }));
  return { store: s, repo, clock, settings, offerExpiryMs: 72 * 3_600_000, split: SPLIT };
}

type Deps = ReturnType<typeof deps>;

/** Ten resolved loans an arm a day, looked at each day, until the loop decides or 400 loans an arm. */
async function lendUntilDecided(
  d: Deps,
  running: RunningStrategy,
  current: { defaults: number; gain: number },
  candidate: { defaults: number; gain: number },
) {
  let verdict;
  let n = 0;
  while (verdict === undefined && n < 400) {
    n += 10;
    resolvedLoans(d.store, 'optimist', 10_000 + n, 10, START + n * 3_600_000, current.defaults, current.gain, n);
    resolvedLoans(d.store, 'optimist-retrain-1', 20_000 + n, 10, START + n * 3_600_000, candidate.defaults, candidate.gain, n + 7);
    d.clock.advance(DAY);
    verdict = await judgeShadow(d, d.repo.rounds()[0]!, running);
  }
  return { verdict, n };
}

describe('the retraining loop reads a live split of the strategy against its candidate', () => {
  it('decides nothing on equal arms, however often it looks', async () => {
    const { s, clock, running } = await setUp();
    const d = deps(s, clock);
    // Both arms from one distribution (returns +12 % or -70 %, 10 % defaults), looked at every 20 loans.
    for (let n = 20; n <= 300; n += 20) {
      resolvedLoans(s, 'optimist', 10_000 + n, 20, START + n * 3_600_000, 0.1, 12, n);
      resolvedLoans(s, 'optimist-retrain-1', 20_000 + n, 20, START + n * 3_600_000, 0.1, 12, n + 7);
      clock.advance(DAY);
      expect(await judgeShadow(d, d.repo.rounds()[0]!, running)).toBeUndefined();
    }
    expect(d.repo.rounds()[0]).toMatchObject({ decision: 'waiting' });
    expect(d.repo.inForce()).toEqual([]);
    // At its shadow date it waits on, naming the test's verdict.
    clock.advance(400 * DAY);
    const verdict = await judgeShadow(d, d.repo.rounds()[0]!, running);
    expect(verdict?.decision).toBe('waiting');
    const split = verdict?.shadow.split as SplitEvidence;
    expect(split).toMatchObject({ verdict: 'no_difference_yet', favours: null, counts: [300, 300], threshold: 20 });
    expect(split.likelihoodRatio).toBeLessThan(20);
    expect(verdict?.reason).toMatch(
      /; the live split's sequential test: no difference shown yet; .*likelihood ratio \d+\.\d\d against 20 \(1\/alpha, alpha 5 %\)$/,
    );
    if (process.env.RETRAIN_PRINT === '1') console.log(verdict?.reason);
  });

  it('promotes a clearly better candidate before its shadow period ends, with the evidence in its history', async () => {
    const { s, clock, running, path } = await setUp();
    const d = deps(s, clock);
    // Candidate: 4 % defaults, +10 % otherwise; the strategy: 25 % defaults, +6 %.
    const { verdict, n } = await lendUntilDecided(d, running, { defaults: 0.25, gain: 6 }, { defaults: 0.04, gain: 10 });
    expect(verdict?.decision).toBe('promoted');
    const split = verdict?.shadow.split as SplitEvidence;
    expect(split.favours).toBe('candidate');
    expect(split.likelihoodRatio).toBeGreaterThanOrEqual(20);
    expect(clock.now()).toBeLessThan(START + 365 * DAY);
    const [round] = d.repo.rounds();
    expect(round).toMatchObject({ decision: 'promoted' });
    expect(round?.reason).toMatch(
      /^the live split's sequential test says it returns more: different: optimist-retrain-1 returns more; .*likelihood ratio \d+\.\d\d against 20 \(1\/alpha, alpha 5 %\)$/,
    );
    expect(d.repo.inForce()[0]).toMatchObject({ strategy: 'optimist', kind: 'promoted', roundId: 1 });
    const history = await runCli(['retrain', 'history', '--db', path]);
    expect(history.stdout).toContain("PROMOTED: the live split's sequential test says it returns more");
    if (process.env.RETRAIN_PRINT === '1') console.log(n, history.stdout);
  });

  it('refuses a candidate the test finds worse', async () => {
    const { s, clock, running } = await setUp();
    const d = deps(s, clock);
    const { verdict, n } = await lendUntilDecided(d, running, { defaults: 0.04, gain: 10 }, { defaults: 0.25, gain: 6 });
    expect(verdict?.decision).toBe('refused');
    expect(d.repo.rounds()[0]?.reason).toMatch(
      /^the live split's sequential test says it returns less: different: optimist returns more; /,
    );
    if (process.env.RETRAIN_PRINT === '1') console.log(n, d.repo.rounds()[0]?.reason);
    expect(d.repo.inForce()).toEqual([]);
  });

  it('runs a candidate named as a split arm live, and does not retrain it', async () => {
    const { s, roundId } = await setUp();
    const repo = createRetrainRepository(databaseOf(s));
    const { log } = captureLog();
    const file = await loadStrategyFile(OPTIMIST);
    const withSplit = new ManagedStrategies(repo, log, () => SPLIT.strategies);
    await withSplit.refresh([file], async (apply) => apply());
    const candidate = withSplit.over([file]).find((strategy) => strategy.name === `optimist-retrain-${roundId}`);
    expect(candidate?.shadow).not.toBe(true);
    expect((await withSplit.running([file])).map((r) => r.strategy.name)).toEqual(['optimist']);
    const without = new ManagedStrategies(repo, log);
    await without.refresh([file], async (apply) => apply());
    expect(without.over([file]).find((strategy) => strategy.name === `optimist-retrain-${roundId}`)?.shadow).toBe(true);
  });

  it('in the daemon: the candidate decides its arm of the requests live, and the loop reads the split', { timeout: 240_000 }, async () => {
    const h = await retrainHarness(
      { enabled: true, min_resolved: 100, held_out_share: 0.3, shadow_days: 365 },
      OPTIMIST,
      {},
      { split: SPLIT },
    );
    try {
      await lendAndResolve(h, 300, twicePredicted, 11);
      await h.daemon.runJob('retrain');
      expect(h.repo.rounds()[0]).toMatchObject({ decision: 'waiting', shadowName: 'optimist-retrain-1' });
      const firstId = Math.max(...h.store.decisions.list({ limit: 1000 }).map((decision) => decision.loanRequestId));
      await lendAndResolve(h, 80, twicePredicted, 12);
      const arms = new Map<string, number>();
      for (const decision of h.store.decisions.list({ limit: 1000 }))
        if (decision.loanRequestId > firstId) arms.set(decision.strategy ?? '', (arms.get(decision.strategy ?? '') ?? 0) + 1);
      // The split's two arms, and nothing else: the candidate decides live on its half.
      expect([...arms.keys()].sort()).toEqual(['optimist', 'optimist-retrain-1']);
      expect(arms.get('optimist')).toBeGreaterThan(20);
      expect(arms.get('optimist-retrain-1')).toBeGreaterThan(20);
      await h.daemon.runJob('retrain');
      const [round] = h.repo.rounds();
      // The loop's evidence: each arm's loans resolved since the round began.
      const split = splitEvidence(h.store, SPLIT, round!);
      expect(split?.counts[0]).toBeGreaterThan(20);
      expect(split?.counts[1]).toBeGreaterThan(20);
      // About 40 loans an arm: the test has not spoken; the round waits for its shadow date.
      expect(split?.favours).toBeNull();
      expect(round?.decision).toBe('waiting');
      expect(h.repo.inForce()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
