/**
 * Parity: a dry-run daemon session against the sandbox, exported as a recording and backtested
 * with the same strategies and starting state, reproduces the live decisions request by request.
 */
import { databaseOf } from '../../src/store/index.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLinesFromStore, type RecordingLine } from '../../src/recording/index.js';
import { runBacktest } from '../../src/backtest/index.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { explainRecordedRequest } from '../../src/cli/commands/strategy/explain.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import { startDaemonHarness, type DaemonHarness, type HarnessOptions } from './daemon-harness.js';
import type { DecisionReason } from '../../src/domain/decision-reason.js';
import type { StoredDecision } from '../../src/store/index.js';
import type { BacktestDecision } from '../../src/backtest/index.js';
import { MarketLearning, type StoredCalibration } from '../../src/engine/market/index.js';
import { fedCalibrationLearner } from '../calibration/fed-learner.js';
import { createCalibrationLearningRepository } from '../../src/calibration/calibration-learning-repository.js';
import { storedCalibrations } from '../../src/calibration/calibration-fates.js';

const strategy = (name: string): string => fileURLToPath(new URL(`../../strategies/${name}.yaml`, import.meta.url));
const HOUR_MS = 3_600_000;

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/**
 * A dry-run daemon on the sandbox that saw `requests` of ours (and the market's own arrivals),
 * one every 0.2 h, polled every fifth. On this frozen clock everything a poll sees is seen at one
 * instant; the poll decides page by page, and the export and the replay keep that order for
 * equal times.
 */
async function dryRunSession(
  options: Omit<HarnessOptions, 'dryRun'>,
  requests: number,
  fields: (i: number) => Record<string, number> = () => ({}),
): Promise<DaemonHarness> {
  const h = await startDaemonHarness({ ...options, dryRun: true });
  h.sandbox.control.setFaults({ dropWebhookRate: 1 });
  for (let i = 0; i < requests; i++) {
    h.sandbox.control.createLoanRequest({ competitorOffers: 0, ...fields(i) });
    h.sandbox.control.advance(0.2 * HOUR_MS);
    if (i % 5 === 4) await h.daemon.poller.poll();
  }
  await h.daemon.poller.poll();
  await h.daemon.pipeline.idle();
  return h;
}

/** Risk limits that refuse little: a hundred offers a day and no exposure caps. */
const ROOMY_RISK = {
  min_cash_reserve: 100,
  max_offers_per_day: 100,
  max_per_borrower: null,
  max_open_exposure: null,
  max_amount_per_day: null,
};

/** The session the daemon's store recorded, replayed as a dry-run backtest (a dry run's offers never settle). */
function replayedSession(
  h: DaemonHarness,
  strategies: Parameters<typeof runBacktest>[1],
  conditions: { startingBalanceCents: number; risk: unknown; learning?: MarketLearning },
  invalid: Array<{ loanRequestId: number; message: string }> = [],
): { recording: RecordingLine[]; result: ReturnType<typeof runBacktest> } {
  const recording = [...recordingLinesFromStore(h.store, invalid)];
  const result = runBacktest(recording, strategies, {
    startingBalanceCents: conditions.startingBalanceCents,
    limits: riskLimitsSchema.parse(conditions.risk),
    market: { settle: false },
    recordDecisions: true,
    ...(conditions.learning === undefined ? {} : { learning: conditions.learning }),
  });
  return { recording, result };
}

/** The live decisions the replay decided otherwise (action, rate, strategy or reasons), with both sides. */
function replayMismatches(live: readonly StoredDecision[], replayedDecisions: readonly BacktestDecision[]) {
  const replayed = new Map(replayedDecisions.map((decision) => [decision.loan_request_id, decision]));
  return live
    .map((decision) => {
      const other = replayed.get(decision.loanRequestId);
      const same =
        other !== undefined &&
        other.action === decision.action &&
        other.rate === decision.rate &&
        other.strategy === decision.strategy &&
        JSON.stringify(other.reasons) === JSON.stringify(decision.reasons);
      return same
        ? undefined
        : {
            id: decision.loanRequestId,
            live: [decision.action, decision.rate, decision.strategy, decision.reasons],
            backtest: other && [other.action, other.rate, other.strategy, other.reasons],
          };
    })
    .filter((mismatch) => mismatch !== undefined);
}

