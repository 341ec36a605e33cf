// A borrower who waits for a lender's answer (src/sandbox/borrower-holds.ts), through the control
// API over HTTP as lendbot's run command calls it (src/cli/commands/run/sandbox-request-holds.ts):
// while held, the request's decision, cancellation and listing end wait; they run when the hold
// is released or its time comes; competitors still offer.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxRequestHolds } from '../../src/cli/commands/run/sandbox-request-holds.js';
import { DAY, HOUR, startFixture, type Fixture } from './sandbox-fixture.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture({ initialBalanceCents: 1_000_000 });
});
afterEach(async () => fx.close());

const listed = async (id: number): Promise<boolean> => {
  for await (const page of fx.client.loanRequestPages()) if (page.items.some((request) => request.id === id)) return true;
  return false;
};
const post = (path: string, body: unknown) =>
  fetch(new URL(path, fx.sandbox.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a held loan request', () => {
  it("is gone at its borrower's decision without a hold", async () => {
    const request = fx.sandbox.control.createLoanRequest({ competitorOffers: 0, cancel: true, decisionDelayMs: HOUR });
    fx.sandbox.control.advance(2 * HOUR);
    expect(await listed(request.id)).toBe(false);
  });

  it('stays open while held, and its borrower decides once released', async () => {
    const control = fx.sandbox.control;
    const holds = sandboxRequestHolds(fx.sandbox.url, fx.sandbox.clock, 1);
    const request = control.createLoanRequest({ competitorOffers: 0, cancel: true, decisionDelayMs: HOUR });
    await holds.hold(request.id, 10 * HOUR);
    control.advance(5 * HOUR);
    expect(await listed(request.id)).toBe(true);
    await holds.release(request.id);
    expect(await listed(request.id)).toBe(false);
    expect(control.groundTruth(request.id)).toMatchObject({ requestStatus: 'canceled' });
  });

  it('lets the hold lapse at its time, and refuses a request that is not open or a time it cannot read', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ competitorOffers: 0, cancel: true, decisionDelayMs: HOUR });
    const until = new Date(fx.sandbox.clock.now() + 3 * HOUR).toISOString();
    const held = await post(`/_sandbox/loan_requests/${request.id}/hold`, { until });
    expect(held.status).toBe(200);
    // The sandbox's own time format (seconds, as its resources say times).
    expect(await held.json()).toEqual({ held_until: until.replace('.000Z', 'Z') });
    control.advance(2 * HOUR);
    expect(await listed(request.id)).toBe(true);
    control.advance(2 * HOUR);
    expect(await listed(request.id)).toBe(false);

    const again = await post(`/_sandbox/loan_requests/${request.id}/hold`, { until: new Date(fx.sandbox.clock.now() + DAY).toISOString() });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Only an open loan request can be held.');
    const open = control.createLoanRequest({ competitorOffers: 0, decisionDelayMs: DAY });
    const unreadable = await post(`/_sandbox/loan_requests/${open.id}/hold`, { until: 'tomorrow' });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.text()).toContain('not an ISO 8601 time: \\"tomorrow\\"');
  });
});
