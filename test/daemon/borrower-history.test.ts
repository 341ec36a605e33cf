/**
 * Borrower loan history (spec 4.9) as a data source of the daemon, against the real sandbox: asked
 * for only once the free filters pass, free, stored with the purchases, used by the decision,
 * exported in the recording and replayed by the backtest to the same decisions. And the data
 * source's answers to a 404 and an outage, against a fixture server.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/backtest/index.js';
import { serviceDataSource } from '../../src/daemon/service-data.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { recordingLinesFromStore } from '../../src/recording/index.js';
import { riskLimitsSchema } from '../../src/risk/index.js';
import type { MarketplaceClient } from '../../src/service/index.js';
import { databaseOf } from '../../src/store/index.js';
import { historyItem, loanRequest } from '../engine/fixtures.js';
import { startHarness, type Harness } from '../service/client-harness.js';
import { startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const HISTORY_FILTER = fileURLToPath(new URL('./fixtures/history-filter.yaml', import.meta.url));
const RISK = { max_open_exposure: null, max_per_borrower: null, max_amount_per_day: null };

let harness: DaemonHarness | undefined;
let fixture: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  await fixture?.close();
  harness = undefined;
  fixture = undefined;
});

/** The client, counting the loan request ids whose history it was asked to read (the HTTP calls are real). */
function countingHistory(asked: number[]): (client: MarketplaceClient) => MarketplaceClient {
  return (client) =>
    new Proxy(client, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== 'borrowerLoanHistoryPages' || typeof value !== 'function') return value;
        return (id: number) => {
          asked.push(id);
          return (value as (id: number) => unknown).call(target, id);
        };
      },
    });
}

describe('borrower history in the daemon', () => {
  it(
    'is fetched only after the free filters pass, decides, is stored free, and replays to the same decisions',
    { timeout: 60_000 },
    async () => {
      const asked: number[] = [];
      harness = await startDaemonHarness({ dryRun: true, strategyFiles: [HISTORY_FILTER], risk: RISK, wrapClient: countingHistory(asked) });
      const h = harness;
      h.sandbox.control.setFaults({ dropWebhookRate: 1 });
      const cases = [
        { loanTerms: 6, completedLoans: 2 },
        { loanTerms: 12, completedLoans: 0 },
        { loanTerms: 24, completedLoans: 3 },
        { loanTerms: 9, completedLoans: 1 },
        { loanTerms: 18, completedLoans: 0 },
      ];
      const made = cases.map((fields) => ({
        ...fields,
        id: h.sandbox.control.createLoanRequest({ ...fields, svcColor: 1, competitorOffers: 0 }).id,
      }));
      await h.daemon.poller.poll();
      await h.daemon.pipeline.idle();

      // The endpoint was read for the requests within 12 months only, once each.
      const passing = made.filter((request) => request.loanTerms <= 12);
      expect([...asked].sort((a, b) => a - b)).toEqual(passing.map((request) => request.id).sort((a, b) => a - b));

      const decisions = new Map(h.store.decisions.list().map((decision) => [decision.loanRequestId, decision]));
      for (const request of made) {
        const decision = decisions.get(request.id);
        const features = decision?.features as Record<string, unknown> | undefined;
        if (request.loanTerms > 12) {
          expect(decision).toMatchObject({ action: 'skip', reasons: ['filter loan_terms > 12'] });
          expect(features?.history_loans).toBeNull();
        } else if (request.completedLoans === 0) {
          expect(decision).toMatchObject({ action: 'skip', reasons: ['filter history_loans < 1'] });
          expect(features?.history_loans).toBe(0);
        } else {
          // The sandbox's history has one item per completed loan.
          expect(decision?.action).toBe('offer');
          expect(features?.history_loans).toBe(request.completedLoans);
        }
      }
      // Stored with the purchases, free.
      const rows = databaseOf(h.store)
        .prepare("SELECT loan_request_id AS id, cost_cents AS cost, ok FROM purchases WHERE kind = 'borrower_history' ORDER BY id")
        .all();
      expect(rows).toEqual(passing.map((request) => ({ id: request.id, cost: 0, ok: 1 })).sort((a, b) => a.id - b.id));

      // Exported in the recording, and the backtest replays the same decisions from it.
      const invalid: Array<{ loanRequestId: number; message: string }> = [];
      const recording = [...recordingLinesFromStore(h.store, invalid)];
      expect(invalid).toEqual([]);
      for (const line of recording) {
        const request = made.find((candidate) => candidate.id === line.loan_request.id);
        if (request === undefined) continue;
        expect(line.borrower_history?.length).toBe(request.loanTerms <= 12 ? request.completedLoans : undefined);
      }
      const result = runBacktest(recording, [await loadStrategyFile(HISTORY_FILTER)], {
        startingBalanceCents: 1_000_000,
        limits: riskLimitsSchema.parse(RISK),
        market: { settle: false },
        recordDecisions: true,
      });
      const replayed = new Map(result.decisions.map((decision) => [decision.loan_request_id, decision]));
      for (const request of made) {
        const live = decisions.get(request.id);
        const again = replayed.get(request.id);
        expect([again?.action, again?.rate, again?.reasons]).toEqual([live?.action, live?.rate, live?.reasons]);
      }
    },
  );
});

describe('the service data source for borrower history', () => {
  const PATH = '/api/v3/loan_requests/7/borrower_loan_history/';
  const request = loanRequest({ id: 7 });

  it('reads every page', async () => {
    fixture = await startHarness();
    const f = fixture;
    f.server.route(`GET ${PATH}`, (call, server) =>
      call.query.get('page') === '2'
        ? { status: 200, body: { count: 3, next: null, previous: `${server.url}${PATH}`, results: [historyItem('300.00')] } }
        : {
            status: 200,
            body: {
              count: 3,
              next: `${server.url}${PATH}?page=2`,
              previous: null,
              results: [historyItem('100.00'), historyItem('200.00')],
            },
          },
    );
    const answer = await serviceDataSource(f.client).borrowerHistory(request);
    expect(answer.ok && answer.value.map((item) => item.loan_amount)).toEqual(['100.00', '200.00', '300.00']);
  });

  it('answers a 404 as not found (decided without it) and a 5xx as an outage (decided later)', async () => {
    fixture = await startHarness();
    const f = fixture;
    f.server.route(`GET ${PATH}`, () => ({ status: 404, body: { detail: 'Not found.' } }));
    expect(await serviceDataSource(f.client).borrowerHistory(request)).toEqual({ ok: false, detail: 'Not found.' });
    f.server.route(`GET ${PATH}`, () => ({ status: 503, body: { detail: 'Service unavailable.' } }));
    const outage = await serviceDataSource(f.client).borrowerHistory(request);
    expect(outage.ok).toBe(false);
    expect(!outage.ok && outage.outage).toBeDefined();
  });
});
