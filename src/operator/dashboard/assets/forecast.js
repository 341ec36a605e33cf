// Money coming back and idle cash (GET /api/cash-flow): the default-adjusted forecast of the next
// 12 months as stacked bars (principal, interest, and what the money lent again would bring) with
// the schedule before defaults as a line, and the share of money idle over time on a true time
// axis (samples are not evenly spaced), with why it is idle and the alert's state.
import { getJson } from './api.js';
import { drawChart } from './charts.js';
import { byTestId, fill, h } from './dom.js';
import { count, counted, money, moneyShort, percent, time } from './format.js';

const COLORS = {
  principal: '#2f5d62',
  interest: '#3a7d44',
  reinvested: '#a3be8c',
  scheduled: '#4c566a',
  idle: '#b0793a',
  threshold: '#b23a48',
};
const HALF_DAY_MS = 12 * 3_600_000;

/** Draws on the canvas with this test id (charts.js). */
function draw(testid, config) {
  drawChart(testid, byTestId(testid), config);
}

const moneyTooltip = (context) => `${context.dataset.label}: ${money(context.parsed.y)}`;

function forecastChart(forecast) {
  const months = forecast.months;
  const bar = (label, color, key) => ({ type: 'bar', label, data: months.map((m) => m[key]), backgroundColor: color, stack: 'expected' });
  draw('chart-forecast', {
    data: {
      labels: months.map((m) => m.month),
      datasets: [
        bar('Expected principal', COLORS.principal, 'expected_principal_cents'),
        bar('Expected interest', COLORS.interest, 'expected_interest_cents'),
        bar('From money lent again', COLORS.reinvested, 'reinvestment_inflow_cents'),
        {
          type: 'line',
          label: 'Scheduled, before defaults',
          data: months.map((m) => m.scheduled_principal_cents + m.scheduled_interest_cents),
          borderColor: COLORS.scheduled,
          backgroundColor: COLORS.scheduled,
          borderDash: [4, 3],
          pointRadius: 2,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { stacked: true, title: { display: true, text: 'Month (UTC)' }, ticks: { maxRotation: 0, autoSkip: true } },
        y: { stacked: true, beginAtZero: true, title: { display: true, text: 'Dollars' }, ticks: { callback: (v) => moneyShort(v) } },
      },
      plugins: { legend: { display: true, position: 'bottom' }, tooltip: { callbacks: { label: moneyTooltip } } },
    },
  });
}

function idleChart(idle) {
  const points = idle.series.map((p) => ({ x: Date.parse(p.at), y: p.share }));
  // A single sample (a daemon just started) gets a day around it, so the axis has a span to label.
  const first = (points[0]?.x ?? 0) - (points.length < 2 ? HALF_DAY_MS : 0);
  const last = (points.at(-1)?.x ?? 0) + (points.length < 2 ? HALF_DAY_MS : 0);
  const tick =
    last - first > 3 * 2 * HALF_DAY_MS
      ? (v) => new Date(v).toISOString().slice(0, 10)
      : (v) => new Date(v).toISOString().slice(5, 16).replace('T', ' ');
  draw('chart-idle', {
    type: 'line',
    data: {
      datasets: [
        {
          label: 'Share idle',
          data: points,
          borderColor: COLORS.idle,
          backgroundColor: COLORS.idle,
          borderWidth: 2,
          pointRadius: points.length < 30 ? 2 : 0,
          stepped: true,
        },
        {
          label: 'Alert threshold',
          data: [
            { x: first, y: idle.alert.max_idle_share },
            { x: last, y: idle.alert.max_idle_share },
          ],
          borderColor: COLORS.threshold,
          borderDash: [4, 3],
          pointRadius: 0,
          borderWidth: 1,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: false,
      scales: {
        // Milliseconds on a linear axis: samples sit where they were taken, ticks are UTC days.
        x: {
          type: 'linear',
          min: first,
          max: last,
          title: { display: true, text: 'Time (UTC)' },
          ticks: { maxRotation: 0, maxTicksLimit: 5, autoSkipPadding: 16, callback: tick },
        },
        y: { min: 0, max: 1, title: { display: true, text: 'Share of the money' }, ticks: { callback: (v) => percent(v, 0) } },
      },
      plugins: {
        legend: { display: true, position: 'bottom' },
        tooltip: {
          callbacks: {
            title: (items) => time(new Date(items[0]?.parsed.x ?? 0).toISOString()),
            label: (context) => `${context.dataset.label}: ${percent(context.parsed.y, 0)}`,
          },
        },
      },
    },
  });
}

function reasonItems(reasons) {
  const items = [];
  items.push(
    `${counted(reasons.requests, 'request')} arrived, ${count(reasons.offers)} offered, ${count(reasons.skips)} skipped in the last ${reasons.window_hours} h`,
  );
  for (const cause of reasons.strategy_skips) items.push(`Skipped by ${cause.label}: ${count(cause.count)}`);
  for (const cause of reasons.guard_refusals) items.push(`Refused by ${cause.label}: ${count(cause.count)}`);
  if (reasons.reserved_cents > 0) items.push(`Held by open offers: ${money(reasons.reserved_cents)}`);
  return items.map((text) => h('li', {}, text));
}

function alertText(alert) {
  const level = percent(alert.max_idle_share, 0);
  if (!alert.enabled) return 'Idle-cash alert off.';
  if (alert.alerted_at !== null) return `Alert: above ${level} since ${time(alert.above_since)}.`;
  if (alert.above_since !== null) return `Above ${level} since ${time(alert.above_since)}; an alert after ${alert.for_hours} h.`;
  return `An alert when above ${level} for ${alert.for_hours} h.`;
}

export async function refreshForecast() {
  const { forecast, idle } = await getJson('/api/cash-flow');
  const next = forecast.next_month;
  byTestId('forecast-summary').textContent =
    forecast.loans === 0
      ? 'No open loans: nothing is expected back.'
      : `Expected back in ${next.month}: ${money(next.expected_cents)}; next 12 months ${money(forecast.totals.expected_cents)} (scheduled ${money(forecast.totals.scheduled_cents)} before defaults), from ${count(forecast.loans)} loan${forecast.loans === 1 ? '' : 's'}.`;
  forecastChart(forecast);
  fill(
    byTestId('forecast-notes'),
    h('li', {}, forecast.reinvestment.assumption),
    h(
      'li',
      {},
      "Each loan's instalments are weighted by its chance of still paying, from the repayment probability the strategy gave it; late loans count as riskier, and nothing is assumed recovered after a default.",
    ),
  );
  const idleNow = byTestId('idle-now');
  idleNow.textContent = `${percent(idle.share, 0)} of your money is idle (${money(idle.free_cents)} free; ${money(idle.reserved_cents)} held by open offers; ${money(idle.outstanding_cents)} lent out).`;
  idleNow.className = idle.alert.alerted_at !== null ? 'state-bad' : '';
  idleChart(idle);
  byTestId('idle-why').textContent = `${idle.why} ${alertText(idle.alert)}`;
  fill(byTestId('idle-reasons'), reasonItems(idle.reasons));
}
