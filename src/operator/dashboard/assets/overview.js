// The overview cards: money, exposure and today's offers against their caps, data spend against
// budgets, protections and the kill switch, and how fresh the daemon's view of the market is.
import { byTestId, definitions, fill, h } from './dom.js';
import { age, count, money, percent, riskName, time } from './format.js';
import { paperBookCard } from './paper-book.js';

/** A thin bar of used / cap; full and red when over. */
function bar(used, cap) {
  if (typeof cap !== 'number' || cap <= 0) return null;
  const share = used / cap;
  const fillElement = h('span');
  // Set through the CSSOM: the page's policy forbids inline style attributes.
  fillElement.style.width = `${Math.min(100, Math.max(0, share * 100)).toFixed(1)}%`;
  return h('div', { class: share >= 1 ? 'bar over' : share >= 0.8 ? 'bar near' : 'bar', role: 'img', 'aria-label': `${percent(share, 0)} of the cap` }, fillElement);
}

/** "$1.00 of $5.00" or "$1.00 (no cap)". */
function against(used, cap, format = money) {
  return typeof cap === 'number' ? `${format(used)} of ${format(cap)}` : `${format(used)} (no cap)`;
}

function card(testid, title, ...body) {
  return h('article', { class: 'card', dataset: { testid } }, h('h3', {}, title), ...body);
}

function exposureCard(status, limits) {
  const levels = new Set([...Object.keys(status.exposure.byRiskLevelCents), ...Object.keys(limits.maxExposureByRiskLevelCents)]);
  const rows = [...levels].sort().map((level) => {
    const used = status.exposure.byRiskLevelCents[level] ?? 0;
    const cap = limits.maxExposureByRiskLevelCents[level];
    return h('li', { dataset: { testid: `exposure-level-${level}` } }, h('span', { class: 'label' }, `Risk ${riskName(level)}`), h('span', { class: 'figure' }, against(used, cap)), bar(used, cap));
  });
  return card(
    'card-exposure',
    'Exposure',
    h('p', { class: 'big' }, money(status.exposure.totalCents)),
    h('p', { class: 'sub' }, typeof status.exposure.maxCents === 'number' ? `of ${money(status.exposure.maxCents)} open at most` : 'no cap on open exposure'),
    bar(status.exposure.totalCents, status.exposure.maxCents),
    rows.length > 0 ? h('ul', { class: 'levels' }, rows) : h('p', { class: 'sub' }, 'Nothing lent yet.'),
  );
}

function offersTodayCard(status) {
  const today = status.offersToday;
  return card(
    'card-offers-today',
    'Offers today',
    h('p', { class: 'big' }, typeof today.maxOffers === 'number' ? `${count(today.offers)} of ${count(today.maxOffers)}` : count(today.offers)),
    bar(today.offers, today.maxOffers),
    h('p', { class: 'sub' }, against(today.amountCents, today.maxAmountCents)),
    bar(today.amountCents, today.maxAmountCents),
    h('p', { class: 'sub' }, `Decisions today: ${count(status.decisionsToday.offer)} offers, ${count(status.decisionsToday.skip)} skips`),
  );
}

function dataSpendCard(status) {
  const spend = status.dataSpend;
  return card(
    'card-data-spend',
    'Data spend this month',
    h('p', { class: 'big' }, money(spend.spentCents)),
    h('p', { class: 'sub' }, `since ${spend.monthStart.slice(0, 10)}`),
    h(
      'ul',
      { class: 'levels' },
      spend.budgets.map((budget) =>
        h('li', {}, h('span', { class: 'label' }, budget.strategy), h('span', { class: 'figure' }, against(budget.spentCents, budget.monthlyBudgetCents)), bar(budget.spentCents, budget.monthlyBudgetCents)),
      ),
    ),
  );
}

function protectionsCard(status) {
  const pause = status.pause;
  const warnings = [];
  if (status.webhooksSilent) warnings.push(`No webhook since ${time(status.webhooksSilent.since)} while polls found ${count(status.webhooksSilent.polledRequests)} requests: check the subscription.`);
  if (status.webhookRefusals) warnings.push(status.webhookRefusals.warning);
  return card(
    'card-protections',
    'Protections',
    definitions([
      ['New offers', pause ? h('span', { class: 'state-bad' }, `paused (${pause.kind})`) : h('span', { class: 'state-good' }, 'allowed')],
      ...(pause ? [['Why', pause.reason], ['Since', time(pause.since)], ['Until', pause.until ? time(pause.until) : 'resumed by hand']] : []),
      ['Kill switch', status.killSwitch.on ? h('span', { class: 'state-bad' }, `on: ${status.killSwitch.why ?? ''}`) : h('span', { class: 'state-good' }, 'off')],
    ]),
    warnings.map((text) => h('p', { class: 'warning' }, text)),
  );
}

function activityCard(overview) {
  const { status } = overview;
  const loans = Object.entries(status.loansByStatus).map(([list, n]) => `${count(n)} ${list}`).join(', ') || 'none';
  return card(
    'card-activity',
    'Activity',
    definitions([
      ['Last poll', status.lastPoll.at ? `${age(status.lastPoll.ageSeconds)} (${time(status.lastPoll.at)})` : 'never'],
      ['Last webhook', overview.lastWebhook ? `${age(overview.lastWebhook.ageSeconds)} (${time(overview.lastWebhook.at)})` : 'never'],
      ['Inbox', `${count(status.inboxDepth)} waiting`],
      ['Loans', loans],
      ['Payments', `${count(status.payments.paid)} of ${count(status.payments.payments)} paid (${money(status.payments.paidCents)}), ${count(status.payments.late)} late, ${count(status.payments.missed)} missed`],
      ['Strategies', overview.strategies.join(', ') || 'none'],
    ]),
  );
}

/** Draws the cards from GET /api/overview. */
export function renderOverview(overview) {
  const { status, limits } = overview;
  const mode = byTestId('mode-badge');
  mode.textContent = overview.mode === 'sandbox' ? 'sandbox: no real money' : 'live';
  mode.className = overview.mode === 'sandbox' ? 'badge badge-sandbox' : 'badge badge-live';
  mode.hidden = false;
  byTestId('dry-run-badge').hidden = !overview.dryRun;
  byTestId('overview-at').textContent = `as of ${time(status.at)}${overview.mode === 'sandbox' || (status.clock && status.clock.kind === 'simulated') ? ' (simulated clock)' : ''}`;
  fill(
    byTestId('overview-cards'),
    card(
      'card-balance',
      'Balance',
      h('p', { class: 'big', dataset: { testid: 'balance' } }, money(status.balanceCents)),
      definitions([
        ['Reserved by open offers', h('span', { dataset: { testid: 'reserved' } }, money(status.reservedCents))],
        ['Cash reserve kept', money(status.minCashReserveCents)],
        ['Free for new offers', h('strong', { dataset: { testid: 'free-cash' } }, money(status.freeCents))],
      ]),
    ),
    exposureCard(status, limits),
    offersTodayCard(status),
    dataSpendCard(status),
    protectionsCard(status),
    activityCard(overview),
    paperBookCard(status),
  );
}
