/**
 * What the operator API shows, over real HTTP to a daemon trading on the sandbox: decisions
 * newest first a page at a time and filtered, one decision's explanation, pause and resume
 * through the API, offers, loans and returns checked against the store.
 */
import { storedReason } from '../../src/store/reason-texts-to-values.js';
import { skipReasonWords } from '../../src/log/human-reasons.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DecisionAnswer,
  DecisionsAnswer,
  LoansAnswer,
  OffersAnswer,
  OverviewAnswer,
  ReturnsAnswer,
} from '../../src/operator/api/api-types.js';
import { parseCents, type LoanRequest } from '../../src/domain/index.js';
import { DAY, HOUR } from '../sandbox/sandbox-fixture.js';
import { startApiHarness, type ApiHarness } from './api-harness.js';

let h: ApiHarness;
/** Requests decided before the tests start: offers on these, a skip on `unpriceable`. */
let offered: LoanRequest[];
let unpriceable: LoanRequest;

beforeAll(async () => {
  h = await startApiHarness();
  const fates = [
    { repayProbability: 1, missedMonth: null, lateDays: [] },
    { repayProbability: 1, missedMonth: null, lateDays: [] },
    { repayProbability: 0, missedMonth: 1, lateDays: [] },
  ];
  offered = fates.map((fate, index) =>
    h.makeRequest({ svcColor: index === 2 ? 2 : 1, decisionDelayMs: HOUR, loanTerms: 3, loanAmountCents: 100_000, ...fate }),
  );
  // Cannot be priced under its maximum rate: a skip.
  unpriceable = h.makeRequest({ maxInterestRate: 0.03 });
  await h.daemon.runJob('poll');
  // Accepted, funded, and then three months of payments (one loan misses its first and defaults).
  for (let day = 0; day < 100; day += 10) {
    h.sandbox.control.advance(10 * DAY);
    await h.daemon.runJob('sync');
  }
  await h.daemon.runJob('sync');
  // The transfer history is read by the balance refresh.
  await h.daemon.runJob('balance');
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const get = async <T>(path: string): Promise<T> => {
  const response = await h.call(path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
};

describe('the operator API', () => {
  it('lists decisions newest first with amount, risk level and offer state, a page at a time', async () => {
    const all = await get<DecisionsAnswer>('/api/decisions');
    expect(all.decisions).toHaveLength(4);
    expect(all.nextBefore).toBeNull();
    const stored = h.store.decisions.list({ order: 'desc' });
    expect(all.decisions.map((row) => row.loan_request_id)).toEqual(stored.map((row) => row.loanRequestId));
    const first = all.decisions.find((row) => row.loan_request_id === offered[0]!.id);
    expect(first).toMatchObject({
      action: 'offer',
      strategy: 'offer-all',
      amount_cents: parseCents(offered[0]!.total_amount),
      risk_level: 1,
      source: 'strategies',
      dry_run: false,
    });
    expect(first?.offer_state).toBe('funded');

    const pageOne = await get<DecisionsAnswer>('/api/decisions?limit=3');
    expect(pageOne.decisions).toHaveLength(3);
    expect(pageOne.nextBefore).toBe(pageOne.decisions[2]!.id);
    const pageTwo = await get<DecisionsAnswer>(`/api/decisions?limit=3&before=${pageOne.nextBefore}`);
    expect(pageTwo.decisions.map((row) => row.id)).toEqual([all.decisions[3]!.id]);
    expect(pageTwo.nextBefore).toBeNull();
  });

  it('filters decisions by action, strategy and text, and refuses a bad query', async () => {
    const skips = await get<DecisionsAnswer>('/api/decisions?action=skip');
    expect(skips.decisions.map((row) => row.loan_request_id)).toEqual([unpriceable.id]);
    const offers = await get<DecisionsAnswer>('/api/decisions?action=offer&strategy=offer-all');
    expect(offers.decisions.map((row) => row.loan_request_id).sort()).toEqual(offered.map((request) => request.id).sort());
    expect((await get<DecisionsAnswer>('/api/decisions?strategy=nope')).decisions).toEqual([]);
    const byId = await get<DecisionsAnswer>(`/api/decisions?q=${offered[1]!.id}`);
    expect(byId.decisions.map((row) => row.loan_request_id)).toEqual([offered[1]!.id]);
    const reason = skips.decisions[0]!.reasons[0]!;
    // The decisive reason in plain words, as the terminal says it.
    expect(skips.decisions[0]!.why).toBe(skipReasonWords(skips.decisions[0]!.reasons.map(storedReason)));
    expect(skips.decisions[0]!.why).not.toBe('');
    expect(offers.decisions[0]!.why).toBe('offered');
    const byReason = await get<DecisionsAnswer>(`/api/decisions?q=${encodeURIComponent(reason.slice(0, 12))}`);
    expect(byReason.decisions.map((row) => row.loan_request_id)).toContain(unpriceable.id);
    const bad = await h.call('/api/decisions?action=maybe');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^action: /);
    expect((await h.call('/api/decisions?before=999999')).status).toBe(400);
  });

  it('explains one decision from what was stored: contributions, price and the guard', async () => {
    const answer = await get<DecisionAnswer>(`/api/decisions/${offered[0]!.id}`);
    const stored = h.store.decisions.get(offered[0]!.id)!;
    expect(answer.decision).toMatchObject({
      loan_request_id: offered[0]!.id,
      action: 'offer',
      rate: stored.rate,
      features: stored.features,
      content_hash: stored.contentHash,
    });
    expect(answer.request).toMatchObject({ id: offered[0]!.id });
    const explanation = answer.explanation!;
    expect(explanation.matchesStored).toBe(true);
    expect(explanation.price.rate).toBeCloseTo(stored.rate!, 9);
    expect(explanation.contributions.map((line) => line.name)).toEqual(['logistic.intercept', 'completed_loans']);
    expect(explanation.guard).toEqual({ checked: true, allowed: true, code: null, reason: null });

    const skip = await get<DecisionAnswer>(`/api/decisions/${unpriceable.id}`);
    expect(skip.decision.action).toBe('skip');
    // Each stored reason's code beside its text (what the dashboard reads instead of the text).
    expect(skip.decision.reason_codes).toEqual(skip.decision.reasons.map((reason) => storedReason(reason).code));
    expect(skip.decision.reason_codes).not.toContain('other');
    expect(skip.explanation?.matchesStored).toBe(true);
    expect(skip.explanation?.recomputed.action).toBe('skip');
    expect((await h.call('/api/decisions/424242')).status).toBe(404);
  });

  it('shows the offers and the loans with their payments, as the store has them', async () => {
    const { offers } = await get<OffersAnswer>('/api/offers');
    expect(offers.map((offer) => offer.loanRequestId)).toEqual(offered.map((request) => request.id).reverse());
    expect(offers.every((offer) => offer.state === 'funded')).toBe(true);
    expect((await get<OffersAnswer>('/api/offers?state=expired')).offers).toEqual([]);
    const { loans } = await get<LoansAnswer>('/api/loans');
    expect(loans).toHaveLength(3);
    const bad = loans.find((loan) => loan.loanRequestId === offered[2]!.id)!;
    expect(['collection', 'default']).toContain(bad.listStatus);
    expect(bad.payments.missed).toBeGreaterThan(0);
    const good = loans.find((loan) => loan.loanRequestId === offered[0]!.id)!;
    expect(good.payments).toMatchObject({ payments: 3, paid: 3 });
    expect(good.originatedAt).not.toBeNull();
  });

  it("computes returns that agree with the store's transfers and loans", async () => {
    const returns = await get<ReturnsAnswer>('/api/returns');
    // Recomputed here from the stored transfers: per loan, what went out and what came back.
    const perLoan = new Map<number, { out: number; back: number }>();
    let cash = 0;
    for (const group of h.store.account.transferGroups()) {
      for (const transfer of group.transactions) {
        const cents = parseCents(transfer.transfer_amount);
        const status = transfer.transfer_status.toLowerCase();
        if (status === 'failed' || (status !== 'processed' && cents > 0)) continue;
        cash += cents;
        if (transfer.loan_id === null || transfer.loan_id === undefined) continue;
        const loan = perLoan.get(transfer.loan_id) ?? { out: 0, back: 0 };
        if (cents < 0) loan.out -= cents;
        else loan.back += cents;
        perLoan.set(transfer.loan_id, loan);
      }
    }
    const loans = h.store.account.loans();
    const badIds = new Set(
      loans.filter((loan) => loan.listStatus === 'collection' || loan.listStatus === 'default').map((loan) => loan.id),
    );
    expect(badIds.size).toBe(1);
    let interest = 0;
    let losses = 0;
    let outstanding = 0;
    for (const [loanId, { out, back }] of perLoan) {
      interest += Math.max(0, back - out);
      if (badIds.has(loanId)) losses += Math.max(0, out - back);
      else outstanding += Math.max(0, out - back);
    }
    expect(interest).toBeGreaterThan(0);
    expect(losses).toBeGreaterThan(0);
    expect(returns.totals).toMatchObject({
      equityCents: cash + outstanding,
      cashCents: cash,
      expectedLossCents: 0,
      interestCents: interest,
      lossesCents: losses,
    });
    expect(returns.interest.at(-1)?.cents).toBe(interest);
    expect(returns.losses.at(-1)?.cents).toBe(losses);
    expect(returns.equity.at(-1)?.equityCents).toBe(cash + outstanding);
    // Oldest first, one point a day.
    const days = returns.equity.map((point) => point.at);
    expect([...days].sort()).toEqual(days);
    expect(new Set(days).size).toBe(days.length);

    expect(returns.defaultRates.byRiskLevel).toEqual([
      { riskLevel: 1, loans: 2, defaults: 0, rate: 0 },
      { riskLevel: 2, loans: 1, defaults: 1, rate: 1 },
    ]);
    const months = returns.defaultRates.byOriginationMonth;
    expect(months.reduce((sum, month) => sum + month.loans, 0)).toBe(3);
    expect(months.reduce((sum, month) => sum + month.defaults, 0)).toBe(1);
    expect(months.every((month) => /^\d{4}-\d{2}$/.test(month.month))).toBe(true);
  });

  it('pauses offers through the API and resumes them', async () => {
    const paused = await h.asOperator('/api/pause', { method: 'POST', body: JSON.stringify({ reason: 'market looks odd' }) });
    expect(paused.status).toBe(200);
    const pause = ((await paused.json()) as { pause: { kind: string; reason: string; until: string | null } }).pause;
    expect(pause).toMatchObject({ kind: 'operator', until: null });
    expect(pause.reason).toContain('market looks odd');
    const overview = await get<OverviewAnswer>('/api/overview');
    expect(overview.status.pause?.kind).toBe('operator');

    const duringPause = h.makeRequest();
    await h.daemon.runJob('poll');
    const skipped = h.store.decisions.get(duringPause.id);
    expect(skipped).toMatchObject({ action: 'skip', guardCode: 'paused' });
    expect(h.sandbox.control.offers().filter((offer) => offer.loan_request?.id === duringPause.id)).toEqual([]);

    const resumed = await h.asOperator('/api/resume', { method: 'POST', body: '{}' });
    expect(await resumed.json()).toEqual({ pause: null });
    expect((await get<OverviewAnswer>('/api/overview')).status.pause).toBeNull();
    const afterResume = h.makeRequest();
    await h.daemon.runJob('poll');
    expect(h.store.decisions.get(afterResume.id)?.action).toBe('offer');
  });
});
