// The expected-profit price curve of one decision, drawn with Chart.js (the global `Chart`): for
// each rate from break-even to the cap, what an offer is worth before the borrower answers
// (P(accept) × profit), the profit if accepted, and the chance of acceptance, the chosen rate
// marked. The same curve `lendbot strategy explain` prints as a table.
import { chartJs } from './charts.js';
import { byTestId } from './dom.js';
import { money, percent } from './format.js';

const COLORS = { value: '#2f5d62', profit: '#8a6d3b', accept: '#5e81ac', chosen: '#b23a48' };
let chart = null;

function series(label, color, points, y, axis, extra = {}) {
  return {
    label,
    data: points.map((point) => ({ x: point.rate, y: y(point) })),
    yAxisID: axis,
    borderColor: color,
    backgroundColor: color,
    borderWidth: 2,
    pointRadius: 0,
    ...extra,
  };
}

/**
 * Draws the curve on the panel's canvas, replacing the last one; nothing without points.
 * `offered`: whether the decision offered; a skip's curve is recomputed, so its rate was never chosen.
 */
export function drawPriceCurve(points, { offered = true } = {}) {
  chart?.destroy();
  chart = null;
  if (!Array.isArray(points) || points.length === 0) return;
  const ChartJs = chartJs();
  const chosen = points.find((point) => point.chosen);
  // Whole percents repeat on a narrow curve (29.9 % to 32.4 %): tenths there.
  const span = points[points.length - 1].rate - points[0].rate;
  const tick = (v) => percent(v, span < 0.1 ? 1 : 0);
  const datasets = [
    series('P(accept) × profit', COLORS.value, points, (point) => point.valueCents, 'money'),
    series('Profit if accepted', COLORS.profit, points, (point) => point.profitCents, 'money', { borderDash: [5, 4] }),
    series('P(accept)', COLORS.accept, points, (point) => point.acceptProbability, 'share'),
  ];
  if (chosen) {
    datasets.push({
      type: 'scatter',
      label: `${offered ? 'Chosen rate' : 'Rate it would have asked'} ${percent(chosen.rate)}`,
      data: [{ x: chosen.rate, y: chosen.valueCents }],
      yAxisID: 'money',
      pointRadius: 6,
      pointStyle: 'rectRot',
      borderColor: COLORS.chosen,
      backgroundColor: COLORS.chosen,
    });
  }
  chart = new ChartJs(byTestId('explanation-curve-canvas'), {
    type: 'line',
    data: { datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'Rate offered' }, ticks: { maxRotation: 0, autoSkip: true, callback: tick } },
        money: { position: 'left', title: { display: true, text: 'Dollars' }, ticks: { callback: (v) => money(v) } },
        share: {
          position: 'right',
          min: 0,
          max: 1,
          title: { display: true, text: 'P(accept)' },
          grid: { drawOnChartArea: false },
          ticks: { callback: (v) => percent(v, 0) },
        },
      },
      plugins: {
        legend: { position: 'bottom' },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? `at ${percent(items[0].parsed.x, 2)}` : ''),
            label: (context) =>
              `${context.dataset.label}: ${context.dataset.yAxisID === 'share' ? percent(context.parsed.y) : money(context.parsed.y)}`,
          },
        },
      },
    },
  });
}
