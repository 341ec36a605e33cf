// Calibration in detail: each strategy's months, with how old their loans are and what the
// prediction expects by that age (a young month reads "too early": its loans have had little
// time to go bad), and the early evidence, the instalments by month of loan age with the share
// missed against what the predictions expect. Both from GET /api/calibration, as lendbot status.
import { byTestId, fill, h } from './dom.js';
import { count, percent } from './format.js';

const share = (value) => (value === null ? '–' : percent(value));
const range = (low, high) => (low === null ? '–' : `${percent(low)} to ${percent(high)}`);
const months = (value) => (value === null ? '–' : `${value.toFixed(1)} mo`);

function strategyRow(strategy, r, pooled) {
  const reading = r.reading === 'above expected' ? h('span', { class: 'state-bad' }, r.reading) : r.reading;
  return h(
    'tr',
    { dataset: { testid: `calibration-strategy-${strategy}-${r.vintage}` }, class: pooled ? 'total' : '' },
    h('td', {}, strategy),
    h('td', {}, pooled ? 'All months shown' : r.vintage),
    h('td', { class: 'num' }, count(r.loans)),
    h('td', { class: 'num' }, months(r.age_months)),
    h('td', { class: 'num' }, share(r.predicted_default)),
    h('td', { class: 'num' }, share(r.expected_by_now)),
    h('td', { class: 'num' }, share(r.realised_default)),
    h('td', { class: 'num' }, range(r.realised_low, r.realised_high)),
    h('td', {}, reading),
  );
}

function hazardRow(r) {
  return h(
    'tr',
    { dataset: { testid: `hazard-${r.age_month}` } },
    h('td', {}, `month ${r.age_month}`),
    h('td', { class: 'num' }, count(r.due)),
    h('td', { class: 'num' }, count(r.late)),
    h('td', { class: 'num' }, count(r.missed)),
    h('td', { class: 'num' }, share(r.hazard)),
    h('td', { class: 'num' }, range(r.hazard_low, r.hazard_high)),
    h('td', { class: 'num' }, share(r.expected_hazard)),
    h('td', { class: 'num' }, share(r.cumulative_missed)),
    h('td', {}, r.above_expected ? h('span', { class: 'state-bad' }, 'above expected') : ''),
  );
}

/** Draws the strategy and hazard tables from the /api/calibration answer. */
export function drawCalibrationDetail(answer) {
  const rows = answer.strategies.flatMap((s) => [
    ...[...s.vintages].reverse().map((r) => strategyRow(s.strategy, r, false)),
    strategyRow(s.strategy, s.pooled, true),
  ]);
  fill(byTestId('calibration-strategies').querySelector('tbody'), rows);
  fill(byTestId('calibration-hazard').querySelector('tbody'), answer.hazard.map(hazardRow));
  byTestId('calibration-hazard-empty').hidden = answer.hazard.length > 0;
}
