// Prices that learn (pricing.learning; docs/market-model.md, "Learning while live"): per learning
// strategy, the chance an offer is taken at each rate for a typical request, as the configured
// market response says (prior) and as the strategy has learned from its offers' fates, drawn
// with Chart.js (the global `Chart`). The section stays hidden while no strategy learns.
import { getJson } from './api.js';
import { drawChart, forgetChart } from './charts.js';
import { byTestId, fill, h } from './dom.js';
import { count, counted, money, percent } from './format.js';

const COLORS = { prior: '#8a8f98', learned: '#2f5d62' };
/** The strategies the figures were made for, in order (one a line). */
let drawnNames = '';
const chartKey = (strategy) => `market-learning:${strategy}`;

function curveChart(canvas, item) {
  const labels = item.curve.map((point) => percent(point.rate));
  const dataset = (label, color, key, dash) => ({
    label,
    data: item.curve.map((point) => point[key]),
    borderColor: color,
    backgroundColor: color,
    borderWidth: 2,
    borderDash: dash,
    pointRadius: 2,
    tension: 0.2,
  });
  const data = {
    labels,
    datasets: [
      dataset('Prior (configured)', COLORS.prior, 'prior', [6, 4]),
      dataset(`Learned (v${item.version})`, COLORS.learned, 'learned', []),
    ],
  };
  drawChart(chartKey(item.strategy), canvas, {
    type: 'line',
    data,
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { title: { display: true, text: 'Offered rate (typical request: max 30 %, default 10 %)' } },
        y: { title: { display: true, text: 'Chance the offer is taken' }, beginAtZero: true, ticks: { callback: (v) => percent(v, 0) } },
      },
      plugins: {
        legend: { display: true, position: 'bottom' },
        tooltip: { callbacks: { label: (context) => `${context.dataset.label}: ${percent(context.parsed.y)}` } },
      },
    },
  });
}

/** Fetches the learned responses and draws one panel a strategy. */
export async function refreshMarketLearning() {
  const { strategies } = await getJson('/api/market-learning');
  const section = byTestId('market-learning');
  section.hidden = strategies.length === 0;
  if (strategies.length === 0) return;
  const list = byTestId('market-learning-list');
  const names = strategies.map((item) => item.strategy).join('\n');
  if (names !== drawnNames) {
    // Other strategies (or another order): new figures; each chart is remade on its new canvas.
    for (const name of drawnNames.split('\n')) if (name !== '') forgetChart(chartKey(name));
    drawnNames = names;
    fill(
      list,
      strategies.map((item) =>
        h(
          'figure',
          { class: 'chart', dataset: { testid: `market-learning-${item.strategy}` } },
          h('figcaption', {}, item.strategy, ' ', h('span', { class: 'muted', dataset: { testid: 'market-learning-figures' } })),
          h('div', { class: 'chart-box' }, h('canvas', { 'aria-label': `Learned and prior take-up of ${item.strategy}` })),
        ),
      ),
    );
  }
  strategies.forEach((item, index) => {
    const figure = list.children[index];
    figure.querySelector('[data-testid="market-learning-figures"]').textContent =
      `version ${count(item.version)}, learned from ${counted(item.evidence, 'offer')} (${count(item.accepted)} taken); exploring cost ${money(item.exploration_cost_cents)} of ${money(item.offered_value_cents)} expected`;
    curveChart(figure.querySelector('canvas'), item);
  });
}
