/**
 * A sandbox daemon (manual clock, real SQLite file) with borrowers whose default is `factor` times
 * what the optimist strategy predicts, funded, run to their end and synced: the store then holds
 * resolved loans the retraining loop learns from.
 */
import { fileURLToPath } from 'node:url';
import { createRetrainRepository, databaseOf, type RetrainRepository } from '../../src/store/index.js';
import { startDaemonHarness, type DaemonHarness } from '../daemon/daemon-harness.js';

export const OPTIMIST = fileURLToPath(new URL('./fixtures/optimist.yaml', import.meta.url));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The optimist strategy's predicted default for a borrower with `completed` loans. */
export function predictedDefault(completed: number): number {
  return 1 - 1 / (1 + Math.exp(-(2.0 + 0.5 * completed)));
}

export async function retrainHarness(
  retrain: Record<string, unknown>,
  strategy = OPTIMIST,
  env: Record<string, string> = {},
  risk: Record<string, unknown> = {},
): Promise<DaemonHarness & { repo: RetrainRepository }> {
  const harness = await startDaemonHarness({
    balanceCents: 100_000_000,
    strategyFiles: [strategy],
    risk: { protections: { default_spike: { enabled: false }, drawdown: { enabled: false }, calibration: { enabled: false } }, ...risk },
    sandbox: { arrivalsPerHour: 0 },
    retrain,
    env,
  });
  return Object.assign(harness, { repo: createRetrainRepository(databaseOf(harness.store)) });
}

/**
 * `count` borrowers, `perDay` a day, each defaulting with probability `defaultOf(completed loans)`
 * (completed loans 0-4 in turn); the daemon offers on each, they accept and are funded, and after
 * their 3 months the sync reads every loan's end. `seed` draws which ones default, deterministically.
 */
export async function lendAndResolve(
  h: DaemonHarness,
  count: number,
  defaultOf: (completed: number) => number,
  seed: number,
  perDay = 25,
): Promise<void> {
  let state = seed;
  const draw = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let i = 0; i < count; i += 1) {
    const completed = i % 5;
    const defaults = draw() < Math.min(1, defaultOf(completed));
    h.sandbox.control.createLoanRequest({
      svcColor: 1,
      completedLoans: completed,
      maxInterestRate: 2.0,
      competitorOffers: 0,
      decisionDelayMs: HOUR,
      loanTerms: 3,
      loanAmountCents: 10_000,
      takeUp: 1,
      repayProbability: defaults ? 0 : 1,
      missedMonth: defaults ? 1 : null,
    });
    if ((i + 1) % perDay === 0 || i === count - 1) {
      await h.daemon.runJob('poll');
      await h.daemon.pipeline.idle();
      h.sandbox.control.advance(2 * HOUR);
      await h.daemon.runJob('sync');
      h.sandbox.control.advance(22 * HOUR);
    }
  }
  h.sandbox.control.advance(130 * DAY);
  await h.daemon.runJob('sync');
  await h.daemon.runJob('sync');
}

/** Twice the optimist strategy's predicted default. */
export const twicePredicted = (completed: number): number => 2 * predictedDefault(completed);
