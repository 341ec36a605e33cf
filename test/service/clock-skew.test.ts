import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/clock.js';
import { createLogger } from '../../src/log/logger.js';
import { ServiceClock } from '../../src/service/clock-skew.js';
import { DEFAULT_CLOCK_SKEW } from '../../src/service/index.js';
import { startHarness, type Harness, serviceFailure } from './client-harness.js';
import { pageOf } from './fixture-server.js';
import { offerJson } from './fixtures/resources.js';

let harness: Harness;

const LIST = 'GET /api/v3/loan_requests/';
const OFFER = 'POST /api/v3/loan_requests/17/make_offer/';
const CLIENT_NOW = Date.parse('2026-11-20T14:00:00Z') / 1000;

function routes(h: Harness): void {
  h.server.route(LIST, (_request, server) => pageOf(server, '/api/v3/loan_requests/', [], 1, 10));
  h.server.route(OFFER, () => ({ status: 201, body: offerJson(5, 17, 0.25, false) }));
}

const stamps = (h: Harness): number[] => h.server.requests.map((request) => Number(request.headers['x-timestamp']));

describe('clock skew correction', () => {
  afterEach(async () => {
    await harness.close();
  });

  it('signs again once with the service time from its Date header, logs the offset once, and keeps it', async () => {
    // The client's clock is 600 s behind the service's.
    harness = await startHarness({}, 600);
    routes(harness);
    await expect(harness.client.listLoanRequests()).resolves.toMatchObject({ count: 0 });
    expect(harness.server.requests).toHaveLength(2);
    expect(stamps(harness)).toEqual([CLIENT_NOW, CLIENT_NOW + 600]);
    expect(harness.logLines()).toEqual([
      expect.objectContaining({
        level: 40,
        component: 'service',
        method: 'GET',
        path: '/api/v3/loan_requests/',
        offsetSeconds: 600,
        previousOffsetSeconds: 0,
        msg: "clock skew: the marketplace's clock is 600 s from ours; signing with the corrected time",
      }),
    ]);

    // Later calls sign with the offset at once: one request each, no new log line.
    harness.clock.advance(60_000);
    await harness.client.listLoanRequests();
    expect(harness.server.requests).toHaveLength(3);
    expect(stamps(harness)[2]).toBe(CLIENT_NOW + 660);
    expect(harness.logLines()).toHaveLength(1);
  });

  it('signs again every concurrent call refused before the offset was learnt, logging the offset once', async () => {
    // Both calls are sent, and refused, before either answer is read.
    harness = await startHarness({}, 600, { refusalDelayMs: 50 });
    routes(harness);
    const pages = await Promise.all([harness.client.listLoanRequests(), harness.client.listLoanRequests()]);
    expect(pages.map((page) => page.count)).toEqual([0, 0]);
    expect(stamps(harness)).toEqual([CLIENT_NOW, CLIENT_NOW, CLIENT_NOW + 600, CLIENT_NOW + 600]);
    expect(harness.logLines()).toEqual([expect.objectContaining({ offsetSeconds: 600, previousOffsetSeconds: 0 })]);
  });

  it('sends a make_offer refused for its timestamp once more: the refusal means it was never applied', async () => {
    harness = await startHarness({}, -600);
    routes(harness);
    await expect(harness.client.makeOffer(17, { offeredInterest: 0.25 })).resolves.toMatchObject({ id: 5, offered_interest: 0.25 });
    expect(harness.server.requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    expect(stamps(harness)).toEqual([CLIENT_NOW, CLIENT_NOW - 600]);
    expect(harness.logLines()).toEqual([expect.objectContaining({ offsetSeconds: -600, path: '/api/v3/loan_requests/17/make_offer/' })]);
  });

  it('leaves the error when the answer has no Date header', async () => {
    harness = await startHarness({}, 600, { sendDate: false });
    routes(harness);
    const error = await serviceFailure(harness.client.listLoanRequests());
    expect(error.code).toBe('AUTH_TIMESTAMP_OUT_OF_RANGE');
    expect(error.message).toBe('GET /api/v3/loan_requests/ 403 authentication refused: Timestamp out of range');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.logLines()).toEqual([]);
  });

  it('leaves the error when correction is turned off', async () => {
    harness = await startHarness({ clockSkew: { correct: false, maxSkewSeconds: 3600 } }, 600);
    routes(harness);
    expect((await serviceFailure(harness.client.listLoanRequests())).code).toBe('AUTH_TIMESTAMP_OUT_OF_RANGE');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.logLines()).toEqual([]);
  });

  it('does not trust a skew beyond the maximum, and says so', async () => {
    harness = await startHarness({ clockSkew: { correct: true, maxSkewSeconds: 3600 } }, 3601);
    routes(harness);
    expect((await serviceFailure(harness.client.listLoanRequests())).code).toBe('AUTH_TIMESTAMP_OUT_OF_RANGE');
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.logLines()).toEqual([
      expect.objectContaining({
        offsetSeconds: 3601,
        maxSkewSeconds: 3600,
        msg: "clock skew of 3601 s to the marketplace is beyond LENDBOT_MAX_CLOCK_SKEW_SECONDS; not corrected: fix the machine's clock",
      }),
    ]);
  });

  it('corrects at most once per call, even when the service keeps moving', async () => {
    let requestsSeen = (): number => 0;
    // The service's clock jumps 600 s with every request it sees.
    harness = await startHarness({}, 0, { nowSeconds: () => CLIENT_NOW + 600 * requestsSeen() });
    requestsSeen = () => harness.server.requests.length;
    routes(harness);
    const error = await serviceFailure(harness.client.listLoanRequests());
    expect(error.code).toBe('AUTH_TIMESTAMP_OUT_OF_RANGE');
    expect(stamps(harness)).toEqual([CLIENT_NOW, CLIENT_NOW + 600]);
    expect(harness.logLines()).toHaveLength(1);
  });
});

describe('the learnt offset', () => {
  it('takes answers a second apart (whole-second Date headers) as the same skew', () => {
    const clock = new ManualClock('2026-11-20T14:00:00Z');
    const lines: string[] = [];
    const serviceClock = new ServiceClock(
      clock,
      DEFAULT_CLOCK_SKEW,
      createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } }),
    );
    const where = { method: 'GET', path: '/api/v3/loan_requests/' };
    const serviceDate = (offsetSeconds: number): number => clock.now() + offsetSeconds * 1000;
    expect(serviceClock.learn(serviceDate(600), 0, where)).toBe(true);
    // A concurrent call, also signed without an offset, answered a second later: sign it again with 600.
    expect(serviceClock.learn(serviceDate(601), 0, where)).toBe(true);
    expect(serviceClock.currentOffsetSeconds()).toBe(600);
    // Signed with 600 and refused: another attempt with 600 or 601 would be refused too.
    expect(serviceClock.learn(serviceDate(601), 600, where)).toBe(false);
    expect(lines).toHaveLength(1);
  });
});
