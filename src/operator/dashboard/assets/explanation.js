// The side panel of one decision (GET /api/decisions/:loanRequestId): what was decided and why,
// the score line by line (or why nothing was scored), the price with its curve drawn, the guard's
// verdict, the features, and the request and its borrower as readable tables.
import { getJson } from './api.js';
import { byTestId, definitions, fill, h } from './dom.js';
import { drawPriceCurve } from './price-curve.js';
import { decidedBy, money, percent, riskName, time, value } from './format.js';
import { readableRequest } from './request-table.js';

function section(title, testid, ...content) {
  return h('section', { class: 'panel-section', dataset: { testid } }, h('h3', {}, title), ...content);
}

// Stored with the features for the record; the Score section shows them line by line.
const NOT_FEATURES = new Set(['contributions']);

function keyValueTable(object, testid) {
  const entries = object && typeof object === 'object' ? Object.entries(object).filter(([name]) => !NOT_FEATURES.has(name)) : [];
  if (entries.length === 0) return h('p', { class: 'muted' }, 'None stored.');
  return h(
    'table',
    { class: 'data compact', dataset: { testid } },
    h(
      'tbody',
      {},
      entries.map(([name, v]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', { class: 'mono' }, value(v)))),
    ),
  );
}

// The pipeline's steps as a lender would name them.
const STEPS = { enrich: 'Gathering data', decide: 'Scoring and pricing', guard: 'Risk checks', act: 'Sending the offer' };

function stepNames(timings) {
  return Object.fromEntries(Object.entries(timings ?? {}).map(([step, ms]) => [STEPS[step] ?? step, ms]));
}

/** Why a decision has no score lines: a filter (or another rule) decided before the score. */
function notScored(decision) {
  if (decision.reason_codes.includes('filter_failed')) {
    return `Not scored: the request did not pass the strategy's filters, so it stopped before the score: ${decision.why}.`;
  }
  if (decision.action === 'skip') return `Not scored: the strategy stopped before the score: ${decision.why}.`;
  return 'This strategy prices without a score.';
}

function contributionsTable(contributions, decision) {
  if (contributions.length === 0) return h('p', { class: 'muted', dataset: { testid: 'explanation-not-scored' } }, notScored(decision));
  const total = contributions.reduce((sum, line) => sum + line.logOdds, 0);
  return h(
    'table',
    { class: 'data compact', dataset: { testid: 'explanation-contributions' } },
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'Term'), h('th', {}, 'Value'), h('th', { class: 'num' }, 'Points'), h('th', { class: 'num' }, 'Log-odds')),
    ),
    h(
      'tbody',
      {},
      contributions.map((line) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, line.name),
          h(
            'td',
            { class: 'mono' },
            value(line.value),
            line.missing ? h('span', { class: 'pill', title: "absent: the term's missing value was used" }, 'missing') : null,
          ),
          h('td', { class: 'num' }, value(line.points)),
          h('td', { class: `num ${line.logOdds >= 0 ? 'up' : 'down'}` }, line.logOdds.toFixed(3)),
        ),
      ),
    ),
    h(
      'tfoot',
      {},
      h('tr', {}, h('th', { scope: 'row', colspan: 3 }, 'Total log-odds of repayment'), h('td', { class: 'num' }, total.toFixed(3))),
    ),
  );
}

/** A stored reason in plain words (the API's), the machine text when it has none. */
function words(decision, reason) {
  const index = decision.reasons.indexOf(reason);
  return (index >= 0 && decision.reason_words?.[index]) || reason;
}

function guardText(guard, decision) {
  if (!guard.checked) return 'Not asked: the strategies did not offer.';
  if (guard.allowed) return 'Allowed the offer.';
  return `Refused: ${guard.reason ? words(decision, guard.reason) : 'no reason stored'}`;
}

/** The canvas the price curve is drawn on, once it is in the page. */
function priceCurveFigure() {
  return h(
    'figure',
    { class: 'chart', dataset: { testid: 'explanation-curve' } },
    h('figcaption', {}, 'Price curve: what each rate is worth before the borrower answers'),
    h(
      'div',
      { class: 'chart-box' },
      h('canvas', {
        dataset: { testid: 'explanation-curve-canvas' },
        'aria-label': 'Expected value, profit and chance of acceptance by rate; the chosen rate marked',
      }),
    ),
  );
}

/**
 * The price section's heading. A request the run skipped (the guard said no, or a paid source was
 * never bought) has no rate and no P(repay) of its own, yet the decide step run again may price
 * it: those figures are what the strategy would have asked, never offered, and the heading says
 * so, or the panel would show "Rate —" above "Rate 78.6 %" for one decision.
 */
