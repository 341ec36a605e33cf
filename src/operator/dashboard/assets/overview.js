// The overview cards: money, exposure, the last 24 hours' offers and today's caps, data spend
// against budgets, protections and the kill switch, and how fresh the daemon's view of the market
// is; and the one clock every time on the page is in, named in the top bar.
import { byTestId, definitions, fill, h } from './dom.js';
import { ageOnClock, clockLabel, count, counted, money, percent, riskName, setPageClock, time } from './format.js';
import { paperBookCard } from './paper-book.js';

/** A thin bar of used / cap; full and red when over. */
function bar(used, cap) {
  if (typeof cap !== 'number' || cap <= 0) return null;
  const share = used / cap;
  const fillElement = h('span');
  // Set through the CSSOM: the page's policy forbids inline style attributes.
  fillElement.style.width = `${Math.min(100, Math.max(0, share * 100)).toFixed(1)}%`;
  return h(
    'div',
    { class: share >= 1 ? 'bar over' : share >= 0.8 ? 'bar near' : 'bar', role: 'img', 'aria-label': `${percent(share, 0)} of the cap` },
    fillElement,
  );
}

/** "$1.00 of $5.00", "none yet of $5.00", "$1.00 (no cap)"; a cap of nothing says so instead of "$0.00 of $0.00". */
function against(used, cap, format = money) {
  if (typeof cap !== 'number') return used === 0 ? 'none yet (no cap)' : `${format(used)} (no cap)`;
  if (cap === 0 && used === 0) return 'none: the cap is 0';
  return used === 0 ? `none yet of ${format(cap)}` : `${format(used)} of ${format(cap)}`;
}

function card(testid, title, ...body) {
  return h('article', { class: 'card', dataset: { testid } }, h('h3', {}, title), ...body);
}

function exposureCard(status, limits) {
  const levels = new Set([...Object.keys(status.exposure.byRiskLevelCents), ...Object.keys(limits.maxExposureByRiskLevelCents)]);
  const rows = [...levels].sort().map((level) => {
    const used = status.exposure.byRiskLevelCents[level] ?? 0;
    const cap = limits.maxExposureByRiskLevelCents[level];
    return h(
      'li',
      { dataset: { testid: `exposure-level-${level}` } },
      h('span', { class: 'label' }, `Risk ${riskName(level)}`),
      h('span', { class: 'figure' }, against(used, cap)),
      bar(used, cap),
    );
  });
  return card(
    'card-exposure',
    'Exposure',
    h('p', { class: 'big' }, money(status.exposure.totalCents)),
    h(
      'p',
      { class: 'sub' },
      typeof status.exposure.maxCents === 'number'
        ? `of ${money(status.exposure.maxCents)} open at most${shareOfCapital(status.exposure.maxShare, status.capitalCents)}`
        : 'no cap on open exposure',
    ),
    bar(status.exposure.totalCents, status.exposure.maxCents),
    // Not a second figure for the money: it is what could be lost, counted the cautious way.
    h(
      'p',
      { class: 'sub', dataset: { testid: 'exposure-means' } },
      "What is at stake: open offers' totals and what borrowers still owe on loans, interest not yet earned included (so it can be above equity).",
    ),
    rows.length > 0 ? h('ul', { class: 'levels' }, rows) : h('p', { class: 'sub' }, 'Nothing lent yet.'),
  );
}

// A cap set as a share of the capital grows with the account: say so, with the capital itself
// (balance plus what borrowers still owe, unearned interest included), as `lendbot status` does:
// it is neither the equity nor cash + loans out, so without it the cap's base could not be checked.
function shareOfCapital(share, capitalCents) {
  if (typeof share !== 'number') return '';
  const capital = typeof capitalCents === 'number' ? `, ${money(capitalCents)}` : '';
  return ` (${Math.round(share * 1000) / 10} % of the capital${capital})`;
}

// Counts over the last 24 hours of the run's clock: in the sandbox a UTC day passes in about a
// second, so "today" would read 0 most of the time. The caps still count the UTC day, as the guard does.
function offersCard(overview) {
  const { status, last24h } = overview;
  const today = status.offersToday;
  return card(
    'card-offers-today',
    'Offers, last 24 hours',
    h('p', { class: 'big', dataset: { testid: 'offers-24h' } }, count(last24h.offer)),
    h(
      'p',
      { class: 'sub', dataset: { testid: 'skips-24h' } },
      `${counted(last24h.skip, 'request')} skipped in the same 24 hours of the run's clock`,
    ),
    h(
      'p',
      { class: 'sub' },
      `Today's caps (UTC day): ${typeof today.maxOffers === 'number' ? `${count(today.offers)} of ${counted(today.maxOffers, 'offer')}` : `${counted(today.offers, 'offer')} (no cap)`}`,
    ),
    bar(today.offers, today.maxOffers),
    h('p', { class: 'sub' }, against(today.amountCents, today.maxAmountCents)),
    bar(today.amountCents, today.maxAmountCents),
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
        h(
          'li',
          {},
          h('span', { class: 'label' }, budget.strategy),
          h(
            'span',
            { class: 'figure' },
            budget.monthlyBudgetCents === 0 && budget.spentCents === 0
              ? 'buys no paid data'
              : against(budget.spentCents, budget.monthlyBudgetCents),
          ),
          bar(budget.spentCents, budget.monthlyBudgetCents),
        ),
      ),
    ),
  );
}

