/**
 * Issue 37, item 1: one list item whose id is not a positive safe integer (0, -5, 1.5, "7",
 * 2^60) made every poll fail once a strategy bought data for it: the client refused to ask about
 * id 0 and the error ended the poll, so a poll-only set-up decided none of the good requests, and
 * `/healthz` said ok for 10 minutes while every poll failed. Such an item is now left out at the
 * edge as that item's issue, and polls that fail in a row make `/healthz` degraded with the reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/daemon/free-port.js';
import { loadStrategyFile } from '../../src/engine/index.js';
import { loanRequestJson } from '../service/fixtures/resources.js';
import { LIST, startPollFixture, type PollFixture } from './poll-fixture.js';

let fixture: PollFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

// The shipped strategy buys the borrower's data, which the client refuses to ask for about id 0.
const BALANCED = 'strategies/balanced.yaml';
const ODD_IDS: unknown[] = [0, -5, 1.5, '7', 2 ** 60];

describe('a list with items whose id is not a positive safe integer', () => {
  it('decides both good requests of the page and leaves out each odd one as its own issue', async () => {
    fixture = await startPollFixture({ strategies: [await loadStrategyFile(BALANCED)] });
    const f = fixture;
    const results = [loanRequestJson(3), ...ODD_IDS.map((id) => ({ ...loanRequestJson(9), id })), loanRequestJson(4)];
    f.server.route(LIST, () => ({ status: 200, body: { count: results.length, next: null, previous: null, results } }));

    await f.daemon.runJob('poll');
    await f.daemon.runJob('poll');

    expect([f.store.decisions.has(3), f.store.decisions.has(4)]).toEqual([true, true]);
    expect(f.logs.filter((line) => line.msg === 'poll done')).toHaveLength(2);
    expect(f.logs.find((line) => line.msg === 'poll done')).toMatchObject({ listed: 2, processed: 2, invalid: 5 });
    const leftOut = f.logs.filter((line) => line.msg === 'loan request left out').map((line) => String(line.issue));
    expect(leftOut.slice(0, 5)).toEqual([
      'GET /api/v3/loan_requests/: item 1 (id 0) left out: $.id: an id is a positive whole number (got 0)',
      'GET /api/v3/loan_requests/: item 2 (id -5) left out: $.id: an id is a positive whole number (got -5)',
      'GET /api/v3/loan_requests/: item 3 (id 1.5) left out: $.id: Invalid input: expected int, received number',
      'GET /api/v3/loan_requests/: item 4 (id 7) left out: $.id: Invalid input: expected number, received string',
      `GET /api/v3/loan_requests/: item 5 (id ${2 ** 60}) left out: $.id: Too big: expected int to be <=9007199254740991`,
    ]);
    // Nothing was asked about the odd ids.
    expect(f.calls().filter((call) => /loan_requests\/(0|-5)\//.test(call))).toEqual([]);
  });
});

describe('/healthz while every poll fails', () => {
  it('is degraded with the reason after 3 failed polls in a row, and ok again after one that succeeds', async () => {
    const port = await freePort();
    fixture = await startPollFixture({ config: { webhook: { host: '127.0.0.1', port } } });
    const f = fixture;
    await f.daemon.start();
    let failing = true;
    f.server.route(LIST, () =>
      failing
        ? { status: 500, body: { detail: 'database is down' } }
        : { status: 200, body: { count: 1, next: null, previous: null, results: [loanRequestJson(5)] } },
    );
    const health = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      const body = (await response.json()) as { status: string; checks: { poll: Record<string, unknown> } };
      return { http: response.status, status: body.status, poll: body.checks.poll };
    };

    await f.daemon.runJob('poll');
    await f.daemon.runJob('poll');
    // Two failures: the last complete poll is recent and the count is under the limit.
    expect(await health()).toMatchObject({ http: 200, status: 'ok', poll: { ok: true, failed_in_row: 2, max_failed_in_row: 3 } });
    await f.daemon.runJob('poll');
    const degraded = await health();
    expect(degraded).toMatchObject({
      http: 503,
      status: 'degraded',
      poll: { ok: false, failed_in_row: 3, max_failed_in_row: 3, since: new Date(f.clock.now()).toISOString() },
    });
    expect(String(degraded.poll.reason)).toContain('database is down');

    failing = false;
    await f.daemon.runJob('poll');
    expect(await health()).toMatchObject({ http: 200, status: 'ok', poll: { ok: true, failed_in_row: 0 } });
    expect(f.store.decisions.has(5)).toBe(true);
  });

  it('takes the number of failed polls from poll.failures_before_degraded', async () => {
    const port = await freePort();
    fixture = await startPollFixture({
      config: { webhook: { host: '127.0.0.1', port }, poll: { schedule: 'off', at_start: false, failures_before_degraded: 1 } },
    });
    const f = fixture;
    await f.daemon.start();
    f.server.route(LIST, () => ({ status: 500, body: { detail: 'database is down' } }));
    await f.daemon.runJob('poll');
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'degraded',
      checks: { poll: { ok: false, failed_in_row: 1, max_failed_in_row: 1 } },
    });
  });

  it('is degraded from the start when the marketplace was failing at start, and ok after the first poll that succeeds', async () => {
    // The soak (bench/soak.ts) restarted a daemon into an outage: the start-up read failed, the
    // log said "degraded until it answers", and /healthz said ok for over a minute.
    const port = await freePort();
    fixture = await startPollFixture({ liveClient: true, config: { webhook: { host: '127.0.0.1', port } } });
    const f = fixture;
    let failing = true;
    f.server.route('GET /api/v3/transfer_history/', () =>
      failing
        ? { status: 503, body: { detail: 'maintenance' } }
        : { status: 200, body: { count: 0, next: null, previous: null, results: [] } },
    );
    f.server.route(LIST, () =>
      failing
        ? { status: 503, body: { detail: 'maintenance' } }
        : { status: 200, body: { count: 0, next: null, previous: null, results: [] } },
    );
    await f.daemon.checkMarketplace();
    await f.daemon.start();
    const health = async () => {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      const body = (await response.json()) as { status: string; checks: { poll: Record<string, unknown> } };
      return { http: response.status, status: body.status, poll: body.checks.poll };
    };
    const first = await health();
    expect(first).toMatchObject({ http: 503, status: 'degraded', poll: { ok: false, failed_in_row: 0 } });
    expect(String(first.poll.reason)).toContain('the marketplace was failing at start');

    await f.daemon.runJob('poll').catch(() => undefined);
    expect(await health()).toMatchObject({ http: 503, status: 'degraded', poll: { ok: false, failed_in_row: 1 } });

    failing = false;
    await f.daemon.runJob('poll');
    expect(await health()).toMatchObject({ http: 200, status: 'ok', poll: { ok: true, failed_in_row: 0 } });
  });
});
