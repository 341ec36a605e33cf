/**
 * The poll decides pages as they arrive (issue 15, item 2): a list that shrinks while it is read
 * (a later page answers 404 "Invalid page.") ends the scan normally with everything read so far
 * decided; a failing page loses nothing before it; a growing list cannot keep the scan going; and
 * the list filters sent are the union of what the active strategies could take.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDaemonConfig } from '../../src/daemon/daemon-config.js';
import { compileStrategy, loadStrategyFile, parseStrategyText } from '../../src/engine/index.js';
import { ServiceError } from '../../src/service/index.js';
import { LAST_POLL_KEY } from '../../src/store/index.js';
import { OFFER_ALL } from './daemon-harness.js';
import { ids, LIST, listPage, loanRequest, startPollFixture, type PollFixture } from './poll-fixture.js';

let fixture: PollFixture | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const pageOf = (query: URLSearchParams): number => Number(query.get('page') ?? '1');
const HOUR_MS = 3_600_000;

describe('the poll reads pages as they arrive', () => {
  it('decides pages 1 and 2 and counts the poll as done when page 3 has vanished (404 "Invalid page.")', async () => {
    fixture = await startPollFixture();
    const f = fixture;
    // count 30 at 10 a page, newest first; by the time page 3 is asked for, the list has shrunk.
    f.server.route(LIST, (request, server) => {
      const page = pageOf(request.query);
      if (page === 1) return listPage(server, ids(21, 30).reverse(), 30, 2);
      if (page === 2) return listPage(server, ids(11, 20).reverse(), 30, 3);
      return { status: 404, body: { detail: 'Invalid page.' } };
    });

    const summary = await f.daemon.poller.poll();

    expect(summary).toMatchObject({ listed: 20, processed: 20, pages: 2, complete: false });
    expect(ids(11, 30).filter((id) => !f.store.decisions.has(id))).toEqual([]);
    expect(f.store.offers.listByState(['placed'])).toHaveLength(20);
    expect(f.store.state.get(LAST_POLL_KEY)).toBe('2026-11-20T14:00:00.000Z');
    const cut = f.logs.find((line) => String(line.msg).startsWith('the list shrank while it was read'));
    expect(cut).toMatchObject({ level: 30, page: 3, pagesRead: 2 });
    expect(f.logs.find((line) => line.msg === 'poll done')).toMatchObject({ listed: 20, processed: 20, pages: 2, complete: false });
  });

  it('decides every new request of a page before it asks for the next page', async () => {
    fixture = await startPollFixture();
    const f = fixture;
    const decidedWhenAsked: Record<number, number[]> = {};
    f.server.route(LIST, (request, server) => {
      const page = pageOf(request.query);
      decidedWhenAsked[page] = ids(1, 30).filter((id) => f.store.decisions.has(id));
      return listPage(server, ids(31 - page * 10, 40 - page * 10).reverse(), 30, page < 3 ? page + 1 : null);
    });

    await f.daemon.poller.poll();

    // Seen at the server: page 2 was asked for once all of page 1 was decided, and no sooner.
    expect(decidedWhenAsked).toEqual({ 1: [], 2: ids(21, 30), 3: ids(11, 30) });
    const calls = f.calls().filter((call) => call.includes('loan_requests'));
    const offersOn = (first: number, last: number) => ids(first, last).map((id) => `POST /api/v3/loan_requests/${id}/make_offer/`);
    expect(calls).toEqual([
      'GET /api/v3/loan_requests/',
      ...offersOn(21, 30), // oldest first within the page
      'GET /api/v3/loan_requests/?page=2',
      ...offersOn(11, 20),
      'GET /api/v3/loan_requests/?page=3',
      ...offersOn(1, 10),
    ]);
  });

  it('loses nothing of the pages read before a page that fails', async () => {
    fixture = await startPollFixture();
    const f = fixture;
    f.server.route(LIST, (request, server) => {
      const page = pageOf(request.query);
      if (page === 3) return { status: 400, body: { detail: 'Something is wrong with this request.' } };
      return listPage(server, ids(31 - page * 10, 40 - page * 10).reverse(), 30, page + 1);
    });

    const error = await f.daemon.poller.poll().then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('RULE_REFUSED');
    expect(ids(11, 30).filter((id) => !f.store.decisions.has(id))).toEqual([]);
    // A failed poll is not a done poll.
    expect(f.store.state.get(LAST_POLL_KEY)).toBeUndefined();
  });

  it('answers a 404 on the first page with an error, as before', async () => {
    fixture = await startPollFixture();
    fixture.server.route(LIST, () => ({ status: 404, body: { detail: 'Not found.' } }));
    await expect(fixture.daemon.poller.poll()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reads at most the pages the first count implies, plus one, while the list keeps growing', async () => {
    fixture = await startPollFixture();
    const f = fixture;
    // count 20 at 10 a page is 2 pages; each answer links to one more page, forever.
    f.server.route(LIST, (request, server) => {
      const page = pageOf(request.query);
      return listPage(server, ids(page * 10 + 1, page * 10 + 10), 10 + page * 10, page + 1);
    });

    const summary = await f.daemon.poller.poll();

    expect(f.calls().filter((call) => call.startsWith('GET /api/v3/loan_requests/'))).toEqual([
      'GET /api/v3/loan_requests/',
      'GET /api/v3/loan_requests/?page=2',
      'GET /api/v3/loan_requests/?page=3',
    ]);
    expect(summary).toMatchObject({ pages: 3, processed: 30, complete: false });
    expect(f.logs.find((line) => String(line.msg).startsWith('the list outgrew'))).toMatchObject({ level: 30, page: 3, bound: 3 });
    expect(f.store.state.get(LAST_POLL_KEY)).toBeDefined();
  });
});

describe('list filters sent by the poll', () => {
  const strategyText = (name: string, filters: string, params = ''): string => `
name: ${name}
description: test
version: "1"
${params}
filters:
${filters}
data: { monthly_budget: 0, banking_data: never }
score: { logistic: { intercept: 5, terms: [{ feature: completed_loans, weight: 0.01 }] } }
pricing: { target_return: 0.05 }
`;
  const compiled = (name: string, filters: string, params = '') => {
    const text = strategyText(name, filters, params);
    return compileStrategy(parseStrategyText(text, `${name}.yaml`), { file: `${name}.yaml`, text });
  };
  const narrow = compiled('narrow', '  - { feature: risk_level, in: [1] }\n  - { feature: loan_amount, min: 200, max: 1500 }');
  const wider = compiled(
    'wider',
    '  - { feature: risk_level, min: 1, max: 1 }\n  - { feature: loan_amount, min: 100.5, max: $max_amount }\n  - { feature: crypto_backed, in: [false] }',
    'params: { max_amount: { value: 999.5, min: 500, max: 2000 } }',
  );

  async function queryOfPoll(options: Parameters<typeof startPollFixture>[0]): Promise<string> {
    fixture = await startPollFixture(options);
    fixture.server.route(LIST, (_request, server) => listPage(server, [1, 2], 2, null));
    await fixture.daemon.poller.poll();
    const list = fixture.server.requests.filter((request) => request.path === '/api/v3/loan_requests/');
    expect(list).toHaveLength(1);
    return list[0]?.query.toString() ?? '';
  }

  it('sends the union of what the active strategies could take', async () => {
    // Level 1 in both; amounts from the lowest minimum to the highest maximum, in whole dollars
    // and one more (100.5 -> 99, 1500 -> 1501).
    expect(await queryOfPoll({ strategies: [narrow, wider] })).toBe('svc_color=1&loan_amount_min=99&loan_amount_max=1501');
  });

  it('sends nothing for a field some strategy does not restrict', async () => {
    // offer-all only refuses crypto (levels 0-3 remain) and takes any amount.
    expect(await queryOfPoll({ strategies: [narrow, await loadStrategyFile(OFFER_ALL)] })).toBe('');
  });

  it('sends no filter with poll.server_filters: false', async () => {
    expect(await queryOfPoll({ strategies: [narrow], config: { poll: { schedule: 'off', at_start: false, server_filters: false } } })).toBe(
      '',
    );
  });

  it('reads the whole list while an offer awaits reconciliation', async () => {
    fixture = await startPollFixture({ strategies: [narrow] });
    const f = fixture;
    const intent = f.store.offers.createIntent({
      request: loanRequest(99),
      rate: 0.3,
      automateFund: true,
      dryRun: false,
      atMs: f.clock.now(),
    });
    if (!intent.created) throw new Error('intent not created');
    f.store.offers.markUnknown(intent.offer.id, 'timeout', f.clock.now());
    f.server.route(LIST, (_request, server) => listPage(server, [1], 1, null));

    const summary = await f.daemon.poller.poll();

    expect(f.server.requests.find((request) => request.path === '/api/v3/loan_requests/')?.query.toString()).toBe('');
    expect(summary.complete).toBe(true);
  });
});

describe('reconciliation during a poll', () => {
  function unknownOffer(f: PollFixture, loanRequestId: number, ageMs = 0): number {
    const intent = f.store.offers.createIntent({
      request: loanRequest(loanRequestId),
      rate: 0.3,
      automateFund: true,
      dryRun: false,
      atMs: f.clock.now() - ageMs,
    });
    if (!intent.created) throw new Error('intent not created');
    f.store.offers.markUnknown(intent.offer.id, 'timeout', f.clock.now() - ageMs);
    return intent.offer.id;
  }

  async function configWith(yaml: string): Promise<Record<string, unknown>> {
    const dir = mkdtempSync(join(tmpdir(), 'lendbot-config-'));
    dirs.push(dir);
    const file = join(dir, 'lendbot.yaml');
    writeFileSync(file, yaml);
    const loaded = await loadDaemonConfig(file, {});
    return { service: loaded.service };
  }

  // The service's own words for rule 7 are not shown in the spec; this one is not in lendbot's table.
  const DUPLICATE = 'Duplicate offer for this loan request.';

  async function pollWithDuplicateAnswer(config: Record<string, unknown>): Promise<PollFixture> {
    fixture = await startPollFixture({ liveClient: true, config });
    const f = fixture;
    // Sent two minutes ago: its first re-send is due (unknown_offers.first_wait_seconds, 60).
    unknownOffer(f, 7, 2 * 60_000);
    f.server.route('POST /api/v3/loan_requests/7/make_offer/', () => ({ status: 400, body: { detail: DUPLICATE } }));
    f.server.route(LIST, (_request, server) => listPage(server, [8, 7], 2, null));
    await f.daemon.runJob('poll');
    return f;
  }

  it('recognises an offer that already exists by a refusal text added in config', async () => {
    const f = await pollWithDuplicateAnswer(
      await configWith(`service:\n  refusal_texts:\n    - { pattern: "duplicate offer", code: offer_exists }\n`),
    );
    expect(f.store.offers.getByRequest(7)?.state).toBe('placed');
    // Settled before the page's new request was decided.
    const offers = f.calls().filter((call) => call.endsWith('/make_offer/'));
    expect(offers).toEqual(['POST /api/v3/loan_requests/7/make_offer/', 'POST /api/v3/loan_requests/8/make_offer/']);
  });

  it('without that text the same answer settles nothing: the offer stays unknown, its money reserved', async () => {
    // A 400 whose text lendbot does not recognise proves no refusal (issue 24, item 1).
    const f = await pollWithDuplicateAnswer({});
    expect(f.store.offers.getByRequest(7)?.state).toBe('unknown');
  });

  it('expires an unlisted offer only after a scan that read the whole list', async () => {
    fixture = await startPollFixture();
    const f = fixture;
    const id = unknownOffer(f, 99, 100 * HOUR_MS);
    let shrinking = true;
    f.server.route(LIST, (request, server) => {
      if (pageOf(request.query) === 1) return listPage(server, ids(1, 10), 20, 2);
      return shrinking ? { status: 404, body: { detail: 'Invalid page.' } } : listPage(server, ids(11, 20), 20, null);
    });

    await f.daemon.runJob('poll');
    // Request 99 may have been on the page that vanished: the offer keeps reserving its money.
    expect(f.store.offers.get(id)?.state).toBe('unknown');

    shrinking = false;
    await f.daemon.runJob('poll');
    expect(f.store.offers.get(id)?.state).toBe('expired');
  });
});
