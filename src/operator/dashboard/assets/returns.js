// Returns over time and default rates, drawn with Chart.js (served from node_modules as
// /assets/vendor/chart.umd.min.js, the global `Chart`). Charts are made once and updated in
// place, so a refresh does not flicker or lose a tooltip.
import { getJson } from './api.js';
import { byTestId, fill, h } from './dom.js';
import { count, money, moneyShort, percent, riskName } from './format.js';

const COLORS = { equity: '#2f5d62', interest: '#3a7d44', losses: '#b23a48', bars: '#5e81ac' };
const charts = new Map();

// Whole dollars, except on an axis of a few dollars (an account's first days), where whole dollars would all read "$0".
function moneyAxis(title) {
  return { title: { display: true, text: title }, ticks: { callback: (v) => (Math.abs(v) < 1000 && v !== 0 ? money(v) : moneyShort(v)) } };
}

function percentAxis(title) {
  return { title: { display: true, text: title }, beginAtZero: true, ticks: { callback: (v) => percent(v, 0) } };
}

function baseOptions(xTitle, y, tooltipLabel) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    scales: { x: { title: { display: true, text: xTitle }, ticks: { maxRotation: 0, autoSkip: true } }, y },
    plugins: { legend: { display: true, position: 'bottom' }, tooltip: { callbacks: { label: tooltipLabel } } },
  };
}

/** Creates the chart on first data and updates it afterwards. */
function draw(testid, config) {
  const existing = charts.get(testid);
  if (existing) {
    existing.data.labels = config.data.labels;
    config.data.datasets.forEach((dataset, i) => {
      if (existing.data.datasets[i]) existing.data.datasets[i].data = dataset.data;
    });
    existing.options.plugins.tooltip.callbacks.label = config.options.plugins.tooltip.callbacks.label;
    existing.update('none');
    return;
  }
  const ChartJs = globalThis.Chart;
  if (typeof ChartJs !== 'function') throw new Error('Chart.js did not load (/assets/vendor/chart.umd.min.js)');
  charts.set(testid, new ChartJs(byTestId(testid), config));
}

function line(label, color, data) {
  return { label, data, borderColor: color, backgroundColor: color, borderWidth: 2, pointRadius: 0, tension: 0.1 };
}

// The three series are by day but not on the same days: one label list, values carried forward.
function byDay(series, key) {
  return new Map(series.map((point) => [point.at.slice(0, 10), point[key]]));
}

function carried(days, values) {
  let last = 0;
  return days.map((d) => (values.has(d) ? (last = values.get(d)) : last));
}

function loans(n) {
  return `${count(n)} loan${n === 1 ? '' : 's'}`;
}

function rateTooltip(rows) {
  return (context) => {
    const row = rows[context.dataIndex];
    return `${percent(row.rate)} (${count(row.defaults)} of ${loans(row.loans)})`;
  };
}

export async function refreshReturns() {
  const answer = await getJson('/api/returns');
  const moneyTooltip = (context) => `${context.dataset.label}: ${money(context.parsed.y)}`;

  const equity = byDay(answer.equity, 'equityCents');
  const equityDays = [...equity.keys()];
  draw('chart-equity', {
    type: 'line',
    data: { labels: equityDays, datasets: [line('Equity', COLORS.equity, equityDays.map((d) => equity.get(d)))] },
    options: baseOptions('Day (UTC)', moneyAxis('Dollars'), moneyTooltip),
  });

  const interest = byDay(answer.interest, 'cents');
  const losses = byDay(answer.losses, 'cents');
  const days = [...new Set([...interest.keys(), ...losses.keys()])].sort();
  draw('chart-interest', {
    type: 'line',
    data: { labels: days, datasets: [line('Realised interest', COLORS.interest, carried(days, interest)), line('Losses', COLORS.losses, carried(days, losses))] },
    // Before the first repayment both series are zero: an axis up to $100 rather than a squashed one.
    options: baseOptions('Day (UTC)', { ...moneyAxis('Dollars, cumulative'), beginAtZero: true, suggestedMax: 10000 }, moneyTooltip),
  });

  const levels = answer.defaultRates.byRiskLevel;
  draw('chart-default-risk', {
    type: 'bar',
    // Two-line labels with the count: a bar at 0 % of 40 loans says more than one of 2.
    data: { labels: levels.map((row) => [row.riskLevel === null ? 'unknown' : `Risk ${riskName(row.riskLevel)}`, loans(row.loans)]), datasets: [{ label: 'Default rate', data: levels.map((row) => row.rate), backgroundColor: COLORS.bars }] },
    options: baseOptions('Risk level', percentAxis('Loans in collection or default'), rateTooltip(levels)),
  });

  const months = answer.defaultRates.byOriginationMonth;
  draw('chart-default-month', {
    type: 'bar',
    data: { labels: months.map((row) => [row.month, loans(row.loans)]), datasets: [{ label: 'Default rate', data: months.map((row) => row.rate), backgroundColor: COLORS.bars }] },
    options: baseOptions('Month of origination', percentAxis('Loans in collection or default'), rateTooltip(months)),
  });

  const totals = answer.totals;
  byTestId('returns-totals').textContent = totals
    ? `equity ${money(totals.equityCents)}, interest ${money(totals.interestCents)}, losses ${money(totals.lossesCents)}`
    : '';
  fill(byTestId('returns-notes'), (answer.notes ?? []).map((note) => h('li', {}, note)));
}
