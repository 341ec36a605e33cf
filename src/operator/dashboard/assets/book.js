// The book: offers with their states as every surface shows them (filtered by state) and loans with their payments.
import { getJson } from './api.js';
import { byTestId, fill, h } from './dom.js';
import { count, money, percent, riskName, time } from './format.js';

function offerRow(offer) {
  return h(
    'tr',
    { dataset: { testid: 'offer-row', state: offer.state, requestId: String(offer.loanRequestId), reserving: String(offer.reserving) } },
    h('td', {}, time(offer.createdAt)),
    h('td', {}, offer.serviceOfferId === null ? '—' : `#${offer.serviceOfferId}`),
    h('td', {}, `#${offer.loanRequestId}`),
    h(
      'td',
      {},
      h('span', { class: `pill pill-state-${offer.state}` }, offer.state),
      offer.dryRun ? h('span', { class: 'pill' }, 'dry') : null,
      offer.reserving ? h('span', { class: 'pill', title: 'holds its amount back from new offers' }, 'reserving') : null,
    ),
    h('td', { class: 'num' }, money(offer.totalAmountCents)),
    h('td', { class: 'num' }, percent(offer.rate)),
    h('td', {}, riskName(offer.riskLevel)),
    h('td', {}, time(offer.updatedAt)),
    h('td', { class: 'why' }, offer.serviceText ?? ''),
  );
}

function loanRow(loan) {
  const p = loan.payments;
  return h(
    'tr',
    { dataset: { testid: 'loan-row', list: loan.listStatus } },
    h('td', {}, `#${loan.id}`),
    h('td', {}, loan.loanRequestId === null ? '—' : `#${loan.loanRequestId}`),
    h(
      'td',
      {},
      h('span', { class: `pill pill-list-${loan.listStatus}` }, loan.listStatus),
      loan.paidOff ? h('span', { class: 'pill' }, 'paid off') : null,
    ),
    h('td', {}, riskName(loan.riskLevel)),
    h('td', { class: 'num' }, money(loan.loanAmountCents)),
    h('td', { class: 'num' }, money(loan.remainingCents)),
    h('td', { class: 'num' }, percent(loan.interestRate)),
    h('td', {}, time(loan.originatedAt)),
    h('td', { class: 'num' }, `${count(p.paid)} / ${count(p.payments)}`),
    h('td', { class: 'num' }, count(p.late)),
    h('td', { class: 'num' }, count(p.missed)),
    h('td', { class: 'num' }, money(p.paidCents)),
  );
}

export function createBook() {
  const stateFilter = byTestId('filter-offer-state');

  const refreshOffers = async () => {
    const answer = await getJson('/api/offers', { state: stateFilter.value });
    fill(byTestId('offers-table').querySelector('tbody'), answer.offers.map(offerRow));
    byTestId('offers-empty').hidden = answer.offers.length > 0;
  };

  const refreshLoans = async () => {
    const answer = await getJson('/api/loans');
    fill(byTestId('loans-table').querySelector('tbody'), answer.loans.map(loanRow));
    byTestId('loans-empty').hidden = answer.loans.length > 0;
  };

  stateFilter.addEventListener('change', () => void refreshOffers().catch(() => undefined));
  return { refresh: () => Promise.all([refreshOffers(), refreshLoans()]) };
}