function priceTitle(decision, explanation) {
  if (decision.rate !== null || explanation.price.rate === null) return 'Price';
  return 'Price it would have asked (recomputed now; nothing was offered)';
}

function render(answer) {
  const { decision, explanation, request } = answer;
  const headline = decision.action === 'offer' ? `offer at ${percent(decision.rate)}` : 'skip';
  byTestId('explanation-title').textContent = `Request #${decision.loan_request_id}: ${headline}`;
  // The answer repeats the explanation's notes: each said once.
  const notes = [...new Set([...answer.notes, ...(explanation ? explanation.notes : [])])];
  fill(
    byTestId('explanation-body'),
    definitions(
      [
        ['Decided', time(decision.decided_at)],
        ['By', decidedBy(decision)],
        ['Amount', money(decision.amount_cents)],
        ['Risk level', riskName(decision.risk_level)],
        ['Rate', percent(decision.rate)],
        ['P(repay)', percent(decision.probability)],
        ['Offer', decision.offer_state ?? decision.placement ?? 'none'],
      ],
      { dataset: { testid: 'explanation-summary' } },
    ),
    // Plain words; the stored machine text (what the search box and the logs use) on hover.
    section(
      'Reasons',
      'explanation-reasons',
      decision.reasons.length > 0
        ? h(
            'ul',
            {},
            decision.reasons.map((reason) => h('li', { title: reason }, words(decision, reason))),
          )
        : h('p', { class: 'muted' }, 'None given.'),
    ),
    explanation
      ? [
          section('Score', 'explanation-score', contributionsTable(explanation.contributions, decision)),
          section(
            priceTitle(decision, explanation),
            'explanation-price',
            definitions([
              ['Rate', percent(explanation.price.rate)],
              ['P(repay)', percent(explanation.price.probability)],
              ['Expected return', percent(explanation.price.expectedReturn)],
              ['Break-even rate', percent(explanation.price.requiredRate)],
            ]),
            explanation.price.curvePoints ? priceCurveFigure() : null,
          ),
          section('Guard', 'explanation-guard', h('p', { title: explanation.guard.reason ?? '' }, guardText(explanation.guard, decision))),
          explanation.matchesStored
            ? null
            : h(
                'p',
                { class: 'warning' },
                `Recomputed now, ${explanation.recomputed.strategy} would ${explanation.recomputed.action}${explanation.recomputed.rate === null ? '' : ` at ${percent(explanation.recomputed.rate)}`}: not what was stored.`,
              ),
        ]
      : section(
          'Guard',
          'explanation-guard',
          h('p', {}, decision.guard_code ? `Refused (${decision.guard_code}).` : 'No explanation could be recomputed.'),
        ),
    notes.length > 0
      ? section(
          'Notes',
          'explanation-notes',
          h(
            'ul',
            {},
            notes.map((note) => h('li', {}, note)),
          ),
        )
      : null,
    section('Features', 'explanation-features', keyValueTable(decision.features, 'explanation-features-table')),
    readableRequest(request, section),
    section('Time taken (ms)', 'explanation-timings', keyValueTable(stepNames(decision.timings), 'explanation-timings-table')),
  );
  drawPriceCurve(explanation ? explanation.price.curvePoints : null, { offered: decision.rate !== null });
}

export function createExplanation() {
  const panel = byTestId('explanation-panel');
  const close = byTestId('explanation-close');
  let opener = null;
  let shown = 0;

  const hide = () => {
    panel.hidden = true;
    shown += 1;
    if (opener && document.contains(opener)) opener.focus({ preventScroll: true });
  };
  close.addEventListener('click', hide);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !panel.hidden) hide();
  });

  /** Opens the panel on one request's decision. */
  const open = async (loanRequestId) => {
    const mine = ++shown;
    opener = document.activeElement;
    panel.hidden = false;
    byTestId('explanation-title').textContent = `Request #${loanRequestId}`;
    fill(byTestId('explanation-body'), h('p', { class: 'muted' }, 'Loading…'));
    close.focus();
    try {
      const answer = await getJson(`/api/decisions/${encodeURIComponent(loanRequestId)}`);
      if (mine === shown) render(answer);
    } catch (error) {
      if (mine === shown) fill(byTestId('explanation-body'), h('p', { class: 'warning' }, `Could not load the decision: ${error.message}`));
    }
  };
  return { open };
}
