// Returns over time and default rates, drawn with Chart.js (served from node_modules as
// /assets/vendor/chart.umd.min.js, the global `Chart`). Charts are made once and updated in
// place, so a refresh does not flicker or lose a tooltip. The time charts put each point at its
// date on a linear axis of epoch milliseconds (no date adapter needed): uneven dates are spaced
// by the time between them, not evenly.
import { getJson } from './api.js';
import { drawChart } from './charts.js';
import { byTestId, fill, h } from './dom.js';
import { count, money, moneyShort, percent, riskName } from './format.js';

const COLORS = { equity: '#2f5d62', interest: '#3a7d44', losses: '#b23a48', bars: '#5e81ac' };

// Whole dollars, except on an axis of a few dollars (an account's first days), where whole dollars would all read "$0".
function moneyAxis(title) {
  return { title: { display: true, text: title }, ticks: { callback: (v) => (Math.abs(v) < 1000 && v !== 0 ? money(v) : moneyShort(v)) } };
}

function percentAxis(title) {
  return { title: { display: true, text: title }, beginAtZero: true, ticks: { callback: (v) => percent(v, 0) } };
}

const DAY_MS = 86_400_000;
// Tick steps in days: the first that leaves at most eight ticks, so date labels never run together.
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364, 728];

/** A linear x axis over epoch ms from `minMs` to `maxMs`, ticks on whole UTC days labelled as dates. */
function timeAxis(title, minMs, maxMs) {
  const spanDays = Math.max(1, (maxMs - minMs) / DAY_MS);
  const step = DAY_STEPS.find((days) => spanDays / days <= 8) ?? Math.ceil(spanDays / 8);
  return {
    type: 'linear',
    min: minMs,
    max: Math.max(maxMs, minMs + DAY_MS),
    title: { display: true, text: title },
    ticks: { stepSize: step * DAY_MS, maxRotation: 0, autoSkip: true, callback: (v) => new Date(v).toISOString().slice(0, 10) },
  };
}

function timeOptions(y, tooltipLabel, minMs, maxMs) {
  const options = baseOptions('Date (UTC)', y, tooltipLabel);
  options.scales.x = timeAxis('Date (UTC)', minMs, maxMs);
  options.interaction = { mode: 'nearest', axis: 'x', intersect: false };
  options.plugins.tooltip.callbacks.title = (items) => (items[0] ? new Date(items[0].parsed.x).toISOString().slice(0, 10) : '');
  return options;
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

/** Draws on the canvas with this test id (charts.js). */
function draw(testid, config) {
  drawChart(testid, byTestId(testid), config);
}

function line(label, color, data) {
  return { label, data, borderColor: color, backgroundColor: color, borderWidth: 2, pointRadius: 0, tension: 0.1 };
}

/** A series as {x: epoch ms, y} points, in time order. */
function points(series, key) {
  return series.map((point) => ({ x: Date.parse(point.at), y: point[key] }));
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

  const equity = points(answer.equity, 'equityCents');
  const interest = points(answer.interest, 'cents');
  const losses = points(answer.losses, 'cents');
  const times = [...equity, ...interest, ...losses].map((point) => point.x);
  const minMs = times.length > 0 ? Math.min(...times) : Date.now();
  const maxMs = times.length > 0 ? Math.max(...times) : minMs + DAY_MS;
  draw('chart-equity', {
    type: 'line',
    data: { datasets: [line('Equity', COLORS.equity, equity)] },
    options: timeOptions(moneyAxis('Dollars'), moneyTooltip, minMs, maxMs),
  });

  draw('chart-interest', {
    type: 'line',
    data: {
      datasets: [line('Realised interest', COLORS.interest, interest), line('Losses (written off and expected)', COLORS.losses, losses)],
    },
    // Before the first repayment both series are zero: an axis up to $100 rather than a squashed one.
    options: timeOptions({ ...moneyAxis('Dollars, cumulative'), beginAtZero: true, suggestedMax: 10000 }, moneyTooltip, minMs, maxMs),
  });

  const levels = answer.defaultRates.byRiskLevel;
  draw('chart-default-risk', {
    type: 'bar',
    // Two-line labels with the count: a bar at 0 % of 40 loans says more than one of 2.
    data: {
      labels: levels.map((row) => [row.riskLevel === null ? 'unknown' : `Risk ${riskName(row.riskLevel)}`, loans(row.loans)]),
      datasets: [{ label: 'Default rate', data: levels.map((row) => row.rate), backgroundColor: COLORS.bars }],
    },
    options: baseOptions('Risk level', percentAxis('Loans in collection or default'), rateTooltip(levels)),
  });

  const months = answer.defaultRates.byOriginationMonth;
  draw('chart-default-month', {
    type: 'bar',
    data: {
      labels: months.map((row) => [row.month, loans(row.loans)]),
      datasets: [{ label: 'Default rate', data: months.map((row) => row.rate), backgroundColor: COLORS.bars }],
    },
    options: baseOptions('Month of origination', percentAxis('Loans in collection or default'), rateTooltip(months)),
  });

  const totals = answer.totals;
  byTestId('returns-totals').textContent = totals
    ? `equity ${money(totals.equityCents)} (cash ${money(totals.cashCents)} + loans out ${money(totals.outstandingCents)} − expected losses ${money(totals.expectedLossCents)}), interest ${money(totals.interestCents)}, written off ${money(totals.writtenOffCents)}`
    : '';
  fill(
    byTestId('returns-notes'),
    (answer.notes ?? []).map((note) => h('li', {}, note)),
  );
}
