/**
 * The start-up read of `lendbot run` (src/daemon/start-checks.ts) against the fixture market, on
 * the client's injected clock and sleep: what ends start-up, with which line, and what starts
 * anyway. The spawned CLI is tested in test/cli/run-start-up.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkMarketplaceAtStart } from '../../src/daemon/start-checks.js';
import { DEFAULT_RETRY } from '../../src/service/index.js';
import { captureLog } from '../log/log-capture.js';
import { startHarness, type Harness } from '../service/client-harness.js';

const TRANSFERS = 'GET /api/v3/transfer_history/';
const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };
const TRIES = DEFAULT_RETRY.readRetries + 1;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function check(h: Harness, baseUrl = h.server.url) {
  const { log, lines } = captureLog();
  return { lines, done: checkMarketplaceAtStart(h.client, { baseUrl, tries: TRIES, log }) };
}

describe('the start-up check', () => {
  it('passes after the clock-skew correction: a clock 10 minutes off is no refusal', async () => {
    harness = await startHarness({}, 600);
    harness.server.route(TRANSFERS, () => ({ status: 200, body: EMPTY_PAGE }));
    await expect(check(harness).done).resolves.toBeUndefined();
    // Refused once for the timestamp, signed again with the service's time, accepted.
    expect(harness.server.requests).toHaveLength(2);
  });

  it('ends start-up naming LENDBOT_SECRET_KEY when the signature is refused', async () => {
    harness = await startHarness({ secretKey: 'not-the-secret' });
    await expect(check(harness).done).rejects.toThrow(
      /^the marketplace refused lendbot's credentials at start: .*\[AUTH_INVALID_HMAC\] \(check LENDBOT_SECRET_KEY/,
    );
    expect(harness.server.requests).toHaveLength(1);
  });

  it('ends start-up naming LENDBOT_BASE_URL after the bounded tries, backing off on the injected sleep', async () => {
    harness = await startHarness({ baseUrl: 'http://127.0.0.1:1' });
    await expect(check(harness, 'http://127.0.0.1:1/').done).rejects.toThrow(
      `cannot reach the marketplace at http://127.0.0.1:1 (ECONNREFUSED, ${TRIES} tries): check LENDBOT_BASE_URL and the network`,
    );
    expect(harness.sleeps).toHaveLength(TRIES - 1);
  });

  it('ends start-up naming LENDBOT_BASE_URL when the marketplace does not answer within the budget', async () => {
    harness = await startHarness();
    harness.server.route(TRANSFERS, () => ({ status: 200, body: EMPTY_PAGE, delayMs: 60_000 }));
    const { log } = captureLog();
    let waited = 0;
    const sleep = async (ms: number): Promise<void> => {
      waited = ms;
      // The budget runs out once the read is on the wire.
      while (harness?.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await expect(
      checkMarketplaceAtStart(harness.client, { baseUrl: harness.server.url, tries: TRIES, log, budgetMs: 30_000, sleep }),
    ).rejects.toThrow(`no answer from the marketplace at ${harness.server.url} within 30 s: check LENDBOT_BASE_URL and the network`);
    expect(waited).toBe(30_000);
  });

  it('ends start-up naming LENDBOT_BASE_URL when what answers there is not the marketplace', async () => {
    harness = await startHarness();
    // No route: the fixture answers 404 as a web server that is not the marketplace would.
    await expect(check(harness).done).rejects.toThrow(/does not answer as the marketplace does: .*404.*; check LENDBOT_BASE_URL$/);
  });

  it('starts anyway, with one warning, when the marketplace is there but failing, and hands the failure to health', async () => {
    harness = await startHarness();
    harness.server.route(TRANSFERS, () => ({ status: 503, body: { detail: 'maintenance' } }));
    const { lines, done } = check(harness);
    // Returned, so /healthz is degraded from the start (test/daemon/odd-ids.test.ts).
    await expect(done).resolves.toMatchObject({ code: 'SERVER_ERROR' });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        code: 'SERVER_ERROR',
        msg: 'the marketplace is failing at start; starting anyway, degraded until it answers',
      }),
    ]);
  });
});
