import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceFailure, startFixture, type Fixture } from './sandbox-fixture.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture();
  for (let i = 0; i < 10; i++) fx.sandbox.control.createLoanRequest({ competitorOffers: 0 });
});
afterEach(async () => fx.close());

describe('fault injection', () => {
  it('answers a burst of 429s with Retry-After, then recovers', async () => {
    fx.sandbox.control.setFaults({ rateLimitBurst: 2, retryAfterSeconds: 7 });
    const first = await serviceFailure(fx.client.listLoanRequests());
    expect(first.code).toBe('RATE_LIMITED');
    expect(first.retryAfterMs).toBe(7000);
    expect((await serviceFailure(fx.client.listLoanRequests())).code).toBe('RATE_LIMITED');
    expect((await fx.client.listLoanRequests()).count).toBe(10);
  });

  it('answers 500 at the error rate', async () => {
    fx.sandbox.control.setFaults({ errorRate: 1 });
    const error = await serviceFailure(fx.client.listLoanRequests());
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.serviceText).toBe('A server error occurred.');
  });

  it('puts malformed items in lists, which the client sets aside', async () => {
    fx.sandbox.control.setFaults({ malformedRate: 1 });
    const page = await fx.client.listLoanRequests();
    expect(page.items).toEqual([]);
    expect(page.issues).toHaveLength(10);
  });

  it('refuses nonsense settings', () => {
    expect(() => fx.sandbox.control.setFaults({ errorRate: 2 })).toThrow('errorRate must be between 0 and 1');
  });
});
