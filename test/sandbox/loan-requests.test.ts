import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanRequestSchema, type LoanRequest } from '../../src/domain/index.js';
import { collectPages, ServiceError, type LoanRequestFilters } from '../../src/service/index.js';
import { clientFor, DAY, HOUR, startFixture, type Fixture } from './sandbox-fixture.js';
import { signedHeaders } from './signed-headers.js';

let fx: Fixture;
// Requests made on demand with known hidden fields, plus a market's worth of arrivals.
let fixed: LoanRequest[];

beforeAll(async () => {
  fx = await startFixture({ arrivalsPerHour: 20, seed: 7 });
  fx.sandbox.control.advance(3 * HOUR);
  const make = fx.sandbox.control.createLoanRequest;
  fixed = [
    make({
      state: 'CA',
      zipCode: '94110',
      invited: true,
      completedLoans: 0,
      creditScore: 720,
      svcColor: 0,
      loanAmountCents: 120_000,
      loanTerms: 6,
      competitorOffers: 0,
      decisionDelayMs: 20 * DAY,
    }),
    make({
      state: 'new york',
      zipCode: '10027',
      invited: false,
      completedLoans: 2,
      creditScore: 610,
      svcColor: 2,
      loanAmountCents: 50_000,
      loanTerms: 12,
      competitorOffers: 0,
      decisionDelayMs: 20 * DAY,
    }),
    make({
      state: 'TX',
      zipCode: '78701',
      invited: false,
      completedLoans: 7,
      creditScore: 655,
      svcColor: 1,
      loanAmountCents: 300_000,
      loanTerms: 24,
      competitorOffers: 0,
      decisionDelayMs: 20 * DAY,
    }),
  ];
});
afterAll(async () => fx.close());

async function ids(filters: LoanRequestFilters, client = fx.client): Promise<number[]> {
  const { items, issues } = await collectPages(client.loanRequestPages(filters));
  expect(issues).toEqual([]);
  return items.map((item) => item.id);
}

const fixedIds = (): number[] => fixed.map((r) => r.id);
const onlyFixed = (list: number[]): number[] => list.filter((id) => fixedIds().includes(id));

