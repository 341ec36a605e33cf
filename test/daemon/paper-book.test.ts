// A dry run's paper book, end to end against the real sandbox: the would-be offers carry the
// acceptance the strategy's market response gave their rate, a request another lender's offer
// took is shown gone while one nobody took stays listed, and `lendbot status --json`, the operator
// API and `lendbot record export` all show the book, labelled modelled, with its 95 % interval.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_RESPONSE, expectedAcceptProbability } from '../../src/engine/index.js';
import { readRecording, type RecordingLine } from '../../src/recording/index.js';
import { runCli } from '../cli/run-cli.js';
import { startDaemonHarness, type DaemonHarness } from './daemon-harness.js';

const HOUR = 3_600_000;

let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('paper book of a dry run against the sandbox', () => {
  it('keeps each would-be offer with its modelled acceptance and what became of its request', async () => {
    harness = await startDaemonHarness({ dryRun: true, sandbox: { arrivalsPerHour: 0 } });
    const h = harness;
    const control = h.sandbox.control;
    const decide = { decisionDelayMs: 2 * HOUR, svcColor: 1, maxInterestRate: 0.6 };
    const taken = control.createLoanRequest({ ...decide, competitorRates: [0.031] });
    const listed = control.createLoanRequest({ ...decide, competitorOffers: 0, takeUp: 0 });
    await h.daemon.runJob('poll');
    control.advance(3 * HOUR);
    await h.daemon.runJob('poll');
    expect(control.offers()).toHaveLength(0);

    for (const request of [taken, listed]) {
      const offer = h.store.offers.getByRequest(request.id)!;
      const decision = h.store.decisions.get(request.id)!;
      const paper = h.store.paper.get(offer.id)!;
      // offer-all prices cost_plus with no market of its own: the default market response.
      const modelled = expectedAcceptProbability(offer.rate, request.max_interest_rate, 1 - decision.probability!, DEFAULT_MARKET_RESPONSE);
      expect(paper.acceptProbability).toBeCloseTo(modelled, 12);
      expect(paper.acceptProbability).toBeGreaterThan(0);
      expect(paper.repayProbability).toBe(decision.probability);
      expect(paper.strategy).toBe('offer-all');
    }
    const takenPaper = h.store.paper.get(h.store.offers.getByRequest(taken.id)!.id)!;
    const listedPaper = h.store.paper.get(h.store.offers.getByRequest(listed.id)!.id)!;
    expect(takenPaper.request).toBe('gone');
    expect(listedPaper.request).toBe('listed');
    const summary = h.store.paper.summary({ expiryMs: 72 * HOUR });
    // The request another lender's offer took left the list while ours was out; the other's fate
    // waits for the end of our offer's life.
    expect(summary).toMatchObject({
      basis: 'modelled',
      offers: 2,
      notModelled: 0,
      requests: { listed: 1, gone: 1, not_scanned: 0 },
      fates: { taken: 1, untaken: 0 },
    });
    // The sum of the offers' expected profits (each rounded to the cent: within a cent per offer).
    const byOffer = h.store.paper.recent(10).reduce((sum, offer) => sum + (offer.expectedProfitCents ?? 0), 0);
    expect(Math.abs(summary.expectedProfitCents - byOffer)).toBeLessThanOrEqual(1);
    expect(summary.interval95.lowCents).toBeLessThan(summary.expectedProfitCents);
    expect(summary.interval95.highCents).toBeGreaterThan(summary.expectedProfitCents);

    // The operator API: in the overview's status and on its own route, labelled modelled.
    const base = h.daemon.operatorUrl()!;
    const overview = (await (await fetch(new URL('/api/overview', base))).json()) as { status: { paperBook: { summary: unknown } } };
    expect(overview.status.paperBook.summary).toEqual(summary);
    const paper = (await (await fetch(new URL('/api/paper', base))).json()) as Record<string, unknown> & {
      book: Record<string, unknown>;
      offers: Array<Record<string, unknown>>;
    };
    expect(paper.basis).toBe('modelled');
    expect(paper.note).toMatch(/^nothing was sent: acceptance from what the market did/);
    expect(paper.book).toMatchObject({
      basis: 'modelled',
      offers: 2,
      modelled_expected_profit_cents: summary.expectedProfitCents,
      modelled_interval_95_cents: { low: summary.interval95.lowCents, high: summary.interval95.highCents },
      requests: { listed: 1, gone: 1, not_scanned: 0 },
      // One fate, one taken: the market allows up to all of them, so the curve stands, said so.
      acceptance: {
        source: 'paper_fates',
        label: 'acceptance: assumed curve, within the at most 100.0 % the fates of 1 paper offer allow',
      },
      lifetime_profit_cents: summary.expectedProfitCents,
    });
    expect(paper.offers.map((offer) => [offer.loan_request_id, offer.request])).toEqual([
      [listed.id, 'listed'],
      [taken.id, 'gone'],
    ]);
    expect(paper.offers[0]?.modelled_accept_probability).toBe(listedPaper.acceptProbability);
    await h.daemon.stop();

    // lendbot status: the same book, in JSON and in words.
    const db = join(h.dir, 'lendbot.db');
    const json = await runCli(['status', '--db', db, '--json']);
    expect(json.code).toBe(0);
    const status = JSON.parse(json.stdout) as { paper_book: Record<string, unknown> };
    expect(status.paper_book).toEqual(paper.book);
    const text = await runCli(['status', '--db', db]);
    expect(text.stdout).toMatch(/^paper book +2 paper offers \(1 still listed, 1 gone, 0 not scanned since\): nothing was sent$/m);
    expect(text.stdout).toMatch(/^ {2}lifetime profit +-?[\d,.]+ expected \(95 % .+ to .+\), .+, earned over the loans' terms$/m);
    // Three hours of paper offers: too short a window to annualise.
    expect(text.stdout).toMatch(/^ {2}return +none yet on the balance of 10000\.00: no return on capital before 7 days of paper offers$/m);

    // lendbot record export: each paper offer apart from `offer`, its modelled figures named so.
    const file = join(h.dir, 'paper.jsonl');
    const exported = await runCli(['record', 'export', '--db', db, '--out', file]);
    expect(exported.code).toBe(0);
    const lines = new Map<number, RecordingLine>();
    for await (const line of readRecording(file, (issue) => expect.unreachable(issue.message))) lines.set(line.loan_request.id, line);
    expect(lines.get(taken.id)?.offer).toBeUndefined();
    expect(lines.get(taken.id)?.paper_offer).toEqual({
      paper: true,
      rate: h.store.offers.getByRequest(taken.id)!.rate,
      at: takenPaper.createdAt,
      strategy: 'offer-all',
      modelled_accept_probability: takenPaper.acceptProbability,
      modelled_repay_probability: takenPaper.repayProbability,
      modelled_expected_profit: takenPaper.expectedProfitCents! / 100,
      request: 'gone',
    });
    expect(lines.get(listed.id)?.paper_offer?.request).toBe('listed');
  });
});