describe('live and backtest parity', () => {
  it('a dry-run session backtested with the same strategies makes the same decisions', { timeout: 120_000 }, async () => {
    const files = [strategy('cashflow'), strategy('balanced')];
    // Enough money and offers a day that paid data is bought for offers the guard then allows
    // (it is asked before buying, so nothing is bought for what it refuses), and the daily cap
    // and the balance still refuse some.
    const risk = {
      min_cash_reserve: 100,
      max_offers_per_day: 30,
      max_per_borrower: 2000,
      max_open_exposure: null,
      max_amount_per_day: null,
    };
    const startingBalanceCents = 2_000_000;
    // Half a day of the market (its own arrivals plus sixty of ours), polled as it goes.
    harness = await dryRunSession({ strategyFiles: files, balanceCents: startingBalanceCents, risk }, 60);
    const h = harness;

    const live = h.store.decisions.list();
    expect(live.length).toBeGreaterThanOrEqual(60);
    const offers = live.filter((decision) => decision.action === 'offer').length;
    // A meaningful session: some offers, some skips, some guard refusals.
    expect(offers).toBeGreaterThan(0);
    expect(offers).toBeLessThan(live.length);
    expect(live.some((decision) => decision.reasons.some((reason) => reason.startsWith('guard ')))).toBe(true);
    // ...and paid data bought on the way, so the data loop and its budget are compared too.
    const bought = databaseOf(h.store).prepare("SELECT count(*) AS n FROM purchases WHERE kind = 'provider' AND ok = 1").get() as {
      n: number;
    };
    expect(bought.n).toBeGreaterThan(0);

    const invalid: Array<{ loanRequestId: number; message: string }> = [];
    const strategies = await Promise.all(files.map((file) => loadStrategyFile(file)));
    const { recording, result } = replayedSession(h, strategies, { startingBalanceCents, risk }, invalid);
    expect(invalid).toEqual([]);

    const mismatches = replayMismatches(live, result.decisions);
    expect(mismatches).toEqual([]);

    // `strategy explain` takes the same step: the same strategy decision, rate and reasons for
    // every request (the guard aside: explain weighs one request alone, against an empty book).
    // A request the live guard refused before buying data stopped at its first round (and its
    // line has no banking data: none was bought); explain, refused nothing, goes on without it,
    // so its first round is what compares.
    const withoutGuard = (reasons: readonly DecisionReason[]) => reasons.filter((reason) => reason.code !== 'guard');
    const refusedBeforeBuying = live.filter((decision) => decision.guardCode !== null && decision.rate === null);
    expect(refusedBeforeBuying.length).toBeGreaterThan(0);
    // Nothing was bought for them: no banking data fetched, no score paid for.
    const boughtFor = new Set(
      (databaseOf(h.store).prepare('SELECT DISTINCT loan_request_id AS id FROM purchases').all() as Array<{ id: number }>).map(
        (row) => row.id,
      ),
    );
    expect(refusedBeforeBuying.filter((decision) => boughtFor.has(decision.loanRequestId))).toEqual([]);
    const explained = recording
      .map((line) => {
        const outcome = explainRecordedRequest(strategies, line, startingBalanceCents);
        const decision = live.find((candidate) => candidate.loanRequestId === line.loan_request.id);
        const stoppedEarly = decision !== undefined && refusedBeforeBuying.includes(decision);
        const explainedDecision = stoppedEarly ? outcome.needsPasses[0] : outcome.decision;
        const explainedReasons = stoppedEarly ? (explainedDecision?.reasons ?? []) : withoutGuard(outcome.reasons);
        const same =
          decision !== undefined &&
          (stoppedEarly || (outcome.decision.rate ?? null) === decision.rate) &&
          explainedDecision?.strategy.name === decision.strategy &&
          JSON.stringify(explainedReasons) === JSON.stringify(withoutGuard(decision.reasonValues));
        return same
          ? undefined
          : {
              id: line.loan_request.id,
              live: decision && [decision.rate, decision.strategy, decision.reasons],
              explain: [outcome.decision.rate, outcome.decision.strategy.name, outcome.reasons],
            };
      })
      .filter((mismatch) => mismatch !== undefined);
    expect(explained).toEqual([]);
  });

  it(
    'a learned default level prices the same in a dry run and its replay, both fed the same loans’ fates',
    { timeout: 120_000 },
    async () => {
      // The learner both start from: the example strategy's prior, fed forty funded loans'
      // instalments and defaults (as a daemon's payment sync or a replay would), refitted.
      const file = fileURLToPath(new URL('../../strategies/examples/balanced-learned.yaml', import.meta.url));
      const name = 'balanced-learned';
      const learner = fedCalibrationLearner();
      const seeded = (): StoredCalibration =>
        JSON.parse(JSON.stringify({ state: learner.snapshotState, settings: learner.settings })) as StoredCalibration;
      expect(learner.version).toBeGreaterThan(0);

      const risk = ROOMY_RISK;
      const startingBalanceCents = 5_000_000;
      harness = await dryRunSession(
        {
          strategyFiles: [file],
          balanceCents: startingBalanceCents,
          risk,
          seedStore: (store) => {
            const stored = seeded();
            createCalibrationLearningRepository(databaseOf(store)).saveLearner(
              name,
              { version: stored.state.version, ...stored.state.evidence, state: stored },
              0,
            );
          },
        },
        40,
      );
      const h = harness;
      const live = h.store.decisions.list();
      const offers = live.filter((decision) => decision.action === 'offer');
      expect(offers.length).toBeGreaterThan(3);
      const { version, evidence } = learner;
      const named = `price level uncertain v${version} (${evidence.loans} loans, ${evidence.loanMonths} loan-months)`;
      expect(offers.every((decision) => decision.reasons.some((reason) => reason.startsWith(named)))).toBe(true);
      expect(offers.every((decision) => decision.calibration?.version === version)).toBe(true);

      const learning = new MarketLearning([], [[name, seeded()]]);
      const { result } = replayedSession(h, [await loadStrategyFile(file)], { startingBalanceCents, risk, learning });
      expect(replayMismatches(live, result.decisions)).toEqual([]);
      // The learned level's probability too, to the bit.
      const probability = new Map(result.decisions.map((decision) => [decision.loan_request_id, decision.probability]));
      expect(live.filter((decision) => probability.get(decision.loanRequestId) !== decision.probability)).toEqual([]);
    },
  );

  it(
    'a learning strategy (pricing.learning) explores and prices the same in a dry run, its replay and strategy explain',
    { timeout: 120_000 },
    async () => {
      // A dry run's offers reach no borrower, so neither side learns a fate: what must agree is the
      // learned response's version and evidence on every decision, and each exploring draw (seeded
      // by request and version) with the exploration budget it is counted against.
      const dir = mkdtempSync(join(tmpdir(), 'lendbot-parity-learning-'));
      try {
        const doc = parse(readFileSync(strategy('balanced'), 'utf8')) as {
          name: string;
          pricing: Record<string, unknown>;
          score: { calibration: Record<string, unknown> };
        };
        doc.name = 'balanced-learning';
        doc.pricing = { ...doc.pricing, learning: { prior_sd: 1, explore_share: 0.2 } };
        // Without the history anchor: its trust is a running total across the session's requests,
        // which `strategy explain` of one request lacks (its parity is the next test's).
        delete doc.score.calibration.history_anchor;
        const file = join(dir, 'balanced-learning.yaml');
        writeFileSync(file, stringify(doc));
        const risk = ROOMY_RISK;
        const startingBalanceCents = 5_000_000;
        harness = await dryRunSession({ strategyFiles: [file], balanceCents: startingBalanceCents, risk }, 40);
        const h = harness;
        const live = h.store.decisions.list();
        const offers = live.filter((decision) => decision.action === 'offer');
        expect(offers.length).toBeGreaterThan(5);
        expect(offers.every((decision) => decision.reasons.some((reason) => reason.includes('market learned v0 (0 fates)')))).toBe(true);
        expect(offers.some((decision) => decision.reasons.some((reason) => reason.includes('exploring (greedy')))).toBe(true);

        const strategies = [await loadStrategyFile(file)];
        const { recording, result } = replayedSession(h, strategies, { startingBalanceCents, risk });
        const mismatches = replayMismatches(live, result.decisions);
        expect(mismatches).toEqual([]);

        // `strategy explain` prices each request alone, with learners at the same version (v0) but
        // none of the session's running totals: each exploring draw is the same, because an offer's
        // right to explore reads that offer and the posterior only.
        const explainedOtherwise = recording
          .map((line) => {
            const decision = offers.find((candidate) => candidate.loanRequestId === line.loan_request.id);
            if (decision === undefined) return undefined;
            const outcome = explainRecordedRequest(strategies, line, startingBalanceCents);
            return outcome.decision.rate === decision.rate
              ? undefined
              : { id: decision.loanRequestId, live: decision.reasons, explain: outcome.reasons };
          })
          .filter((mismatch) => mismatch !== undefined);
        expect(explainedOtherwise).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    "a learned level anchored in the borrowers' past-loan rates decides the same in a dry run and its replay",
    { timeout: 120_000 },
    async () => {
      // The history is fetched from the sandbox live (marketplace 4.9) and read from the recording
      // in the replay; both blend it into the level in the one decide step, to the bit.
      const dir = mkdtempSync(join(tmpdir(), 'lendbot-parity-anchor-'));
      try {
        const doc = parse(readFileSync(strategy('balanced'), 'utf8')) as {
          name: string;
          data: Record<string, unknown>;
          score: { calibration: Record<string, unknown> };
        };
        doc.name = 'balanced-anchor';
        doc.data = { ...doc.data, borrower_history: 'after_filters' };
        doc.score.calibration = { ...doc.score.calibration, history_anchor: { sd: 1 } };
        const file = join(dir, 'balanced-anchor.yaml');
        writeFileSync(file, stringify(doc));
        const risk = ROOMY_RISK;
        const startingBalanceCents = 5_000_000;
        harness = await dryRunSession({ strategyFiles: [file], balanceCents: startingBalanceCents, risk }, 40, (i) => ({
          completedLoans: i % 4,
        }));
        const h = harness;
        const live = h.store.decisions.list();
        const anchored = live.filter((decision) => decision.reasons.some((reason) => reason.startsWith('score history anchor')));
        expect(anchored.length).toBeGreaterThan(3);
        // The anchor's trust is learned across these requests in the decide step (anchor-relation.ts):
        // it weighs something in the later ones, so the replay must learn it to the same bits.
        const weighed = anchored.filter((decision) =>
          decision.reasons.some((reason) => /^score history anchor .* weight 0\.[1-9]/.test(reason)),
        );
        expect(weighed.length).toBeGreaterThan(0);
        expect(live.filter((decision) => decision.action === 'offer').length).toBeGreaterThan(3);
        const learning = new MarketLearning();
        const { result } = replayedSession(h, [await loadStrategyFile(file)], { startingBalanceCents, risk, learning });
        expect(replayMismatches(live, result.decisions)).toEqual([]);
        const probability = new Map(result.decisions.map((decision) => [decision.loan_request_id, decision.probability]));
        expect(live.filter((decision) => probability.get(decision.loanRequestId) !== decision.probability)).toEqual([]);
        // What the daemon stores of the trust (a restart resumes it) is what the replay learned, to the bit.
        await h.daemon.runJob('learn-defaults');
        const stored = new Map(storedCalibrations(h.store).calibrations);
        const relation = learning.calibration.existing('balanced-anchor')?.anchorRelation;
        expect(relation?.n).toBe(anchored.length);
        expect(stored.get('balanced-anchor')?.state.anchorRelation).toEqual(relation);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