describe('GET /api/v3/loan_requests/ (spec 4.1)', () => {
  it('lists open requests, newest first, in pages of 20 with next/previous links carrying page', async () => {
    const first = await fx.client.listLoanRequests();
    expect(first.issues).toEqual([]);
    expect(first.count).toBeGreaterThan(40);
    expect(first.items).toHaveLength(20);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`${fx.sandbox.url}/api/v3/loan_requests/?page=2`);
    const second = await fx.client.listLoanRequests({}, 2);
    expect(second.previous).toBe(`${fx.sandbox.url}/api/v3/loan_requests/?page=1`);
    const created = first.items.map((item) => Date.parse(item.created));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const all = await ids({});
    expect(all).toHaveLength(first.count);
    expect(new Set(all).size).toBe(all.length);
  });

  it('serves items that validate under the client schema, with fees that add up', async () => {
    const { items } = await collectPages(fx.client.loanRequestPages());
    for (const item of items) {
      expect(loanRequestSchema.safeParse(item).success).toBe(true);
      const cents = (text: string | undefined): number => Math.round(Number(text ?? '0') * 100);
      expect(cents(item.total_fees)).toBe(cents(item.fee_legislative) + cents(item.fee_extra) + cents(item.fee_svc));
      expect(cents(item.total_amount)).toBe(cents(item.loan_amount) + cents(item.total_fees));
      expect(item.borrower_card_color).toBe(item.borrower.svc_color);
    }
  });

  it('answers 404 "Invalid page." past the last page', async () => {
    const error = (await fx.client.listLoanRequests({}, 999).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('NOT_FOUND');
    expect(error.serviceText).toBe('Invalid page.');
  });

  it('filters by risk level and by ranges in every client encoding', async () => {
    expect(onlyFixed(await ids({ svcColor: 2 }))).toEqual([fixed[1]?.id]);
    for (const format of ['min-max-params', 'comma', 'dash'] as const) {
      const client = clientFor(fx.sandbox, { rangeFormat: format });
      expect(onlyFixed(await ids({ creditScore: { min: 650, max: 730 } }, client)).sort()).toEqual([fixed[0]?.id, fixed[2]?.id].sort());
      expect(onlyFixed(await ids({ loanAmount: { max: 1200 } }, client)).sort()).toEqual([fixed[0]?.id, fixed[1]?.id].sort());
      expect(onlyFixed(await ids({ loanTerms: { min: 12 } }, client)).sort()).toEqual([fixed[1]?.id, fixed[2]?.id].sort());
      client.close();
    }
  });

  it('filters completed loans as a list, a range or both', async () => {
    expect(onlyFixed(await ids({ completedLoans: '0,2' })).sort()).toEqual([fixed[0]?.id, fixed[1]?.id].sort());
    expect(onlyFixed(await ids({ completedLoans: '1-7' })).sort()).toEqual([fixed[1]?.id, fixed[2]?.id].sort());
    expect(onlyFixed(await ids({ completedLoans: '0,5-9' })).sort()).toEqual([fixed[0]?.id, fixed[2]?.id].sort());
  });

  it('filters invited and previous borrowers', async () => {
    expect(onlyFixed(await ids({ invitedBorrowers: true }))).toEqual([fixed[0]?.id]);
    expect(onlyFixed(await ids({ previousBorrowers: true })).sort()).toEqual([fixed[1]?.id, fixed[2]?.id].sort());
  });

  it('filters states by code or full name in any case, zip codes and nearby zip codes', async () => {
    expect(onlyFixed(await ids({ state: ['ca'] }))).toEqual([fixed[0]?.id]);
    expect(onlyFixed(await ids({ state: ['New York', 'tx'] })).sort()).toEqual([fixed[1]?.id, fixed[2]?.id].sort());
    expect(onlyFixed(await ids({ state: ['CALIFORNIA'] }))).toEqual([fixed[0]?.id]);
    expect(await ids({ zipCode: ['78701'] })).toContain(fixed[2]?.id);
    expect(onlyFixed(await ids({ zipCode: ['78701', '10027'] })).sort()).toEqual([fixed[1]?.id, fixed[2]?.id].sort());
    // The sandbox investor's zip codes are 94103 and 10001: same three-digit prefix counts as nearby.
    expect(onlyFixed(await ids({ nearbyZipcodes: true })).sort()).toEqual([fixed[0]?.id, fixed[1]?.id].sort());
  });

  it('refuses a bad filter with a 400 that says what is wrong', async () => {
    const response = await rawGet('/api/v3/loan_requests/?state=Atlantis');
    expect(response).toEqual({ status: 400, body: { detail: 'state: "Atlantis" is not a US state code or name (e.g. CA or California)' } });
    expect(await rawGet('/api/v3/loan_requests/?completed_loans=1-x')).toEqual({
      status: 400,
      body: { detail: 'completed_loans: "1-x" is not a number or a range a-b (use e.g. 1,2,3 or 1-3 or 1,2,3-10)' },
    });
  });

  it('lists only requests created within the last 30 days', async () => {
    // A quiet market of its own, so a month passes quickly.
    const quiet = await startFixture();
    const request = quiet.sandbox.control.createLoanRequest({ competitorOffers: 0, decisionDelayMs: 20 * DAY });
    quiet.sandbox.control.advance(29 * DAY);
    expect((await quiet.client.listLoanRequests()).items.map((r) => r.id)).toEqual([request.id]);
    quiet.sandbox.control.advance(2 * DAY);
    expect((await quiet.client.listLoanRequests()).count).toBe(0);
    expect(quiet.sandbox.control.groundTruth(request.id).requestStatus).toBe('expired');
    await quiet.close();
  });
});

async function rawGet(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${fx.sandbox.url}${path}`, { headers: signedHeaders(fx.sandbox) });
  return { status: response.status, body: await response.json() };
}
