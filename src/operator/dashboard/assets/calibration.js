// Calibration: for each month's loans (by the month they were made), the default the strategies
// predicted against the default seen so far, with its 95 % range and the counts. A month whose
// whole range lies above the prediction (on enough loans) is marked: its loans go bad more often
// than the score said. Young months read low: their loans have had little time to go bad.
import { getJson } from './api.js';
import { byTestId, fill, h } from './dom.js';
import { count, counted, percent } from './format.js';
import { drawCalibrationDetail } from './calibration-detail.js';

function share(value) {
  return value === null ? '–' : percent(value);
}

function row(r, pooled = false) {
  const range = r.realised_low === null ? '–' : `${percent(r.realised_low)} to ${percent(r.realised_high)}`;
  const verdict = r.above_predicted ? h('span', { class: 'state-bad' }, 'above predicted') : r.loans === 0 ? '' : 'within';
  return h(
    'tr',
    { dataset: { testid: pooled ? 'calibration-pooled' : `calibration-${r.vintage}` }, class: pooled ? 'total' : '' },
    h('td', {}, pooled ? 'All months shown' : r.vintage),
    h('td', { class: 'num' }, count(r.loans)),
    h('td', { class: 'num' }, share(r.predicted_default)),
    h('td', { class: 'num' }, share(r.realised_default)),
    h('td', { class: 'num' }, range),
    h('td', { class: 'num' }, count(r.defaulted)),
    h('td', { class: 'num' }, count(r.delinquent)),
    h('td', { class: 'num' }, count(r.repaid)),
    h('td', {}, verdict),
  );
}

/** Fetches /api/calibration and draws the table, newest month first, and the alert when one holds. */
export async function refreshCalibration() {
  const answer = await getJson('/api/calibration');
  const body = byTestId('calibration-table').querySelector('tbody');
  const rows = [...answer.vintages].reverse().map((r) => row(r));
  fill(body, rows.length === 0 ? [] : [...rows, row(answer.pooled, true)]);
  byTestId('calibration-empty').hidden = rows.length > 0;
  const unpredicted = answer.pooled.unpredicted;
  fill(
    byTestId('calibration-note'),
    `Loans made since ${answer.since}; a month is judged on at least ${answer.min_loans} loans.`,
    unpredicted > 0 ? ` ${counted(unpredicted, 'loan')} had no prediction (made by hand) and are left out.` : '',
  );
  drawCalibrationDetail(answer);
  const alert = byTestId('calibration-alert');
  alert.hidden = answer.alert === null;
  if (answer.alert !== null)
    alert.textContent = `Loans default more often than predicted (since ${answer.alert.since.slice(0, 10)}): ${answer.alert.figures}`;
}
