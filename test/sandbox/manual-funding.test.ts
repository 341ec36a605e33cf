// Accepting an offer without automate_fund: how the investor sees it (a pending loan, spec 4.7)
// and funds it (spec 4.3), and what happens when it is never funded.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, HOUR, serviceFailure, startFixture, type Fixture } from './sandbox-fixture.js';
import { signedHeaders } from './signed-headers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture({ initialBalanceCents: 1_000_000 });
});
afterEach(async () => fx.close());

const quiet = { competitorOffers: 0, decisionDelayMs: 10 * DAY } as const;
const NOT_ACCEPTED = 'This offer has not been accepted by the borrower.';

async function refusalText(promise: Promise<unknown>): Promise<string> {
  const error = await serviceFailure(promise);
  expect(error).toMatchObject({ code: 'RULE_REFUSED', status: 400 });
  return error.serviceText ?? '';
}

async function currentLoans(): Promise<
  Array<{ id: number; status: string; loan_request_id?: number | undefined; next_payment_date?: string | null | undefined }>
> {
  return (await fx.client.listLoans('current')).items;
}

describe('an accepted offer awaiting the investor’s funding', () => {
  it('is refused "not accepted" before acceptance, listed as a pending loan after it, and funded once by a 201', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ ...quiet, maxInterestRate: 0.5 });
    const offer = await fx.client.makeOffer(request.id, { offeredInterest: 0.3 });
    expect(await refusalText(fx.client.fundAcceptedOffer(offer.id))).toBe(NOT_ACCEPTED);
    expect(await currentLoans()).toEqual([]);

    control.acceptOffer(offer.id);
    const [pending] = await currentLoans();
    expect(pending).toMatchObject({ status: 'pending', loan_request_id: request.id, interest_rate: 0.3, next_payment_date: null });
    // Nothing is paid out before the fund call.
    expect(control.balance()).toEqual({ balanceCents: 1_000_000, availableCents: 1_000_000 });

    expect(await fx.client.fundAcceptedOffer(offer.id)).toEqual({
      message: 'Funding has started. You will be notified when it is finished.',
    });
    // The same loan, now being funded; a second call is refused by precondition 1.
    expect(await currentLoans()).toMatchObject([{ id: pending!.id, status: 'pending', loan_request_id: request.id }]);
    expect(await refusalText(fx.client.fundAcceptedOffer(offer.id))).toBe('Funding for this offer has already been initiated.');
    control.advance(HOUR);
    expect(await currentLoans()).toMatchObject([{ id: pending!.id, status: 'funded', loan_request_id: request.id }]);
    expect(control.fundCalls().map((call) => call.outcome)).toEqual([
      NOT_ACCEPTED,
      'started',
      'Funding for this offer has already been initiated.',
    ]);
    expect(control.fundCalls().every((call) => call.offer_id === offer.id)).toBe(true);
    const overHttp = await fetch(`${fx.sandbox.url}/_sandbox/fund_calls`);
    expect(await overHttp.json()).toEqual(control.fundCalls());
  });

  it('is listed pending when the borrower accepts on the market’s own schedule, and paid from the funding on', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ competitorOffers: 0, decisionDelayMs: 5 * HOUR });
    const offer = await fx.client.makeOffer(request.id, { offeredInterest: 0.2 });
    control.advance(6 * HOUR);
    expect(control.offers()).toMatchObject([{ id: offer.id, offer_status: 'accepted', processed_on_processor: false }]);
    expect(await currentLoans()).toMatchObject([{ status: 'pending', loan_request_id: request.id, next_payment_date: null }]);

    // Funded ten hours after the acceptance: the first payment falls due a month after the funding.
    control.advance(10 * HOUR);
    await fx.client.fundAcceptedOffer(offer.id);
    const fundedAt = Date.parse(control.now()) + 15 * 60_000;
    control.advance(HOUR);
    const [loan] = await currentLoans();
    const due = new Date(fundedAt);
    due.setUTCMonth(due.getUTCMonth() + 1);
    expect(loan).toMatchObject({ status: 'funded', next_payment_date: `${due.toISOString().slice(0, 19).replace('T', ' ')}+00:00` });
    expect(control.groundTruth(request.id)).toMatchObject({ fundedBy: 'investor', requestStatus: 'signed' });
  });

  it('disappears from the loans when the acceptance expires unfunded, and the fund call is refused again', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ ...quiet });
    const offer = await fx.client.makeOffer(request.id, { offeredInterest: 0.2 });
    control.acceptOffer(offer.id);
    expect(await currentLoans()).toHaveLength(1);

    control.advance(49 * HOUR);
    expect(await currentLoans()).toEqual([]);
    expect(control.offers()).toMatchObject([{ id: offer.id, offer_status: 'expired' }]);
    expect(await refusalText(fx.client.fundAcceptedOffer(offer.id))).toBe(NOT_ACCEPTED);
    expect(control.groundTruth(request.id)).toMatchObject({ fundedBy: null, loanId: null });
  });

  it('funds automate_fund offers at acceptance as before, and lists one it could not fund as pending', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ ...quiet });
    const offer = await fx.client.makeOffer(request.id, { offeredInterest: 0.2, automateFund: true });
    control.acceptOffer(offer.id);
    expect(control.offers()).toMatchObject([{ id: offer.id, processed_on_processor: true }]);
    expect(control.fundCalls()).toEqual([]);
    control.advance(HOUR);
    expect(await currentLoans()).toMatchObject([{ status: 'funded', loan_request_id: request.id }]);

    // Not enough money at acceptance: the automatic funding cannot happen, the investor must fund.
    const short = control.createLoanRequest({ ...quiet });
    const unfunded = await fx.client.makeOffer(short.id, { offeredInterest: 0.2, automateFund: true });
    control.setBalance(100);
    control.acceptOffer(unfunded.id);
    expect(await currentLoans()).toMatchObject([
      { status: 'pending', loan_request_id: short.id },
      { status: 'funded', loan_request_id: request.id },
    ]);
  });

  it('answers the fund call over HTTP in the service’s shapes: 400 {detail} before acceptance, 201 {message} once after it', async () => {
    const control = fx.sandbox.control;
    const request = control.createLoanRequest({ ...quiet });
    const offer = await fx.client.makeOffer(request.id, { offeredInterest: 0.25 });
    const fund = async (): Promise<{ status: number; body: unknown }> => {
      const response = await fetch(`${fx.sandbox.url}/api/v3/accepted_offers/${offer.id}/fund/`, {
        method: 'POST',
        headers: { ...signedHeaders(fx.sandbox), 'Content-Type': 'application/json' },
        body: '{}',
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await fund()).toEqual({ status: 400, body: { detail: NOT_ACCEPTED } });
    expect(await fx.client.listTransfers()).toMatchObject({ items: [{ transactions: [{ transfer_type: 'Add Money' }] }] });

    control.acceptOffer(offer.id);
    expect(await fund()).toEqual({ status: 201, body: { message: 'Funding has started. You will be notified when it is finished.' } });
    expect(await fund()).toEqual({ status: 400, body: { detail: 'Funding for this offer has already been initiated.' } });
    // The money moves once: total_amount (loan plus fees) out of the balance, pending, then processed.
    const total = Math.round(Number(request.total_amount) * 100);
    expect(control.balance()).toEqual({ balanceCents: 1_000_000, availableCents: 1_000_000 - total });
    const [newest] = (await fx.client.listTransfers()).items;
    expect(newest?.transactions.filter((t) => t.transfer_type === 'Fund Loans')).toEqual([
      expect.objectContaining({ transfer_status: 'pending', transfer_amount: `-${request.total_amount}`, loan_request_id: request.id }),
    ]);
    control.advance(HOUR);
    expect(control.balance()).toEqual({ balanceCents: 1_000_000 - total, availableCents: 1_000_000 - total });
    expect(control.offers()).toMatchObject([{ id: offer.id, offer_status: 'accepted', processed_on_processor: true }]);
  });
});