function protectionsCard(status) {
  const pause = status.pause;
  const warnings = [];
  if (status.webhooksSilent)
    warnings.push(
      `No webhook since ${time(status.webhooksSilent.since)} while polls found ${counted(status.webhooksSilent.polledRequests, 'request')}: check the subscription.`,
    );
  if (status.webhookRefusals) warnings.push(status.webhookRefusals.warning);
  return card(
    'card-protections',
    'Protections',
    definitions([
      ['New offers', pause ? h('span', { class: 'state-bad' }, `paused (${pause.kind})`) : h('span', { class: 'state-good' }, 'allowed')],
      ...(pause
        ? [
            ['Why', pause.reason],
            ['Since', time(pause.since)],
            ['Until', pause.until ? time(pause.until) : 'resumed by hand'],
          ]
        : []),
      [
        'Kill switch',
        status.killSwitch.on
          ? h('span', { class: 'state-bad' }, `on: ${status.killSwitch.why ?? ''}`)
          : h('span', { class: 'state-good' }, 'off'),
      ],
    ]),
    warnings.map((text) => h('p', { class: 'warning' }, text)),
  );
}

function activityCard(overview) {
  const { status } = overview;
  const loans =
    Object.entries(status.loansByStatus)
      .map(([list, n]) => `${count(n)} ${list}`)
      .join(', ') || 'none yet';
  return card(
    'card-activity',
    'Activity',
    definitions([
      [
        'Last poll',
        status.lastPoll.at
          ? h(
              'span',
              { dataset: { testid: 'last-poll' }, title: time(status.lastPoll.at) },
              ageOnClock(status.lastPoll.ageSeconds, status.clock),
            )
          : 'never',
      ],
      [
        'Last webhook',
        overview.lastWebhook
          ? h('span', { title: time(overview.lastWebhook.at) }, ageOnClock(overview.lastWebhook.ageSeconds, status.clock))
          : 'never',
      ],
      ['Waiting to be decided', status.inboxDepth === 0 ? 'nothing' : counted(status.inboxDepth, 'marketplace event')],
      ['Loans', loans],
      [
        'Payments',
        status.payments.payments === 0
          ? 'none yet'
          : `${count(status.payments.paid)} of ${counted(status.payments.payments, 'payment')} paid (${money(status.payments.paidCents)}), ${count(status.payments.late)} late, ${count(status.payments.missed)} missed`,
      ],
      ['Strategies', overview.strategies.join(', ') || 'none'],
      ...unfittedMarketRows(status),
      ...retrainRows(status),
    ]),
  );
}

/** The last retraining round, its decision and the next look, once a round has run (docs/training.md). */
function retrainRows(status) {
  const retrain = status.retrain;
  if (!retrain) return [];
  const { last } = retrain;
  const next = retrain.nextAt ? `; next look ${time(retrain.nextAt)}` : '';
  return [
    [
      'Retraining',
      h('span', { dataset: { testid: 'retrain-last' } }, `round #${last.id} of ${last.strategy}: ${last.decision}, ${last.reason}${next}`),
    ],
  ];
}

/** A row naming the strategies that price against the unfitted default market, when any do. */
function unfittedMarketRows(status) {
  const names = status.dataSpend.budgets.filter((budget) => budget.marketSource === 'default').map((budget) => budget.strategy);
  return names.length === 0 ? [] : [['Market', `${names.join(', ')}: prices with the unfitted default market; fit one with lendbot train`]];
}

/**
 * The money card leads with equity, what the account is worth (cash + the principal still out on
 * loans − the loss expected on late loans: the returns section's figure), in large type; then
 * the cash and what of it is free. Before the first equity is worked out, the cash leads.
 */
function moneyCard(status) {
  const equity = status.equity;
  const cashRows = [
    ['Cash in the account', h('span', { dataset: { testid: 'balance' } }, money(status.balanceCents))],
    ['Reserved by open offers', h('span', { dataset: { testid: 'reserved' } }, money(status.reservedCents))],
    ['Cash reserve kept', money(status.minCashReserveCents)],
    ['Free for new offers', h('strong', { dataset: { testid: 'free-cash' } }, money(status.freeCents))],
  ];
  if (!equity) return card('card-balance', 'Your money', h('p', { class: 'sub' }, 'Equity not worked out yet.'), definitions(cashRows));
  return card(
    'card-balance',
    'Your money',
    h('p', { class: 'big', dataset: { testid: 'equity' } }, money(equity.equityCents)),
    h(
      'p',
      { class: 'sub', dataset: { testid: 'equity-parts' } },
      `Equity, what the account is worth: cash ${money(equity.cashCents)} + loans out ${money(equity.outstandingCents)} − expected losses ${money(equity.expectedLossCents)}`,
    ),
    definitions([...cashRows, ['Interest earned', h('span', { dataset: { testid: 'equity-interest' } }, money(equity.interestCents))]]),
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
  byTestId('overview-at').textContent = `as of ${time(status.at)}`;
  byTestId('run-clock').textContent = clockLabel(status.clock);
  setPageClock(status.clock, status.at);
  fill(
    byTestId('overview-cards'),
    moneyCard(status),
    exposureCard(status, limits),
    offersCard(overview),
    dataSpendCard(status),
    protectionsCard(status),
    activityCard(overview),
    paperBookCard(status),
  );
}
