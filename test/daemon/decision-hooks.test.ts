/**
 * The pipeline's registration surface (Pipeline.provide and Pipeline.onDecided,
 * src/daemon/pipeline.ts; issue 38, item 1): a provider's value reaches the decide context (a
 * cash position makes a cash-following strategy price with its hurdle), and onDecided listeners
 * run inside the serial queue in the order they were registered: every listener of one request
 * before the next request's provider, a throwing listener logged and the next one still called.
 * A real pipeline on the sandbox, a real store.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BalanceTracker } from '../../src/daemon/balance-tracker.js';
import { OfferPlacer } from '../../src/daemon/offer-placer.js';
import { Pipeline } from '../../src/daemon/pipeline.js';
import { RequestGuards } from '../../src/daemon/request-guard.js';
import { serviceDataSource, storeSpendLedger } from '../../src/daemon/service-data.js';
import { UNCAPPED_RISK_LIMITS } from '../../src/risk/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import type { Store } from '../../src/store/index.js';
import { compileText } from '../engine/compile-text.js';
import { captureLog } from '../log/log-capture.js';
import { clientFor } from '../sandbox/sandbox-fixture.js';
import { tempStore } from '../store/fixtures.js';
import { OFFER_ALL } from './daemon-harness.js';

/** offer-all whose hurdle follows cash (docs/strategies.md, "cash_hurdle"). */
const FOLLOWS_CASH = compileText(
  `${readFileSync(OFFER_ALL, 'utf8').replace(/^(name|description|version):.*$/gm, '')}  cash_hurdle: { enabled: true, max_raise: 0.1, max_cut: 0.04, window_days: 14 }\n`,
);

let sandbox: SandboxHandle;
let store: Store;
let cleanup: () => void;
beforeEach(async () => {
  sandbox = await startSandbox({ manualClock: true, seed: 11 });
  sandbox.control.setBalance(1_000_000);
  ({ store, cleanup } = tempStore());
});
afterEach(async () => {
  await sandbox.close();
  cleanup();
});

function pipeline(log = captureLog().log): Pipeline {
  const client = clientFor(sandbox);
  const deps = { client, store, clock: sandbox.clock, log };
  const limits = () => UNCAPPED_RISK_LIMITS;
  return new Pipeline({
    ...deps,
    strategies: () => [FOLLOWS_CASH],
    limits,
    guards: new RequestGuards({ ...deps, limits, balance: new BalanceTracker(deps), dryRun: false }),
    data: serviceDataSource(client),
    spend: storeSpendLedger(store),
    placer: new OfferPlacer({ ...deps, dryRun: false }),
    dryRun: false,
  });
}

const newRequest = () => sandbox.control.createLoanRequest({ svcColor: 1, maxInterestRate: 0.6, competitorOffers: 0 });
const reasonsOf = (id: number): string[] => store.decisions.get(id)?.reasons ?? [];

describe("the pipeline's hooks", () => {
  it("brings a provider's value into the decide context", async () => {
    const bare = newRequest();
    await pipeline().process(bare, 'poll');
    // Without a cash position the hurdle is as written.
    expect(reasonsOf(bare.id).some((text) => text.includes('cash_hurdle'))).toBe(false);

    const withCash = pipeline();
    // No free cash against a month of demand: the whole raise.
    withCash.provide(({ strategies }) => ({
      cash: strategies.some((strategy) => strategy.followsCash === true) ? { freeCents: 0, recentDemandCents: [10_000_000] } : undefined,
    }));
    const priced = newRequest();
    await withCash.process(priced, 'poll');
    expect(reasonsOf(priced.id).some((text) => text.startsWith('price cash_hurdle +0.1'))).toBe(true);
  });

  it('runs each listener in the serial queue, in the order registered, one request after the other', async () => {
    const { log, lines } = captureLog();
    const hooked = pipeline(log);
    const heard: string[] = [];
    hooked.provide(({ request }) => {
      heard.push(`provide ${request.id}`);
      return {};
    });
    hooked.onDecided((request, _source, result, turn) => {
      // The row is written, the queue still holds this request, and the turn carries the decide step's outcome.
      heard.push(`first ${request.id} ${result.action} decided=${String(store.decisions.has(request.id))} inQueue=${hooked.inFlight}`);
      expect(turn.outcome.decision.strategy.name).toBe(FOLLOWS_CASH.name);
    });
    hooked.onDecided(() => {
      throw new Error('a broken listener');
    });
    hooked.onDecided((request) => heard.push(`third ${request.id}`));

    const [a, b] = [newRequest(), newRequest()];
    await Promise.all([hooked.process(a, 'webhook'), hooked.process(b, 'poll')]);

    expect(heard).toEqual([
      `provide ${a.id}`,
      `first ${a.id} offer decided=true inQueue=2`,
      `third ${a.id}`,
      `provide ${b.id}`,
      `first ${b.id} offer decided=true inQueue=1`,
      `third ${b.id}`,
    ]);
    expect(lines.filter((line) => line.msg === 'decision listener failed')).toHaveLength(2);
  });
});
